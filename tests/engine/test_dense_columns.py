"""Facts kept as id columns from the moment they are added (issue 49): a dense inference reads them as
they are, and gives the model, steps and proofs of the tuple path, whatever the values (ints in a
narrow or a wide range, beyond 64 bits, bools beside ints, atoms) and however the facts came and
went (added after an inference, retracted, added again)."""

from __future__ import annotations

import random

import pytest

from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_program
from sym.core.logic.terms import Atom

PATH3 = "path3(X, W) :- e(X, Y), e(Y, Z), e(Z, W).\nloop(X) :- e(X, X).\nfrom(X, b) :- e(X, Y), e(Y, X).\n"


def engines(facts: list[Atom], rules: str = PATH3) -> tuple[Engine, Engine]:
    """The same program on the tuple path and on the dense path (its facts encoded as added)."""
    out = []
    for dense in (False, True):
        engine = Engine(goal_directed=False)
        engine.dense_from = engine.dense_after = 0 if dense else 10**12
        engine.add_facts(facts)
        engine.add_program(item.clause for item in parse_program(rules))
        out.append(engine)
    return out[0], out[1]


def agree(tuples: Engine, dense: Engine) -> None:
    a, b = tuples.infer(), dense.infer()
    assert dense.dense and not tuples.dense
    assert (a.steps, a.derived) == (b.steps, b.derived)
    assert set(tuples.facts()) == set(dense.facts())
    for atom in list(tuples.facts(derived=True))[:50]:
        one, other = tuples.provenance(atom), dense.provenance(atom)
        assert one is not None and other is not None
        assert (one.rule_id, one.step, set(one.premises)) == (other.rule_id, other.step, set(other.premises))


def edges(values: list[object], n: int, seed: int = 0) -> list[Atom]:
    rng = random.Random(seed)
    return [Atom("e", (rng.choice(values), rng.choice(values))) for _ in range(n)]


@pytest.mark.parametrize("values", [
    list(range(60)),                                     # ints in a narrow range: a lookup table
    [i * 10**12 - 7 for i in range(-30, 30)],            # spread wide, negative too: a sort
    [2**70 + i for i in range(40)] + list(range(20)),    # beyond 64 bits
    [True, False, 2, 3, 4, 5, 6, 7, "a", "b"] * 3,      # bools beside ints, and atoms
    [f"n{i}" for i in range(60)],
], ids=["narrow", "wide", "big", "mixed", "atoms"])
def test_a_dense_model_read_from_the_columns_is_the_tuple_model(values):
    agree(*engines(edges(values, 400)))


def test_facts_added_after_an_inference_and_retracted_are_read_right():
    values = list(range(50))
    tuples, dense = engines(edges(values, 300))
    agree(tuples, dense)
    later = edges(values + [f"x{i}" for i in range(20)] + [10**6], 200, seed=1)   # values new to the ids
    for engine in (tuples, dense):
        engine.add_facts(later)
    agree(tuples, dense)
    gone = later[:40]
    for engine in (tuples, dense):
        for atom in gone:
            engine.remove_fact(atom)
    agree(tuples, dense)
    for engine in (tuples, dense):
        engine.add_facts(gone[:10])
    agree(tuples, dense)


def test_a_fact_added_twice_in_one_batch_is_one_fact():
    facts = [Atom("e", (i % 70, (i * 7) % 70)) for i in range(500)]
    tuples, dense = engines(facts + facts[::-1])
    assert len(dense.base()["e/2"]) == len(set(facts))
    agree(tuples, dense)


def test_a_batch_of_several_relations_and_negations_is_kept_in_order():
    facts = [Atom("e", (i, i + 1)) for i in range(100)] + [Atom("e", (i,), True) for i in range(5)]
    facts += [Atom("f", (i, i)) for i in range(100)] + [Atom("e", (200, 201)), Atom("e", (0, 1))]
    tuples, dense = engines(facts, PATH3 + "g(X) :- f(X, X), e(X, Y).\n")
    assert list(dense.base()["e/2"])[-1] == (200, 201) and len(dense.base()["e/2"]) == 101
    assert list(dense.base()["~e/1"]) == [(i,) for i in range(5)]
    agree(tuples, dense)
