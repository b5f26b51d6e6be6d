"""Properties: goal-directed answers are the whole model's. On random stratified programs (recursion,
`not`, strong negation, comparisons, constraints) and random queries with bound and free
arguments, a goal-directed engine gives the answers, three-valued truth, violations and
checking `/why` trees that materializing everything gives; facts added later keep it so."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.logic.engine import Engine
from sym.core.logic.provenance import ABSENT, ASSERTED, BUILTIN, DERIVED, ELIDED, NEGATION, ProofNode, proof_tree
from sym.core.logic.terms import Atom, Compare, Naf, Query, Var
from tests.engine import naive
from tests.engine.test_engine_properties import programs

# CI-sized; GOAL_EXAMPLES=2000 searches harder
CI = settings(max_examples=int(os.environ.get("GOAL_EXAMPLES", 60)), deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

QUERY_VARS = [Var("X"), Var("Y"), Var("_#1")]


@st.composite
def questions(draw, program):
    """A random question over a program: one atom with each argument bound or free, sometimes
    joined with another, with a `not` or a comparison after them."""
    domain, arity, _facts, _rules = program
    pred = draw(st.sampled_from(sorted(arity)))
    neg = draw(st.integers(0, 4)) == 0
    args = tuple(draw(st.one_of(st.sampled_from(domain), st.sampled_from(QUERY_VARS))) for _ in range(arity[pred]))
    body: list = [Atom(pred, args, neg)]
    named = [a for a in args if isinstance(a, Var) and a.name != "_#1"]
    if draw(st.integers(0, 3)) == 0:              # a join: what one atom binds restricts the other
        other = draw(st.sampled_from(sorted(arity)))
        terms = tuple(draw(st.one_of(st.sampled_from(domain), st.sampled_from([Var("X"), Var("Y"), Var("Z")])))
                      for _ in range(arity[other]))
        body.append(Atom(other, terms))
        named += [t for t in terms if isinstance(t, Var) and t not in named]
    if named and draw(st.integers(0, 3)) == 0:
        other = draw(st.sampled_from(sorted(arity)))
        terms = [draw(st.one_of(st.sampled_from(named), st.sampled_from(domain))) for _ in range(arity[other])]
        body.append(Naf(Atom(other, tuple(terms))))
    if named and draw(st.integers(0, 3)) == 0:
        body.append(Compare(draw(st.sampled_from(["\\=", "<", "=<"])), draw(st.sampled_from(named)),
                            draw(st.sampled_from(domain))))
    return tuple(body)


def engines(facts, rules) -> tuple[Engine, Engine]:
    """(goal-directed, materializing) engines over the same program."""
    goal, whole = Engine(), Engine(goal_directed=False)
    for engine in (goal, whole):
        engine.add_program(list(facts) + list(rules))
    return goal, whole


def answers(engine: Engine, body) -> set[tuple]:
    named = Query(body).variables()
    return {tuple(row[v] for v in named) for row in engine.solve(Query(body))}


def check_tree(node: ProofNode, model: set[Atom], facts: set[Atom], rules: dict) -> None:
    """A proof tree checks: each derived node is its rule's head under a binding that makes the
    children its body, earlier steps below later ones, leaves asserted, `not`s absent, tests true."""
    lit = node.literal
    if node.status == ASSERTED:
        assert lit in facts
    elif node.status == NEGATION:
        assert isinstance(lit, Naf) and not any(naive.match(lit.atom, f, {}) is not None for f in model)
    elif node.status == BUILTIN:
        assert isinstance(lit, Compare) and naive.compare(lit.op, lit.left, lit.right)
    elif node.status == DERIVED:
        assert lit in model and lit not in facts
        rule = rules[node.rule_id]
        assert len(node.children) == len(rule.body) or node.children[0].status == ELIDED
        if node.children and node.children[0].status == ELIDED:
            return
        binding: dict = {}
        for template, child in zip(rule.body, node.children):
            premise = child.literal
            assert child.status != ABSENT
            if isinstance(template, Atom):
                binding = naive.match(template, premise, binding)
                assert binding is not None
                if child.status == DERIVED:
                    assert child.step < node.step
            else:
                assert type(template) is type(premise)
            check_tree(child, model, facts, rules)
        for template, child in zip(rule.body, node.children):
            if isinstance(template, Compare):
                premise = child.literal
                binding.update({t: v for t, v in ((template.left, premise.left), (template.right, premise.right))
                                if isinstance(t, Var)})
        assert naive.ground(rule.head, binding) == lit
    else:
        assert node.status == ABSENT and lit not in model


@CI
@given(st.data())
def test_goal_directed_answers_truth_and_proofs_are_the_whole_models(data):
    program = data.draw(programs())
    _domain, _arity, facts, rules = program
    body = data.draw(questions(program))
    goal, whole = engines(facts, rules)
    whole.infer()
    model = naive.model(facts, rules)
    assert answers(goal, body) == answers(whole, body)
    atom = body[0]
    instances = [naive.ground(atom, dict(zip(Query((atom,)).variables(), row))) for row in answers(goal, (atom,))]
    if atom.is_ground:
        instances.append(atom)
    for instance in instances[:4]:
        for open_world in (False, True):
            assert goal.truth(instance, open_world=open_world) == whole.truth(instance, open_world=open_world)
        tree = proof_tree(goal, instance)
        assert tree.status == proof_tree(whole, instance).status
        check_tree(tree, model, set(facts), goal.rules)
    assert not goal.complete                      # nothing was materialized
    assert {(v.constraint_id, v.facts) for v in goal.violations()} == {(v.constraint_id, v.facts) for v in whole.violations()}


@CI
@given(st.data())
def test_facts_added_after_a_question_are_answered_from(data):
    program = data.draw(programs())
    domain, arity, facts, rules = program
    body = data.draw(questions(program))
    pred = data.draw(st.sampled_from(sorted(arity)))
    later = [Atom(pred, tuple(data.draw(st.sampled_from(domain)) for _ in range(arity[pred])))
             for _ in range(data.draw(st.integers(1, 3)))]
    goal, whole = engines(facts, rules)
    answers(goal, body)                           # a goal model is kept …
    whole.infer()
    goal.add_facts(later)                         # … and goes on from these (or is recomputed)
    whole.add_facts(later)
    whole.ensure_model()                          # the whole model goes on from them too, where it can
    expected = naive.model(list(facts) + later, rules)
    assert set(whole.facts()) == expected
    assert answers(goal, body) == answers(whole, body)
    for instance in [a for a in expected if a.pred == body[0].pred][:4]:
        assert goal.holds(instance)
        check_tree(proof_tree(goal, instance), expected, set(facts) | set(later), goal.rules)
