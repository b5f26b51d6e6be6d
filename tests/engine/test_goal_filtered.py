"""Goal-directed answers are the closure filtered: over random graphs and random stratified
programs, every ground question (answered factored where its recursion carries a constant) and
every question with some arguments bound gets what the naive evaluator's model holds for it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sym.core.logic.engine import Engine
from sym.core.logic.terms import Atom, Naf, Query, Rule, Var
from tests.engine import naive
from tests.engine.test_engine_properties import QUICK, programs

X, Y, Z = Var("X"), Var("Y"), Var("Z")
RECURSIONS = {
    "right": Rule(Atom("reach", (X, Z)), (Atom("edge", (X, Y)), Atom("reach", (Y, Z)))),
    "left": Rule(Atom("reach", (X, Z)), (Atom("reach", (X, Y)), Atom("edge", (Y, Z)))),
    "double": Rule(Atom("reach", (X, Z)), (Atom("reach", (X, Y)), Atom("reach", (Y, Z)))),
}


@QUICK
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=14), st.sampled_from(sorted(RECURSIONS)),
       st.booleans())
def test_reach_answers_are_the_closure_filtered(edges, shape, guarded):
    facts = [Atom("edge", (f"n{a}", f"n{b}")) for a, b in edges] + [Atom("node", (f"n{i}",)) for i in range(7)]
    rules = [Rule(Atom("reach", (X, Y)), (Atom("edge", (X, Y)),)), RECURSIONS[shape]]
    if guarded:          # a `not` over the closure: the question's model must hold it whole
        rules.append(Rule(Atom("apart", (X, Y)), (Atom("node", (X,)), Atom("node", (Y,)), Naf(Atom("reach", (X, Y))))))
    model = naive.model(facts, rules)
    engine = Engine()
    engine.add_program([*facts, *rules])
    for a in range(7):
        for b in range(7):
            for pred in ("reach", "apart") if guarded else ("reach",):
                atom = Atom(pred, (f"n{a}", f"n{b}"))
                assert engine.holds(atom) == (atom in model), atom
        for pred in ("reach", "apart") if guarded else ("reach",):
            froms = {args[1] for args in (f.args for f in model if f.pred == pred) if args[0] == f"n{a}"}
            assert {b[X] for b in engine.solve(Query((Atom(pred, (f"n{a}", X)),)))} == froms
            tos = {args[0] for args in (f.args for f in model if f.pred == pred) if args[1] == f"n{a}"}
            assert {b[X] for b in engine.solve(Query((Atom(pred, (X, f"n{a}")),)))} == tos


@QUICK
@given(programs())
def test_every_bound_question_is_its_part_of_the_model(program):
    domain, arity, facts, rules = program
    model = naive.model(facts, rules)
    for pred, n in arity.items():
        for value in domain:
            for at in range(n):
                engine = Engine()
                engine.add_program([*facts, *rules])
                args = tuple(value if i == at else Var(f"V{i}") for i in range(n))
                expected = {f.args for f in model if f.pred == pred and not f.neg and f.args[at] == value}
                found = {tuple(b.get(a, a) for a in args) for b in engine.solve(Query((Atom(pred, args),)))}
                assert found == expected
                for row in expected:       # and each answer, asked as a ground question, holds
                    assert engine.holds(Atom(pred, row))


@QUICK
@given(programs(), st.data())
def test_a_conjunction_of_separate_goals_is_their_answers_joined(program, data):
    domain, arity, facts, rules = program
    model = naive.model(facts, rules)
    preds = sorted(arity)
    goals, names = [], iter([Var(f"Q{i}") for i in range(12)])
    for _ in range(data.draw(st.integers(2, 3))):
        pred = data.draw(st.sampled_from(preds))
        goals.append(Atom(pred, tuple(data.draw(st.sampled_from(domain)) if data.draw(st.booleans()) else next(names)
                                      for _ in range(arity[pred]))))
    engine = Engine()
    engine.add_program([*facts, *rules])
    query = Query(tuple(goals))
    found = {tuple(b[v] for v in query.variables()) for b in engine.solve(query)}
    expected = {tuple(b[v] for v in query.variables()) for b in naive.substitutions(tuple(goals), model)}
    assert found == expected
