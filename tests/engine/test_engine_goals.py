"""Goal-directed questions as a user meets them: a question pays for what it asks (its slice, what
its constants reach), a stop at max_facts names what grew and what to do about it, facts added
later are answered from without starting over, and /infer still materializes everything."""

from __future__ import annotations

import pytest

from sym.core.errors import UserError
from sym.core.logic.engine import FALSE, TRUE, UNKNOWN, Engine
from sym.core.logic.parser import parse_atom, parse_program, parse_query
from sym.core.logic.provenance import DERIVED, proof_tree
from sym.core.logic.terms import Atom
from sym.core.memory.working import WorkingMemory

CLOSURE = "p(X, Y) :- e(X, Y).\np(X, Y) :- e(X, Z), p(Z, Y).\n"


def chain(pred: str, n: int, prefix: str = "n") -> list[Atom]:
    return [Atom(pred, (f"{prefix}{i}", f"{prefix}{i + 1}")) for i in range(n)]


def engine_with(text: str, facts: list[Atom] = (), **kw) -> Engine:
    engine = Engine(**kw)
    engine.add_facts(facts)
    engine.add_program(item.clause for item in parse_program(text))
    return engine


def answers(engine: Engine, query: str) -> set[tuple]:
    q = parse_query(query)
    return {tuple(row[v] for v in q.variables()) for row in engine.solve(q)}


def beside(n: int = 60) -> Engine:
    """A small chain e/2 with its closure p/2, beside a longer chain e2/2 with its closure p2/2."""
    return engine_with(CLOSURE + CLOSURE.replace("p(", "p2(").replace("e(", "e2("),
                       chain("e", 10) + chain("e2", n, "m"))


def test_a_question_on_stored_facts_runs_no_rule():
    engine = beside()
    engine.max_facts = 100                      # the p2 closure alone has 1,830 facts
    with pytest.raises(UserError, match="max_facts"):
        Engine.infer(engine)
    assert len(answers(engine, "e(X, Y)")) == 10
    assert answers(engine, "e(n3, Y)") == {("n4",)}


def test_a_point_question_touches_what_its_constant_reaches():
    engine = beside()
    engine.max_facts = 100
    assert answers(engine, "p(n7, X)") == {("n8",), ("n9",), ("n10",)}
    assert answers(engine, "p2(m55, X)") == {(f"m{i}",) for i in range(56, 61)}
    assert answers(engine, "p2(X, m3)") == {("m0",), ("m1",), ("m2",)}
    assert engine.truth(parse_atom("p2(m50, m60)")) == TRUE
    assert engine.truth(parse_atom("p2(m60, m50)")) == FALSE
    assert not engine.complete                  # the whole model was never computed


def test_a_stop_at_max_facts_names_what_grew_and_suggests_a_narrower_question():
    engine = beside()
    engine.max_facts = 100
    with pytest.raises(UserError) as caught:
        engine.solve(parse_query("p2(X, Y)"))
    assert "p2/2" in caught.value.message and "max_facts" in caught.value.message
    assert "narrower" in caught.value.hint and "/set max_facts" in caught.value.hint
    assert "/infer" not in caught.value.hint    # a step count is for /infer, not for a question
    with pytest.raises(UserError) as caught:
        engine.infer()
    assert "/infer N" in caught.value.hint


def test_negation_strong_negation_and_comparisons_keep_their_meaning():
    engine = engine_with("""
        big(a). big(b). big(c). red(b). size(a, 3). size(b, 5). size(c, 9).
        tinted(X) :- red(X).
        quiet(X) :- big(X), not tinted(X).
        large(X) :- size(X, N), N > 4.
        ~green(X) :- quiet(X), large(X).
        green(b).
        :- green(X), ~green(X).
    """)
    assert answers(engine, "quiet(X)") == {("a",), ("c",)}
    assert answers(engine, "large(X), quiet(X)") == {("c",)}
    assert engine.truth(parse_atom("green(c)"), open_world=True) == FALSE     # ~green(c) derived
    assert engine.truth(parse_atom("green(a)"), open_world=True) == UNKNOWN
    assert engine.truth(parse_atom("green(a)")) == FALSE                     # closed world
    assert engine.truth(parse_atom("green(b)"), open_world=True) == TRUE
    assert engine.violations() == []
    engine.add_facts([Atom("green", ("c",))])
    assert sorted(str(v) for v in engine.violations()) == [
        "constraint r5 violated by green(c), ~green(c)", "contradiction: green(c), ~green(c)"]


def test_why_gives_a_proof_from_the_question_alone():
    memory = WorkingMemory()
    text = CLOSURE + "".join(f"{a}." for a in chain("e", 6)) + "".join(f"{a}." for a in chain("e2", 300, "m"))
    memory.add([(item.clause, "typed") for item in parse_program(text + CLOSURE.replace("p(", "p2(").replace("e(", "e2("))])
    memory.bound(max_facts=1_000)               # p2's closure has 45,150 facts
    tree = memory.why(parse_atom("p(n1, n4)"))
    assert tree.status == DERIVED and tree.step == 3   # its proof's depth, as materializing numbers it
    assert [str(c.literal) for c in tree.children] == ["e(n1, n2)", "p(n2, n4)"]
    assert tree.children[1].children[1].step == 1
    answer = memory.ask(parse_query("p(n2, X)"))
    assert [row["X"] for row in answer.bindings] == ["n3", "n4", "n5", "n6"] and answer.complete
    assert memory.ask(parse_query("p(n5, n1)")).truth == FALSE


def test_facts_added_later_continue_the_kept_goal_model():
    engine = engine_with(CLOSURE, chain("e", 5))
    assert answers(engine, "p(n0, X)") == {(f"n{i}",) for i in range(1, 6)}
    models = list(engine.goals.models.values())
    engine.add_facts([Atom("e", ("n5", "n6")), Atom("e", ("n6", "n7"))])
    assert answers(engine, "p(n0, X)") == {(f"n{i}",) for i in range(1, 8)}
    assert models[0] in engine.goals.models.values()   # gone on from the new facts, not recomputed
    engine.remove_fact(Atom("e", ("n2", "n3")))         # retraction recomputes
    assert answers(engine, "p(n0, X)") == {("n1",), ("n2",)}


def test_a_new_rule_is_seen_by_the_next_question():
    engine = engine_with(CLOSURE, chain("e", 3))
    assert answers(engine, "p(n3, X)") == set()
    engine.add_program(item.clause for item in parse_program("p(X, X) :- e(X, _)."))
    assert answers(engine, "p(n2, X)") == {("n2",), ("n3",)}


def test_the_whole_model_goes_on_from_added_facts():
    engine = engine_with(CLOSURE, chain("e", 4))
    assert engine.infer().derived == 10
    engine.add_facts([Atom("e", ("n4", "n5"))])
    engine.ensure_model()
    assert engine.complete and len(list(engine.facts("p/2"))) == 15
    assert engine.steps > 4                              # rounds went on after the model's last
    tree = proof_tree(engine, parse_atom("p(n0, n5)"))
    assert tree.status == DERIVED and tree.step > tree.children[1].step > 4


def test_infer_still_materializes_everything():
    engine = beside(20)
    result = engine.infer()
    assert result.complete and result.derived == 55 + 210
    assert engine.complete
    assert len(answers(engine, "p2(X, Y)")) == 210       # read from the whole model now


def test_goal_direction_can_be_turned_off():
    engine = engine_with(CLOSURE, chain("e", 4), goal_directed=False)
    assert answers(engine, "p(n1, X)") == {("n2",), ("n3",), ("n4",)}
    assert engine.complete                               # it materialized the model to answer
