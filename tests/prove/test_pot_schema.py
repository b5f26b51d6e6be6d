"""The DSL loader: programs in the paper's appendix shape load unchanged; bad ones fail
with the JSON path of the mistake."""

from __future__ import annotations

import json

import pytest

from sym.core.errors import UserError
from sym.core.reason.pot.build import build
from sym.core.reason.pot.schema import Assertion, load_program, program_json_schema

# shapes taken from the Proof of Thought appendix (rewritten, not copied)
CHEROKEE = {
    "sorts": [{"name": "Group", "type": "DeclareSort"}, {"name": "Action", "type": "DeclareSort"},
              {"name": "Bool", "type": "BoolSort"}],
    "functions": [{"name": "send_delegation", "domain": ["Group"], "range": "Bool"},
                  {"name": "oppose_allotment", "domain": ["Group"], "range": "Bool"}],
    "constants": {"groups": {"sort": "Group", "members": ["cherokee_people"]},
                  "actions": {"sort": "Action", "members": ["allotment"]}},
    "variables": [{"name": "g", "sort": "Group"}],
    "knowledge_base": [
        {"assertion": "send_delegation(cherokee_people)"},
        {"assertion": "ForAll([g], Implies(send_delegation(g), oppose_allotment(g)))",
         "variables": [{"name": "g", "sort": "Group"}]}],
    "verifications": [{"name": "Cherokee oppose allotment", "constraint": "oppose_allotment(cherokee_people)"}],
    "actions": ["verify_conditions"],
}

PALLET = {  # spelled `knowledgebase`, as one appendix program is
    "sorts": [{"name": "Person", "type": "DeclareSort"}, {"name": "Equipment", "type": "DeclareSort"},
              {"name": "SafetyEquipment", "type": "DeclareSort"}],
    "functions": [{"name": "StandingOn", "domain": ["Person", "Equipment"], "range": "BoolSort"},
                  {"name": "UsingSafetyEquipment", "domain": ["Person", "SafetyEquipment"], "range": "BoolSort"},
                  {"name": "IsSafe", "domain": ["Person"], "range": "BoolSort"}],
    "constants": {"persons": {"sort": "Person", "members": ["worker"]},
                  "equipments": {"sort": "Equipment", "members": ["forklift", "pallet"]},
                  "safetyEquipments": {"sort": "SafetyEquipment", "members": ["harness"]}},
    "knowledgebase": [{"assertion": "StandingOn(worker, pallet)", "value": True},
                      {"assertion": "UsingSafetyEquipment(worker, harness)", "value": False}],
    "rules": [{"name": "Safety Rule", "forall": [{"name": "p", "sort": "Person"}],
               "implies": {"antecedent": "And(StandingOn(p, pallet), Not(UsingSafetyEquipment(p, harness)))",
                           "consequent": "Not(IsSafe(p))"}}],
    "verifications": [{"name": "Verify Safety", "constraint": "IsSafe(worker)"}],
    "actions": ["verify_conditions"],
}

TASKS = {  # the figure's task-assignment program: inline binders, Sum, optimization
    "sorts": [{"name": "Person", "type": "DeclareSort"}, {"name": "Task", "type": "DeclareSort"},
              {"name": "Location", "type": "DeclareSort"}, {"name": "Time", "type": "RealSort"}],
    "functions": [{"name": "assigned_to", "domain": ["Task", "Person"], "range": "BoolSort"},
                  {"name": "location_of", "domain": ["Person"], "range": "Location"},
                  {"name": "start_time", "domain": ["Task"], "range": "Time"},
                  {"name": "skill_level", "domain": ["Person", "Task"], "range": "IntSort"}],
    "constants": {"persons": {"sort": "Person", "members": ["alice", "bob"]},
                  "tasks": {"sort": "Task", "members": ["task1"]},
                  "locations": {"sort": "Location", "members": ["warehouse_A"]}},
    "variables": [{"name": "p", "sort": "Person"}, {"name": "t", "sort": "Task"}],
    "knowledge_base": ["assigned_to(task1, alice)", "location_of(alice) == warehouse_A",
                       "start_time(task1) == 9.0", "skill_level(alice, task1) == 5"],
    "verifications": [
        {"name": "All tasks assigned", "forall": [{"name": "t", "sort": "Task"}],
         "constraint": "Exists([{'name': 'p', 'sort': 'Person'}], assigned_to(t, p))"},
        {"name": "No overqualified assignments",
         "forall": [{"name": "p", "sort": "Person"}, {"name": "t", "sort": "Task"}],
         "implies": {"antecedent": "assigned_to(t, p)", "consequent": "skill_level(p, t) <= 7"}}],
    "optimization": {
        "variables": [{"name": "x", "sort": "Person"}, {"name": "y", "sort": "Task"}],
        "constraints": ["ForAll([x, y], Implies(assigned_to(y, x), skill_level(x, y) >= 3))"],
        "objectives": [{"type": "minimize", "expression": "Sum([x, y], If(assigned_to(y, x), skill_level(x, y), 0))"}]},
    "actions": ["verify_conditions", "optimize"],
}

