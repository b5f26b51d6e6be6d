"""Schema: predicates and objects counted as memory changes, NL templates, near duplicates."""

from __future__ import annotations

import json

import pytest

from sym.core.errors import UserError
from sym.core.logic.terms import Var
from sym.core.memory.schema import DUPLICATE_THRESHOLD, Predicate, Schema, SchemaDataError

TRUE_DUPLICATES = [("located_at", "located_in"), ("fatherof", "father_of"), ("fatherOf", "father_of"),
                   ("isFriendOf", "friend_of"), ("parent", "parents")]
LOOK_ALIKES = [("father_of", "mother_of"), ("big", "red"), ("likes", "sees"), ("parent_of", "ancestor_of")]


def schema_with(*keys: str) -> Schema:
    schema = Schema()
    for key in keys:
        name, arity = key.rsplit("/", 1)
        schema.observe(name, tuple(f"c{i}" for i in range(int(arity))))
    return schema


def score(new: str, existing: str, arity: int = 2) -> float:
    found = schema_with(f"{existing}/{arity}").near_duplicates(new, arity, threshold=0.0)
    return found[0][1] if found else 0.0


# -- counting ------------------------------------------------------------------------

def test_observing_counts_predicates_and_objects():
    schema = Schema()
    first = schema.observe("father_of", ("joshua", "don"))
    again = schema.observe("father_of", ("joshua", "ann"))
    assert first is again and again == Predicate("father_of", 2, "", 2)
    assert again.key == "father_of/2"
    assert schema.objects == {"joshua": 2, "don": 1, "ann": 1}


def test_numbers_and_variables_are_not_objects_and_rule_atoms_give_their_arity():
    schema = Schema()
    schema.observe("height", ("bob", 180))
    schema.observe("taller", (), arity=2)  # an atom of a rule: variables only
    schema.observe("big", (Var("X"),))
    assert schema.objects == {"bob": 1}
    assert set(schema.predicates) == {"height/2", "taller/2", "big/1"}


def test_forgetting_undoes_observing_and_drops_what_reaches_zero():
    schema = Schema()
    schema.observe("father_of", ("joshua", "don"))
    schema.observe("father_of", ("joshua", "ann"))
    schema.forget("father_of", ("joshua", "don"))
    assert schema.predicates["father_of/2"].count == 1
    assert schema.objects == {"joshua": 1, "ann": 1}
    schema.forget("father_of", ("joshua", "ann"))
    assert schema.predicates == {} and schema.objects == {}
    assert schema.forget("never_seen", ("x",)) is None  # nothing to undo, nothing breaks


# -- templates -----------------------------------------------------------------------

def test_a_template_renders_the_nl_form():
    schema = schema_with("father_of/2")
    pred = schema.set_template("father_of/2", "{0} is the father of {1}")
    assert pred.render(("joshua", "Don Q")) == "joshua is the father of Don Q"
    assert Predicate("likes", 2).render(("ann", "Don Q")) == "likes(ann, 'Don Q')"
    assert Predicate("raining", 0).render(()) == "raining"


def test_a_template_may_put_arguments_in_any_order_and_declares_a_new_predicate():
    schema = Schema()
    pred = schema.set_template("child_of/2", "{1} has a child, {0}")
    assert schema.predicates["child_of/2"] is pred and pred.count == 0
    assert pred.render(("ben", "ann")) == "ann has a child, ben"


@pytest.mark.parametrize("template, problem", [
    ("{0} is the father of {2}", "unknown placeholder {2}"),
    ("{0} is a father", "leaves out argument {1}"),
    ("{x} is the father of {1}", "unknown placeholder {x}"),
    ("{0.__class__} is the father of {1}", "unknown placeholder"),
    ("{0} is the father of {1", "unbalanced brace"),
])
def test_a_bad_template_is_refused_and_changes_nothing(template, problem):
    schema = schema_with("father_of/2")
    schema.set_template("father_of/2", "{0} is the father of {1}")
    with pytest.raises(UserError, match=problem.replace("{", r"\{").replace(".", r"\.")) as err:
        schema.set_template("father_of/2", template)
    assert err.value.hint and "{0}, {1}" in err.value.hint
    assert schema.predicates["father_of/2"].template == "{0} is the father of {1}"


def test_a_bad_predicate_key_is_refused():
    with pytest.raises(UserError, match="NAME/ARITY"):
        Schema().set_template("father_of", "{0} is the father of {1}")


# -- persistence ---------------------------------------------------------------------

