"""Policy rules: validation, filters (exact, lists, comparisons), order, conflicts, the YAML book."""

from __future__ import annotations

import os

import pytest

from sym.core.errors import UserError
from sym.core.reason.policy.apply import ordered, plan
from sym.core.reason.policy.classify import classify_goal, run_attributes
from sym.core.reason.policy.rules import PolicyBook, parse_policies, rule_from_data


def rule(name, filter=None, priority=0, **attributes):
    target = "prompter" if "prompter" in attributes else "reasoner"
    return rule_from_data({"name": name, "target": target, "filter": filter or {}, "attributes": attributes,
                           "priority": priority})


def test_exact_values_lists_and_comparisons_match_run_attributes():
    r = rule("r", {"command": ["/ask", "/prove"], "length": ">= 3", "goal_type": "!= math"}, temperature=0)
    assert r.matches({"command": "/ask", "length": 3, "goal_type": "proof"})
    assert r.matches({"command": "/prove", "length": 10, "goal_type": "causal"})
    assert not r.matches({"command": "/explore", "length": 10, "goal_type": "proof"})   # not in the list
    assert not r.matches({"command": "/ask", "length": 2, "goal_type": "proof"})        # too short
    assert not r.matches({"command": "/ask", "length": 5, "goal_type": "math"})         # excluded type
    assert not r.matches({"command": "/ask", "goal_type": "proof"})                     # absent attribute


def test_command_filters_accept_names_without_the_slash_and_compare_case_insensitively():
    r = rule("r", {"command": "ask", "workspace": "Default"}, temperature=0)
    assert r.filter["command"] == "/ask"
    assert r.matches({"command": "/ask", "workspace": "default"})


def test_comparisons_with_bounds_on_both_sides_via_two_rules_and_strict_operators():
    assert rule("short", {"length": "< 5"}, temperature=0).matches({"length": 4})
    assert not rule("short", {"length": "< 5"}, temperature=0).matches({"length": 5})
    assert rule("long", {"length": "> 5"}, temperature=0).matches({"length": 6})
    assert not rule("long", {"length": "> 5"}, temperature=0).matches({"length": "many"})


def test_a_bad_comparison_or_setting_is_one_error_naming_the_rule_and_field():
    with pytest.raises(UserError, match=r"'r'.*filter.*needs a number"):
        rule_from_data({"name": "r", "target": "llm", "filter": {"length": ">= lots"}, "attributes": {"model": "m"}})
    with pytest.raises(UserError, match=r"'r'.*attributes.*temperature"):
        rule_from_data({"name": "r", "target": "llm", "attributes": {"temperature": "hot"}})
    with pytest.raises(UserError, match=r"'r'.*target"):
        rule_from_data({"name": "r", "target": "gpu", "attributes": {"model": "m"}})
    with pytest.raises(UserError, match="at least one attribute"):
        rule_from_data({"name": "r", "target": "llm", "attributes": {}})


def test_setting_attributes_are_validated_and_normalised():
    r = rule_from_data({"name": "r", "target": "reasoner", "attributes": {"proof.attempts": "5", "mode": "paper"}})
    assert r.attributes == {"proof_attempts": 5, "mode": "paper"}


def test_order_is_priority_then_specificity_then_file_order():
    general = rule("general", {}, model="a")
    specific = rule("specific", {"command": "/ask", "goal_type": "proof"}, model="b")
    mid = rule("mid", {"command": "/ask"}, model="c")
    urgent = rule("urgent", {}, priority=5, model="d")
    same1, same2 = rule("same1", {"command": "/ask"}, model="e"), rule("same2", {"command": "/ask"}, model="f")
    names = [r.name for r in ordered([urgent, specific, general, mid, same1, same2])]
    assert names == ["general", "mid", "same1", "same2", "specific", "urgent"]


def test_later_rule_wins_and_the_conflict_is_reported():
    rules = [rule("specific", {"command": "/ask", "goal_type": "proof"}, model="big", temperature=0),
             rule("general", {"command": "/ask"}, model="small", max_steps=4),
             rule("other", {"command": "/prove"}, model="never")]
    steps = plan(rules, {"command": "/ask", "goal_type": "proof"})
    assert [a.rule.name for a in steps.applications] == ["general", "specific"]
    assert steps.settings == {"model": "big", "max_steps": 4, "temperature": 0.0}
    assert [(c.attribute, c.winner, c.loser) for c in steps.conflicts] == [("model", "specific", "general")]
    general = steps.applications[0]
    assert general.changes == {"max_steps": 4} and general.overridden == {"model": "small"}


