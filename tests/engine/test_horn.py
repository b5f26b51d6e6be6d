"""The Horn model builder: least models, integrity constraints, and agreement with a naive fixpoint."""

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sym.core.logic import horn
from sym.core.logic.horn import Clause, HornModel, Inconsistent, minimal_model


def fact(atom, label=None):
    return Clause(atom, (), label)


def rule(head, *body, label=None):
    return Clause(head, tuple(body), label)


def constraint(*body, label=None):
    return Clause(None, tuple(body), label)


def test_facts_alone_are_the_model():
    result = minimal_model([fact("rain"), fact("wind"), fact("rain")])

    assert result.model == {"rain", "wind"}
    assert result.consistent
    assert result.violated == ()
    assert len(result) == 2
    assert result.holds("rain") and not result.holds("snow")
    assert "wind" in result


def test_a_chain_of_rules_carries_truth_to_its_end():
    program = [rule("d", "c"), rule("c", "b"), rule("b", "a"), fact("a")]

    assert minimal_model(program).model == {"a", "b", "c", "d"}


def test_a_rule_fires_only_when_every_body_atom_holds():
    program = [fact("wet"), fact("cold"), rule("ice", "wet", "cold"), rule("snow", "cold", "cloudy")]

    result = minimal_model(program)

    assert result.holds("ice")
    assert not result.holds("snow")


def test_a_rule_whose_body_is_completed_late_still_fires():
    program = [rule("goal", "a", "b", "c"), fact("c"), rule("b", "c"), rule("a", "b")]

    assert minimal_model(program).model == {"a", "b", "c", "goal"}


def test_a_repeated_body_atom_counts_once():
    program = [fact("a"), rule("b", "a", "a", "a"), rule("c", "b", "x", "b")]

    result = minimal_model(program)

    assert result.holds("b")
    assert not result.holds("c")


def test_atoms_may_hold_spaces_quotes_and_punctuation():
    eagle, sees = "bald eagle", "sees(cow, 'bald eagle')"
    program = [fact(eagle), rule(sees, eagle, 'it\'s "big"'), fact('it\'s "big"'), rule("x :- y.", sees)]

    assert minimal_model(program).model == {eagle, sees, 'it\'s "big"', "x :- y."}


def test_a_cycle_with_no_way_in_derives_nothing():
    program = [rule("a", "b"), rule("b", "a"), rule("c", "c")]

    assert minimal_model(program).model == frozenset()


def test_a_cycle_entered_from_a_fact_is_wholly_true():
    program = [rule("a", "b"), rule("b", "a"), rule("b", "start"), fact("start")]

    assert minimal_model(program).model == {"a", "b", "start"}


def test_a_violated_constraint_raises_with_the_clause_and_the_partial_model():
    broken = constraint("married", "single", label="c2")
    program = [fact("married"), rule("single", "alone"), fact("alone"), broken, constraint("divorced")]

    with pytest.raises(Inconsistent) as caught:
        minimal_model(program)

    assert caught.value.violated == (broken,)
    assert caught.value.model == {"married", "single", "alone"}
    assert "c2" in str(caught.value) and ":- married, single." in str(caught.value)


def test_the_message_quotes_odd_atoms_and_counts_further_violations():
    program = [fact("it's"), constraint("it's"), constraint("it's", "it's")]

    with pytest.raises(Inconsistent) as caught:
        minimal_model(program)

    message = str(caught.value)
    assert "\n" not in message
    assert ":- 'it\\'s'." in message
    assert "(and 1 more)" in message


def test_a_constraint_with_an_empty_body_is_always_violated():
    with pytest.raises(Inconsistent):
        minimal_model([constraint()])


def test_a_satisfied_constraint_leaves_the_model_consistent():
    result = minimal_model([fact("a"), constraint("a", "b")])

    assert result.consistent
    assert result.model == {"a"}


def test_partial_returns_the_model_and_every_violated_constraint_in_input_order():
    first, second = constraint("b", label="first"), constraint("a", "b", label="second")
    program = [second, rule("b", "a"), fact("a"), constraint("z"), first]

    result = minimal_model(program, partial=True)

    assert result.model == {"a", "b"}
    assert result.violated == (second, first)
    assert not result.consistent


def test_clauses_may_be_given_as_head_and_body_tuples():
    program = [("a", ()), ("b", ["a"]), ("c", ("a", "b")), (None, ("c",)), ("d", ("nope",))]

    result = minimal_model(iter(program), partial=True)

    assert result.model == {"a", "b", "c"}
    assert result.violated == (Clause(None, ("c",)),)


def test_a_tuple_may_carry_a_label_into_the_violations():
    result = minimal_model([("a", ()), (None, ("a",), "clause 7")], partial=True)

    assert [c.label for c in result.violated] == ["clause 7"]


def test_a_string_body_is_refused_rather_than_split_into_letters():
    with pytest.raises(TypeError):
        minimal_model([("a", "bc")])
    with pytest.raises(TypeError):
        Clause("a", "bc")


def test_an_empty_program_has_an_empty_consistent_model():
    result = minimal_model([])

    assert result == HornModel(frozenset())
    assert result.consistent and len(result) == 0


def test_labels_travel_with_the_clauses_that_are_reported():
    c1 = constraint("p", label="c1")
    result = minimal_model([fact("p", label="f1"), c1], partial=True)

    assert result.violated[0] is c1
    assert result.violated[0].label == "c1"