PIGEONS = {
    "sorts": [{"name": "Pigeon", "type": "EnumSort", "values": ["p1", "p2", "p3", "p4"]},
              {"name": "Hole", "type": "EnumSort", "values": ["h1", "h2", "h3"]}],
    "functions": [{"name": "assigned_to", "domain": ["Pigeon"], "range": "Hole"}],
    "constants": {}, "knowledge_base": [], "rules": [],
    "verifications": [{"name": "Pigeonhole",
                       "constraint": "Distinct(assigned_to(p1), assigned_to(p2), assigned_to(p3), assigned_to(p4))"}],
    "actions": ["verify_conditions"],
}


@pytest.mark.parametrize("program", [CHEROKEE, PALLET, TASKS, PIGEONS], ids=["cherokee", "pallet", "tasks", "pigeons"])
def test_appendix_programs_load_and_build_unchanged(program):
    loaded = load_program(json.dumps(program))
    built = build(loaded)
    assert len(built.verifications) == len(program["verifications"])


def test_the_knowledgebase_spelling_is_the_knowledge_base():
    loaded = load_program(PALLET)
    assert [a.value for a in loaded.knowledge_base if isinstance(a, Assertion)] == [True, False]


def test_a_missing_field_is_named_by_its_path():
    bad = json.loads(json.dumps(PALLET))
    bad["knowledgebase"][1] = {"assert": "IsSafe(worker)"}
    with pytest.raises(UserError, match=r"knowledge_?base\[1\]\.assertion"):
        load_program(bad)


def test_a_rule_needs_implies_or_constraint():
    with pytest.raises(UserError, match=r"rules\[0\]: a rule has either"):
        load_program({"rules": [{"name": "empty", "forall": []}]})


@pytest.mark.parametrize("name", ["__import__", "os.system", "And", "a b", ""])
def test_declared_names_are_plain_identifiers(name):
    with pytest.raises(UserError, match=r"functions\[0\]\.name"):
        load_program({"functions": [{"name": name, "domain": [], "range": "IntSort"}]})


def test_unknown_keys_and_actions_are_rejected():
    with pytest.raises(UserError, match="extra_key"):
        load_program({"extra_key": 1})
    with pytest.raises(UserError, match=r"actions\[0\]"):
        load_program({"actions": ["rm -rf"]})


def test_not_json_is_a_clean_error():
    with pytest.raises(UserError, match="not JSON"):
        load_program("{'sorts': [}")
    with pytest.raises(UserError, match="JSON object"):
        load_program("[1, 2]")


def test_the_json_schema_describes_every_section():
    schema = program_json_schema()
    assert {"sorts", "functions", "constants", "knowledge_base", "rules", "verifications", "optimization",
            "actions"} <= set(schema["properties"])
    json.dumps(schema)   # serialisable, to be sent as `format`


def test_a_schema_can_ask_for_exactly_one_verification_per_name():
    schema = program_json_schema(verifications=["A", "B", "C"])
    checks = schema["properties"]["verifications"]
    assert checks["minItems"] == checks["maxItems"] == 3
    assert schema["required"][:2] == ["sorts", "functions"] and schema["required"][-1] == "verifications"
    one = schema["$defs"]["Verification"]
    assert one["properties"]["name"]["enum"] == ["A", "B", "C"] and "name" in one["required"]
    assert program_json_schema()["properties"]["verifications"].get("minItems") is None   # the default is free


def test_declared_names_are_identifiers_in_the_schema_the_model_writes_to():
    import re

    defs = program_json_schema()["$defs"]
    for pattern in (defs["Sort"]["properties"]["name"]["pattern"], defs["Sort"]["properties"]["values"]["items"]["pattern"],
                    defs["Function"]["properties"]["name"]["pattern"], defs["Variable"]["properties"]["name"]["pattern"],
                    defs["ConstantGroup"]["properties"]["members"]["items"]["pattern"]):
        assert re.fullmatch(pattern, "art_historian") and not re.fullmatch(pattern, "Art Historian")
        assert not re.fullmatch(pattern, "3 days")
    assert defs["Function"]["required"] == ["name", "domain", "range"]     # written in that order, domain too
