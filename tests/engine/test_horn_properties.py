"""Properties: the Horn model builder agrees with the obvious fixpoint on random programs, by each
of its ways — atom by atom (small programs), and over numbered atoms (large ones), whose levels
go through numpy, through a plain loop, or through both by turns."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sym.core.logic import horn
from sym.core.logic.horn import Clause, Inconsistent, minimal_model

# (COLUMNAR_MIN, _SMALL_LEVEL) for each way; the numbered way is forced by a minimum of 1.
WAYS = {
    "atom by atom": (10**9, horn._SMALL_LEVEL),
    "numbered, numpy levels": (1, 1),
    "numbered, plain loop": (1, 10**9),
    "numbered, by turns": (1, 3),
}

NAMES = ["p0", "p1", "p2", "p3", "p4", "p5", "it's", "x :- y."]


def fixpoint(program):
    """The least model by rounds over every clause until nothing changes, and the violated
    constraints by index."""
    model = set()
    changed = True
    while changed:
        changed = False
        for head, body in program:
            if head is not None and head not in model and all(a in model for a in body):
                model.add(head)
                changed = True
    violated = [i for i, (head, body) in enumerate(program) if head is None and all(a in model for a in body)]
    return model, violated


@st.composite
def atoms(draw):
    name = draw(st.sampled_from(NAMES))
    # Equal strings need not be one object: parsed or formatted atoms seldom are.
    return (name + "!")[:-1] if draw(st.booleans()) else name


@st.composite
def programs(draw, max_size=40):
    heads = st.one_of(atoms(), st.none())
    clauses = draw(st.lists(st.tuples(heads, st.lists(atoms(), max_size=4).map(tuple)), max_size=max_size))
    return clauses


def answers(program, way, *, partial=True):
    least, small = WAYS[way]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(horn, "COLUMNAR_MIN", least)
        patch.setattr(horn, "_SMALL_LEVEL", small)
        return minimal_model(program, partial=partial)


@settings(max_examples=200, deadline=None)
@given(programs(), st.sampled_from(["tuples", "clauses"]))
def test_every_way_agrees_with_the_fixpoint(program, given_as):
    expected_model, expected_violated = fixpoint(program)
    if given_as == "clauses":
        given_program = [Clause(h, b, label=f"c{i}") for i, (h, b) in enumerate(program)]
        reported = tuple(given_program[i] for i in expected_violated)
    else:
        given_program = program
        reported = tuple(Clause(None, program[i][1]) for i in expected_violated)

    for way in WAYS:
        result = answers(given_program, way)

        assert result.model == expected_model, way
        assert result.violated == reported, way
        assert result.consistent == (not expected_violated), way
        if given_as == "clauses":  # a violation is reported as the very clause given
            assert all(a is b for a, b in zip(result.violated, reported)), way


@settings(max_examples=100, deadline=None)
@given(programs())
def test_without_partial_a_violation_raises_the_same_answer_by_every_way(program):
    expected_model, expected_violated = fixpoint(program)

    for way in WAYS:
        if expected_violated:
            with pytest.raises(Inconsistent) as caught:
                answers(program, way, partial=False)
            assert caught.value.model == expected_model, way
            assert caught.value.violated == tuple(Clause(None, program[i][1]) for i in expected_violated), way
        else:
            assert answers(program, way, partial=False) == answers(program, way), way


@st.composite
def layered_programs(draw):
    """Deeper programs: atom k may only be derived from atoms below k, so derivations run long
    and levels grow and shrink, which moves the numbered way between numpy and the plain loop."""
    n = draw(st.integers(2, 60))
    names = [f"q{k}" for k in range(n)]
    program = [(names[0], ())]
    for k in draw(st.lists(st.integers(1, n - 1), max_size=150)):
        body = tuple(draw(st.lists(st.sampled_from(names[:k]), min_size=1, max_size=3)))
        program.append((names[k], body))
    program += [(None, (a,)) for a in draw(st.lists(st.sampled_from(names), max_size=3))]
    return draw(st.permutations(program))


@settings(max_examples=100, deadline=None)
@given(layered_programs())
def test_long_derivations_agree_with_the_fixpoint(program):
    expected_model, expected_violated = fixpoint(program)

    for way in WAYS:
        result = answers(program, way)

        assert result.model == expected_model, way
        assert result.violated == tuple(Clause(None, program[i][1]) for i in expected_violated), way
