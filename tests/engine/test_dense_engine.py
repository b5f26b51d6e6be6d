"""The set-at-a-time (numpy) path of the engine: chosen by size, it derives the same model, the
same steps and the same kind of proofs as the tuple path, and it stops for max_facts and
cancel just as promptly."""

from __future__ import annotations

import threading
import time

import pytest

from sym.core.errors import Cancelled, UserError
from sym.core.logic.engine import DENSE_FROM, Engine
from sym.core.logic.parser import parse_atom, parse_program, parse_query
from sym.core.logic.provenance import proof_tree
from sym.core.logic.terms import Atom, Rule, Var

X, Y, Z = Var("X"), Var("Y"), Var("Z")
CLOSURE = "path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n"


def engine_with(text: str, *, dense: bool) -> Engine:
    engine = Engine()
    engine.dense_from = 0 if dense else 10**12
    engine.dense_after = 0 if dense else 10**12
    engine.add_program(item.clause for item in parse_program(text))
    return engine


def both(text: str) -> tuple[Engine, Engine]:
    return engine_with(text, dense=False), engine_with(text, dense=True)


def ladders(n: int) -> str:
    """n disjoint chains a_i -> b_i -> c_i -> d_i, and a few cross links."""
    facts = [f"edge(a{i}, b{i}). edge(b{i}, c{i}). edge(c{i}, d{i})." for i in range(n)]
    facts += [f"edge(d{i}, a{i + 1})." for i in range(0, n - 1, 50)]
    return "\n".join(facts) + "\n" + CLOSURE


def test_a_large_program_runs_set_at_a_time_and_a_small_one_does_not():
    small = Engine()
    small.add_program(item.clause for item in parse_program("edge(a, b).\n" + CLOSURE))
    small.infer()
    assert not small.dense
    large = Engine()
    large.add_program(item.clause for item in parse_program(ladders(DENSE_FROM)))
    large.infer()
    assert large.dense


def test_a_small_program_with_a_large_model_switches_to_the_dense_path():
    engine = Engine()
    engine.add_facts(Atom("edge", (i, i + 1)) for i in range(400))     # 80,200 paths
    engine.add_program(item.clause for item in parse_program(CLOSURE))
    result = engine.infer()
    assert engine.dense and result.derived == 80_200 and result.steps == 400
    assert engine.provenance(Atom("path", (0, 400))).step == 400


def test_both_paths_derive_the_same_facts_in_the_same_steps():
    tuples, dense = both(ladders(400))
    a, b = tuples.infer(), dense.infer()
    assert dense.dense and not tuples.dense
    assert (a.steps, a.derived, a.complete) == (b.steps, b.derived, b.complete)
    assert set(tuples.facts()) == set(dense.facts())
    assert set(dense.facts(derived=False)) == set(tuples.facts(derived=False))
    for fact in list(dense.facts(derived=True))[::97]:
        assert dense.provenance(fact).step == tuples.provenance(fact).step


def test_why_gives_the_same_kind_of_proof_tree():
    text = """
        parent(ann, bob). parent(bob, cid). parent(cid, dan). male(bob). male(dan).
        ancestor(X, Y) :- parent(X, Y).
        ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
        son(X, Y) :- parent(Y, X), male(X), not female(X), X \\= Y.
    """
    tuples, dense = both(text)
    tuples.infer()
    dense.infer()
    for fact in ("ancestor(ann, dan)", "son(dan, cid)", "parent(ann, bob)"):
        assert proof_tree(dense, parse_atom(fact)).to_dict() == proof_tree(tuples, parse_atom(fact)).to_dict()
    assert proof_tree(dense, parse_atom("ancestor(ann, dan)")).step == 3


def test_a_step_limit_stops_the_dense_path_after_that_many_rounds():
    tuples, dense = both(ladders(100))
    for limit in (1, 2):
        a, b = tuples.infer(max_steps=limit), dense.infer(max_steps=limit)
        assert (b.steps, b.derived, b.complete) == (a.steps, a.derived, a.complete) == (limit, b.derived, False)
        assert set(dense.facts()) == set(tuples.facts())
    assert dense.infer().complete