def test_rules_setting_the_same_value_do_not_conflict_and_hints_are_kept_apart():
    rules = [rule("a", {}, temperature=0, prompter="causal"), rule("b", {"command": "/explore"}, temperature=0)]
    steps = plan(rules, {"command": "/explore"})
    assert steps.conflicts == []
    assert steps.settings == {"temperature": 0.0}
    assert steps.hints == {"prompter": "causal"}


def test_disabled_rules_never_apply():
    off = rule_from_data({"name": "off", "target": "llm", "attributes": {"model": "x"}, "enabled": False})
    assert plan([off], {"command": "/ask"}).applications == []


GOOD = """
classify:
  legal: [contract, tort]
rules:
  - name: cheap
    target: llm
    filter: {command: /ask}
    attributes: {temperature: 0}
"""


def test_a_malformed_file_is_a_clear_error_and_keeps_the_previous_policies(tmp_path):
    path = tmp_path / "policies.yaml"
    path.write_text(GOOD)
    book = PolicyBook(path)
    assert book.refresh() is False
    assert [r.name for r in book.rules] == ["cheap"]
    path.write_text("rules:\n  - name: broken\n    target: llm\n    attributes: {temperature: [1, 2]}\n")
    os.utime(path, ns=(1, 1))   # make sure the stamp differs even on a coarse clock
    assert book.refresh() is True                         # a new error: report it once
    assert "'broken'" in str(book.error) and "temperature" in str(book.error)
    assert [r.name for r in book.rules] == ["cheap"]      # previous policies stay
    assert book.refresh() is False                        # same bad file: not re-read, not re-reported
    with pytest.raises(UserError, match="broken"):
        book.add(rule("new", {}, model="m"))              # no change on top of a broken file
    path.write_text("rules: [ {name: x, target: llm\n")
    os.utime(path, ns=(2, 2))
    assert book.refresh() is True
    assert "policies.yaml:" in book.error.message         # YAML syntax errors say where
    assert [r.name for r in book.rules] == ["cheap"]


def test_the_file_is_reread_only_when_it_changed(tmp_path):
    path = tmp_path / "policies.yaml"
    path.write_text(GOOD)
    book = PolicyBook(path)
    book.refresh()
    version = book.version
    book.refresh()
    assert book.version == version
    path.write_text(GOOD.replace("cheap", "cheaper"))
    os.utime(path, ns=(5, 5))
    book.refresh()
    assert book.version == version + 1 and book.rules[0].name == "cheaper"


def test_saving_round_trips_rules_and_keywords(tmp_path):
    path = tmp_path / "policies.yaml"
    book = PolicyBook(path)
    book.add(rule("deep", {"length": ">= 12"}, priority=2, max_steps=8))
    book.set_keywords("legal", ["contract"])
    head, rules = parse_policies(path.read_text())
    assert head.classify == {"legal": ["contract"]}
    assert rules[0].to_yaml_dict() == {"name": "deep", "target": "reasoner", "filter": {"length": ">= 12"},
                                       "attributes": {"max_steps": 8}, "priority": 2}


def test_duplicate_names_are_refused():
    with pytest.raises(UserError, match="used twice"):
        parse_policies("- {name: a, target: llm, attributes: {model: m}}\n- {name: a, target: llm, attributes: {model: n}}")


def test_goal_types_come_from_user_keywords_then_builtin_keywords():
    user = {"legal": ["contract", "tort"]}
    assert classify_goal("Does the contract entail payment?", user=user) == ("legal", "user")
    assert classify_goal("Prove that Socrates is mortal", user=user) == ("proof", "keyword")
    assert classify_goal("Why does ice float?") == ("causal", "keyword")
    assert classify_goal("solve x^2 = 4") == ("math", "keyword")
    assert classify_goal("bob likes tea") == ("general", "default")


def test_run_attributes_count_words_and_spot_questions():
    a = run_attributes("/ask", "Is Bob big?", workspace="w", goal_type="factual")
    assert a == {"command": "/ask", "goal_type": "factual", "length": 3, "workspace": "w", "has_question": True,
                 "source": "typed"}
    assert run_attributes("/tell", "Bob is big.", workspace="w", source="x.sym:3")["source"] == "script"