def test_the_schema_survives_a_json_round_trip():
    schema = schema_with("father_of/2", "big/1", "big/1")
    schema.set_template("father_of/2", "{0} is the father of {1}")
    back = Schema.from_dict(json.loads(json.dumps(schema.to_dict())))
    assert back.predicates == schema.predicates
    assert back.objects == schema.objects
    assert back.predicates["big/1"].count == 2


@pytest.mark.parametrize("data", [
    {"predicates": [{"name": "p", "arity": "two"}]},
    {"predicates": [{"arity": 2}]},
    {"predicates": [{"name": "p", "arity": 2, "template": "{7}"}]},
    {"objects": {"ann": "many"}},
    ["not", "a", "dict"],
])
def test_damaged_schema_data_is_a_user_error_that_callers_can_also_catch_as_value_error(data):
    with pytest.raises(SchemaDataError) as err:
        Schema.from_dict(data)
    assert isinstance(err.value, UserError) and isinstance(err.value, ValueError)


# -- merging -------------------------------------------------------------------------

def test_merge_moves_counts_and_keeps_a_template():
    schema = schema_with("located_at/2", "located_in/2", "located_in/2")
    schema.set_template("located_at/2", "{0} is located at {1}")
    into = schema.merge("located_at/2", "located_in/2")
    assert "located_at/2" not in schema.predicates
    assert (into.key, into.count, into.template) == ("located_in/2", 3, "{0} is located at {1}")


def test_merge_refuses_different_arities_and_unknown_predicates():
    schema = schema_with("parent/2", "parent/3")
    with pytest.raises(UserError, match="arities differ"):
        schema.merge("parent/3", "parent/2")
    with pytest.raises(UserError, match="unknown predicate"):
        schema.merge("nothing/2", "nowhere/2")


# -- near duplicates -----------------------------------------------------------------

@pytest.mark.parametrize("new, existing", TRUE_DUPLICATES)
def test_a_relation_under_another_name_is_flagged(new, existing):
    found = schema_with(f"{existing}/2").near_duplicates(new, 2)
    assert [p.key for p, _, _ in found] == [f"{existing}/2"]
    assert 0.0 <= found[0][1] <= 1.0 and found[0][2] in ("same letters", "similar name")


@pytest.mark.parametrize("new, existing", LOOK_ALIKES)
def test_different_relations_are_not_flagged(new, existing):
    assert schema_with(f"{existing}/2").near_duplicates(new, 2) == []
    assert schema_with(f"{new}/2").near_duplicates(existing, 2) == []


def test_every_true_duplicate_outranks_every_look_alike():
    weakest_true = min(score(a, b) for a, b in TRUE_DUPLICATES)
    strongest_false = max(score(a, b) for a, b in LOOK_ALIKES)
    assert strongest_false < DUPLICATE_THRESHOLD <= weakest_true


def test_same_letters_score_one_and_come_first():
    schema = schema_with("father_of/2", "mother_of/2", "grandfather_of/2")
    found = schema.near_duplicates("fatherOf", 2, threshold=0.0)
    assert (found[0][0].key, found[0][1], found[0][2]) == ("father_of/2", 1.0, "same letters")
    assert all(s < 1.0 for _, s, _ in found[1:])


def test_a_predicate_is_not_its_own_duplicate():
    assert schema_with("father_of/2").near_duplicates("father_of", 2) == []


def test_another_arity_matches_only_on_the_same_letters_and_scores_lower():
    schema = schema_with("parent/2", "located_in/3")
    found = schema.near_duplicates("parent", 3)
    assert [(p.key, r) for p, _, r in found] == [("parent/2", "same letters, arity 2")]
    assert found[0][1] < 1.0
    assert schema.near_duplicates("located_at", 2) == []


def test_a_given_embedder_is_used_for_meaning():
    class Meaning:
        name = "test:meaning"
        calls: list[list[str]] = []

        def embed(self, texts):
            self.calls.append(list(texts))
            return [[1.0, 0.0] if "father" in t or "dad" in t else [0.0, 1.0] for t in texts]

    schema = schema_with("father_of/2", "likes/2")
    meaning = Meaning()
    found = schema.near_duplicates("dad_of", 2, meaning, threshold=0.2)
    assert [p.key for p, _, _ in found] == ["father_of/2"]
    assert found[0][2] == "similar meaning"
    assert meaning.calls and all("dad of" in call for call in meaning.calls)
    assert schema.near_duplicates("dad_of", 2, meaning) == []  # meaning alone is not enough by default


def test_a_template_placeholder_that_only_looks_like_a_number_is_refused():
    with pytest.raises(UserError, match="unknown placeholder"):
        Schema().set_template("big/1", "{²} is big")
    assert Predicate("big", 1, "{3} is big").render(("bob",)) == "{3} is big"  # never an IndexError