def test_a_clause_prints_as_prolog():
    assert str(fact("a")) == "a."
    assert str(rule("sister of", "b", "Ann")) == "'sister of' :- b, 'Ann'."
    assert str(constraint("x", "y")) == ":- x, y."


def test_the_exception_survives_pickling():
    error = Inconsistent((constraint("a", label="c"),), frozenset({"a"}))

    copy = pickle.loads(pickle.dumps(error))

    assert copy.violated == error.violated and copy.model == error.model
    assert str(copy) == str(error)


# Property: the linear-time builder agrees with the obvious fixpoint on random programs.

def naive_model(program):
    model = set()
    changed = True
    while changed:
        changed = False
        for head, body in program:
            if head is not None and head not in model and set(body) <= model:
                model.add(head)
                changed = True
    violated = {i for i, (head, body) in enumerate(program) if head is None and set(body) <= model}
    return model, violated


ATOMS = st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h"])
BODIES = st.lists(ATOMS, max_size=4).map(tuple)
DEFINITE = st.tuples(ATOMS, BODIES)
ANY_CLAUSE = st.tuples(st.one_of(ATOMS, st.none()), BODIES)


@settings(max_examples=400, deadline=None)
@given(st.lists(DEFINITE, max_size=30))
def test_definite_programs_agree_with_the_naive_fixpoint(program):
    expected, _ = naive_model(program)

    result = minimal_model(program)

    assert result.model == expected
    assert result.consistent


@settings(max_examples=400, deadline=None)
@given(st.lists(ANY_CLAUSE, max_size=30), st.booleans())
def test_programs_with_constraints_agree_with_the_naive_fixpoint(program, as_clauses):
    expected_model, expected_violated = naive_model(program)
    given_program = [Clause(h, b, label=str(i)) for i, (h, b) in enumerate(program)] if as_clauses else program
    reported = tuple(Clause(None, program[i][1], str(i) if as_clauses else None) for i in sorted(expected_violated))

    result = minimal_model(given_program, partial=True)

    assert result.model == expected_model
    assert result.violated == reported
    assert result.consistent == (not expected_violated)
    if expected_violated:
        with pytest.raises(Inconsistent) as caught:
            minimal_model(given_program)
        assert caught.value.model == expected_model
        assert caught.value.violated == result.violated
    else:
        assert minimal_model(given_program) == result


# Large programs: atoms numbered once and propagated over columns, with the same answers.


def copy(atom):
    return (atom + "!")[:-1]  # equal, but not the same object


def random_program(n, seed):
    rng = random.Random(seed)
    atoms = [f"a{i}" for i in range(n // 2)]
    program = []
    for i in range(n):
        body = tuple(copy(a) for a in rng.sample(atoms, rng.choice((0, 1, 1, 2, 2, 3))))
        head = None if i % 997 == 0 else rng.choice(atoms)
        program.append((head, body))
    return program


def atom_by_atom(program, **options):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(horn, "COLUMNAR_MIN", 10**9)
        return minimal_model(program, **options)


def test_a_large_program_gets_the_answer_of_the_small_way():
    program = random_program(3 * horn.COLUMNAR_MIN, seed=1)
    clauses = [Clause(h, b, label=str(i)) for i, (h, b) in enumerate(program)]

    for given_program in (program, clauses):
        result = minimal_model(given_program, partial=True)

        assert result == atom_by_atom(given_program, partial=True)
        assert len(result.model) > 100 and result.violated


def test_a_long_chain_is_followed_to_its_end():
    program = [(f"c{i + 1}", (f"c{i}",)) for i in range(20_000)] + [("c0", ()), (None, ("c20000",))]

    result = minimal_model(program, partial=True)

    assert len(result.model) == 20_001
    assert result.violated == (Clause(None, ("c20000",)),)


def test_large_programs_of_other_shapes_are_answered_atom_by_atom():
    program = random_program(horn.COLUMNAR_MIN, seed=2)
    expected = atom_by_atom(program, partial=True)
    labelled = [(h, b, f"clause {i}") for i, (h, b) in enumerate(program)]
    mixed = [Clause(h, b) if i % 2 else (h, b) for i, (h, b) in enumerate(program)]
    listed = [(h, list(b)) for h, b in program]

    for shape in (labelled, mixed, listed):
        assert minimal_model(shape, partial=True).model == expected.model
    assert [c.label for c in minimal_model(labelled, partial=True).violated][:1] == ["clause 0"]

    numbers = [(1, ())] * horn.COLUMNAR_MIN + [(2, (1,))]
    assert minimal_model(numbers).model == {1, 2}
    with pytest.raises(TypeError):
        minimal_model(program + [("a", "bc")])
    with pytest.raises(TypeError):
        minimal_model(program + [("a", (["unhashable"],))])


def test_atoms_whose_hashes_share_their_low_bits_stay_apart():
    # Atoms are told apart by their hash bits first; find two strings that clash in the 32 bits
    # used, each present twice as distinct objects, so that whichever leads, the other pair
    # must be matched up by equality.
    seen = {}
    for i in range(2_000_000):
        s = f"s{i}"
        clash = seen.setdefault(hash(s) & 0xFFFFFFFF, s)
        if clash != s:
            break
    a, b = clash, s
    program = [(a, ()), ("from a", (copy(a),)), (copy(b), (a, "never")), ("from b", (copy(b),))]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(horn, "COLUMNAR_MIN", 1)
        assert minimal_model(program).model == {a, "from a"}
        assert minimal_model(program + [(b, ())]).model == {a, "from a", b, "from b"}