def test_queries_truth_constraints_and_contradictions_read_the_dense_model():
    text = ladders(60) + """
        :- path(X, X).
        ~path(a0, d0).
        edge(d59, a59).
    """
    tuples, dense = both(text)
    a, b = tuples.infer(), dense.infer()
    assert sorted(map(str, a.violations)) == sorted(map(str, b.violations))
    assert any("contradiction" in str(v) for v in b.violations)
    q = parse_query("?- path(a3, X), edge(X, Y).")
    assert {tuple(r.values()) for r in dense.solve(q)} == {tuple(r.values()) for r in tuples.solve(q)}
    assert dense.truth(parse_atom("path(a0, c0)")) == "true"
    assert dense.truth(parse_atom("path(d0, a0)")) == "false"
    assert not dense.holds(Atom("path", ("nobody", "a0")))
    assert not dense.holds(Atom("path", ("a0",)))


def test_a_whole_relation_asked_for_reads_as_the_tuple_paths_rows_and_marshals_alike():
    import marshal

    tuples, dense = both(ladders(40))
    tuples.infer()
    dense.infer()
    for goal, named in (("?- path(X, Y).", [X, Y]), ("?- path(Y, X).", [X, Y]), ("?- path(a1, X).", [X])):
        body = parse_query(goal).body
        want, got = list(tuples.rows(body, named)), dense.rows(body, named)
        assert got == want and len(got) == len(want) and got[0] == want[0] and got[-1] == want[-1]
        assert got[3:9] == want[3:9] and list(got) == want
        marshalled = got.marshalled      # kept as columns; a long answer's log digest reads these bytes
        assert marshalled(5, 17) == marshal.dumps(want[5:17], 2)
        assert marshalled(0, 10**6) == marshal.dumps(want, 2)


def test_max_facts_stops_a_dense_cross_product():
    engine = Engine()
    engine.dense_from = 0
    engine.add_facts(Atom("a", (i,)) for i in range(3000))
    engine.add_facts(Atom("b", (i,)) for i in range(3000))
    engine.add_rule("r1", Rule(Atom("pair", (X, Y)), (Atom("a", (X,)), Atom("b", (Y,)))))
    engine.max_facts = 100_000
    with pytest.raises(UserError, match=r"more than 100,000 facts \(max_facts\)"):
        engine.infer()
    assert not engine.complete


def test_cancel_stops_a_large_dense_join_within_half_a_second():
    engine = Engine()
    engine.dense_from = 0
    engine.add_facts(Atom("a", (i,)) for i in range(20_000))
    engine.add_facts(Atom("b", (i,)) for i in range(20_000))       # 4 * 10^8 pairs
    engine.add_rule("r1", Rule(Atom("pair", (X, Y)), (Atom("a", (X,)), Atom("b", (Y,)))))
    engine.cancel = threading.Event()
    pressed: list[float] = []

    def press():
        pressed.append(time.monotonic())
        engine.cancel.set()

    timer = threading.Timer(0.3, press)
    timer.start()
    with pytest.raises(Cancelled):
        engine.infer()
    stopped = time.monotonic()
    timer.join()
    assert stopped - pressed[0] < 0.5
    assert not engine.complete


def test_joins_made_in_many_pieces_derive_the_same_model(monkeypatch):
    import sym.core.logic.dense as dense

    monkeypatch.setattr(dense, "CHUNK", 7)   # every join of more than 7 rows is cut into pieces
    text = ladders(80) + """
        two(X, Z) :- edge(X, Y), edge(Y, Z), not edge(X, Z), X \\= Z.
        far(X, W) :- two(X, Y), path(Y, Z), edge(Z, W).
    """
    tuples, dense_engine = both(text)
    a, b = tuples.infer(), dense_engine.infer()
    assert (a.steps, a.derived) == (b.steps, b.derived)
    assert set(tuples.facts()) == set(dense_engine.facts())
    q = parse_query("?- far(a0, X), path(X, Y).")
    assert {tuple(r.values()) for r in dense_engine.solve(q)} == {tuple(r.values()) for r in tuples.solve(q)}


def test_tuples_too_wide_to_key_stay_on_the_tuple_path():
    A, B, C, D, E = (Var(v) for v in "ABCDE")
    engine = Engine()
    engine.add_facts(Atom("p", (i, i + 1, i + 2, i + 3, f"x{i}")) for i in range(7000))  # 7000^5 > 2^62 keys
    engine.add_rule("r1", Rule(Atom("q", (E, D, C, B, A)), (Atom("p", (A, B, C, D, E)),)))
    assert engine.infer().derived == 7000
    assert not engine.dense
    assert engine.holds(Atom("q", ("x5", 8, 7, 6, 5)))
