"""A model that goes on: facts and rules added to a current model (and to the goal model that
constraints and clashes are read from) give the model, the proofs and the violations that
computing everything again gives, on random stratified programs checked against the naive
evaluator, `not` and constraints included."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given
from hypothesis import strategies as st

from sym.core.logic.engine import Engine
from sym.core.logic.terms import Atom, Naf, Rule, Var
from tests.engine import naive
from tests.engine.test_engine_properties import QUICK, programs

X, Y = Var("X"), Var("Y")


def _split(program, cut: int, order: list[int]):
    """The program's clauses, those before `cut` first, the rest in `order` (indices into them)."""
    _domain, _arity, facts, rules = program
    clauses = [*facts, *rules]
    first = clauses[:cut]
    rest = clauses[cut:]
    later = [rest[i % len(rest)] for i in order] if rest else []
    return first, list(dict.fromkeys([*later, *rest])), facts, rules


def _growing(engine: Engine, first, later) -> Iterator[tuple[list[Atom], dict[str, Rule]]]:
    """Tell `engine` the clauses of `first`, then of `later`, one at a time (rule number n as
    `rn`); once `first` is all told (the model is current), and after each later addition (it goes
    on from there): the facts told so far and the rules by id."""
    by_id: dict[str, Rule] = {}
    told: list = []
    for number, clause in enumerate([*first, *later]):
        if isinstance(clause, Atom):
            engine.add_facts([clause])
        else:
            engine.add_rule(f"r{number}", clause)
            by_id[f"r{number}"] = clause
        told.append(clause)
        if number >= len(first) - 1:
            yield [c for c in told if isinstance(c, Atom)], by_id


def _violations(found) -> set:
    return {(v.constraint_id, tuple(v.facts)) for v in found}


def _expected_violations(facts, rules_by_id) -> set:
    model = naive.model(facts, list(rules_by_id.values()))
    constraints = {rid: r for rid, r in rules_by_id.items() if r.is_constraint}
    return naive.violations(model, constraints)


@QUICK
@given(programs(), st.integers(0, 40), st.lists(st.integers(0, 40), max_size=12))
def test_a_model_goes_on_from_added_facts_and_rules(program, cut, order):
    first, later, _facts, _rules = _split(program, cut, order)
    engine = Engine(goal_directed=False)
    engine.dense_from = engine.dense_after = 10**12
    by_id: dict[str, Rule] = {}
    for facts, by_id in _growing(engine, first, later):
        assert set(engine.facts()) == naive.model(facts, list(by_id.values()))
        assert _violations(engine.violations()) == _expected_violations(facts, by_id)
    model = set(engine.facts())
    for fact in engine.facts(derived=True):      # every derived fact keeps a proof from the model
        d = engine.provenance(fact)
        assert d is not None and d.rule == by_id[d.rule_id] and d.fact == fact
        assert all(p in model for p in d.premises if isinstance(p, Atom))


@QUICK
@given(programs(), st.integers(0, 40), st.lists(st.integers(0, 40), max_size=12))
def test_the_checks_of_a_growing_memory_are_those_of_the_whole_model(program, cut, order):
    first, later, _facts, _rules = _split(program, cut, order)
    engine = Engine()          # goal-directed: violations come from the model of what they read
    for facts, by_id in _growing(engine, first, later):
        assert _violations(engine.violations()) == _expected_violations(facts, by_id)


def test_a_rule_read_under_not_recomputes_what_it_grows():
    engine = Engine(goal_directed=False)
    engine.add_facts([Atom("d", ("a",)), Atom("d", ("b",)), Atom("q", ("a",))])
    engine.add_rule("r1", Rule(Atom("p", (X,)), (Atom("d", (X,)), Naf(Atom("q", (X,))))))
    assert set(engine.facts("p/1")) == {Atom("p", ("b",))}
    engine.add_rule("r2", Rule(Atom("q", (X,)), (Atom("d", (X,)),)))     # q grows: p(b) is gone
    assert set(engine.facts("p/1")) == set()


def test_a_rule_that_derives_an_asserted_relation_leaves_the_fact_base_alone():
    engine = Engine(goal_directed=False)
    engine.add_facts([Atom("e", ("a", "b")), Atom("f", ("c", "d"))])
    engine.add_rule("r1", Rule(Atom("g", (X, Y)), (Atom("e", (X, Y)),)))
    assert engine.holds(Atom("g", ("a", "b")))
    engine.add_rule("r2", Rule(Atom("e", (X, Y)), (Atom("f", (X, Y)),)))   # e, asserted, is derived now too
    assert engine.holds(Atom("g", ("c", "d")))
    assert set(engine.base()["e/2"]) == {("a", "b")}
    assert set(engine.facts("e/2", derived=False)) == {Atom("e", ("a", "b"))}
