"""Properties: the semi-naive engine agrees with a naive evaluator on random stratified programs,
printed clauses read back as themselves, and three-valued truth agrees with `holds`."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.logic.engine import FALSE, TRUE, UNKNOWN, Engine
from sym.core.logic.parser import parse_one
from sym.core.logic.terms import Atom, Compare, Naf, Query, Rule, Var, clause_text
from tests.engine import naive

QUICK = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

VARS = [Var("X"), Var("Y"), Var("Z")]
OPS = ["=", "\\=", "<", ">", "=<", ">="]


# -- random stratified programs ----------------------------------------------------


@st.composite
def programs(draw):
    """Facts and rules over 2-4 predicates. Each predicate has a layer; a rule's positive body
    uses layers up to its head's, its `not`s only lower layers, so the program is stratified."""
    domain = draw(st.lists(st.sampled_from(["a", "b", "c", "d", 1, 2, 3]), min_size=3, max_size=5, unique=True))
    n = draw(st.integers(2, 4))
    arity = {f"p{i}": draw(st.integers(1, 2)) for i in range(n)}
    layer = {"p0": 0, "p1": 1} | {f"p{i}": draw(st.integers(0, 2)) for i in range(2, n)}

    def some_atom(preds, args):
        pred = draw(st.sampled_from(sorted(preds)))
        neg = draw(st.integers(0, 7)) == 0
        return Atom(pred, tuple(draw(args) for _ in range(arity[pred])), neg)

    consts = st.sampled_from(domain)
    facts = []  # layer 0 dense, so that joins and `not`s find something; the rest sparse
    for pred in sorted(arity):
        tuples = [(c,) for c in domain] if arity[pred] == 1 else [(c, d) for c in domain for d in domain]
        least, most = (min(3, len(tuples)), 10) if layer[pred] == 0 else (0, 2)
        facts += [Atom(pred, args) for args in draw(st.sets(st.sampled_from(tuples), min_size=least, max_size=most))]
    facts += [Atom(a.pred, a.args, True) for a in (some_atom(arity, consts) for _ in range(draw(st.integers(0, 2))))]

    def some_body(head_layer: int, recursive_on: str | None = None):
        mostly_variables = st.sampled_from(VARS * 8 + domain)
        same_or_lower = [p for p in arity if layer[p] <= head_layer]
        positives = [some_atom(same_or_lower, mostly_variables) for _ in range(draw(st.integers(1, 3)))]
        if recursive_on is not None:  # recursion is where semi-naive evaluation can go wrong
            positives[0] = some_atom([recursive_on], mostly_variables)
        bound = sorted({v for a in positives for v in a.variables()}, key=lambda v: v.name)
        body: list = list(positives)
        lower = [p for p in arity if layer[p] < head_layer]
        if lower and draw(st.booleans()):
            # L occurs only in this `not`: "no such fact, for any L"
            terms = st.sampled_from(bound * 3 + domain + [Var("L")])
            body.insert(draw(st.integers(0, len(body))), Naf(some_atom(lower, terms)))
        if bound and draw(st.booleans()):
            left = draw(st.sampled_from(bound))
            others = [v for v in bound if v != left]
            right = draw(st.one_of(st.sampled_from(others), consts) if others else consts)
            op = draw(st.sampled_from(["\\=", "\\="] + OPS))
            body.insert(draw(st.integers(0, len(body))), Compare(op, left, right))
        if draw(st.integers(0, 3)) == 0:
            source = draw(st.one_of(st.sampled_from(bound), consts) if bound else consts)
            body.insert(draw(st.integers(0, len(body))), Compare("=", Var("W"), source))
            bound.append(Var("W"))
        return tuple(body), bound

    rules = []
    binary = [p for p in sorted(arity) if arity[p] == 2]
    if binary and draw(st.booleans()):  # a transitive closure: derivations many steps deep
        edge = draw(st.sampled_from(binary))
        head = draw(st.sampled_from([p for p in binary if layer[p] >= layer[edge] and p != edge] or [edge]))
        X, Y, Z = VARS
        rules.append(Rule(Atom(head, (X, Y)), (Atom(edge, (X, Y)),)))
        body = draw(st.permutations([Atom(head, (X, Y)), Atom(edge, (Y, Z))]))
        rules.append(Rule(Atom(head, (X, Z)), tuple(body)))
    for _ in range(draw(st.integers(1, 5))):
        pred = draw(st.sampled_from(sorted(arity)))
        body, bound = some_body(layer[pred], pred if draw(st.booleans()) else None)
        head_terms = st.one_of(st.sampled_from(bound), consts) if bound else consts
        head = Atom(pred, tuple(draw(head_terms) for _ in range(arity[pred])), draw(st.integers(0, 5)) == 0)
        rules.append(Rule(head, body))
    for _ in range(draw(st.integers(0, 1))):
        rules.append(Rule(None, some_body(2)[0]))
    return domain, arity, facts, rules


def engine_for(facts, rules, dense: bool = False, goals: bool = False) -> tuple[Engine, dict[str, Rule]]:
    """An engine answering from its materialized model (tuples or numpy), or goal-directed."""
    engine = Engine(goal_directed=goals)
    engine.dense_from = engine.dense_after = 0 if dense else 10**12  # set-at-a-time (numpy), or tuples
    ids = engine.add_program(list(facts) + list(rules))
    return engine, dict(zip(ids, rules))


@pytest.mark.parametrize("dense", [False, True], ids=["tuples", "dense"])
@QUICK
@given(programs())
def test_semi_naive_engine_derives_the_naive_model(dense, program):
    _domain, _arity, facts, rules = program
    engine, by_id = engine_for(facts, rules, dense)
    result = engine.infer()
    expected = naive.model(facts, rules)
    assert result.complete
    assert set(engine.facts()) == expected
    assert set(engine.facts(derived=False)) == set(facts)
    assert result.derived == len(expected - set(facts))
    constraints = {rid: r for rid, r in by_id.items() if r.is_constraint}
    found = {(v.constraint_id, tuple(v.facts)) for v in result.violations}
    assert found == naive.violations(expected, constraints)


@pytest.mark.parametrize("dense", [False, True], ids=["tuples", "dense"])
@QUICK
@given(programs())
def test_every_derived_fact_has_a_proof_from_earlier_steps(dense, program):
    _domain, _arity, facts, rules = program
    engine, by_id = engine_for(facts, rules, dense)
    engine.infer()
    model = set(engine.facts())
    for fact in engine.facts(derived=True):
        d = engine.provenance(fact)
        assert d.rule == by_id[d.rule_id] and d.fact == fact
        binding = {}
        for template, premise in zip(d.rule.body, d.premises):
            if isinstance(premise, Atom):
                assert premise in model
                binding = naive.match(template, premise, binding)
                assert binding is not None
                earlier = engine.provenance(premise)
                assert earlier is None or earlier.step < d.step
            elif isinstance(premise, Naf):
                assert not any(naive.match(premise.atom, f, {}) is not None for f in model)
            else:
                assert naive.compare(premise.op, premise.left, premise.right)
        for template, premise in zip(d.rule.body, d.premises):
            if isinstance(template, Compare):
                binding.update({t: v for t, v in ((template.left, premise.left), (template.right, premise.right))
                                if isinstance(t, Var)})
        assert naive.ground(d.rule.head, binding) == fact


@pytest.mark.parametrize("dense", [False, True], ids=["tuples", "dense"])
@QUICK
@given(programs(), st.integers(0, 4))
def test_a_step_limit_gives_part_of_the_model(dense, program, limit):
    _domain, _arity, facts, rules = program
    engine, _ = engine_for(facts, rules, dense)
    full = engine.infer()
    model = set(engine.facts())
    partial = engine.infer(max_steps=limit)
    assert partial.steps <= limit
    assert set(facts) <= set(engine.facts()) <= model
    if partial.complete:
        assert set(engine.facts()) == model
    if limit > full.steps:
        assert partial.complete
    assert engine.infer(max_steps=full.steps + 1).complete
    assert set(engine.facts()) == model


@pytest.mark.parametrize("dense,goals", [(False, False), (True, False), (False, True)], ids=["tuples", "dense", "goals"])
@QUICK
@given(programs(), st.booleans())
def test_truth_agrees_with_holds(dense, goals, program, open_world):
    domain, arity, facts, rules = program
    engine, _ = engine_for(facts, rules, dense, goals)
    model = naive.model(facts, rules)
    for pred, n in arity.items():
        for args in ([(a,) for a in domain] if n == 1 else [(a, b) for a in domain for b in domain]):
            for neg in (False, True):
                atom = Atom(pred, args, neg)
                truth = engine.truth(atom, open_world=open_world)
                assert engine.holds(atom) == (atom in model)
                if engine.holds(atom):
                    assert truth == TRUE
                elif engine.holds(atom.negate()) or not open_world:
                    assert truth == FALSE
                else:
                    assert truth == UNKNOWN


# -- printing and reading back -----------------------------------------------------


bare_names = st.one_of(
    st.from_regex(r"[a-z][A-Za-z0-9_]{0,6}", fullmatch=True),
    st.sampled_from(["not", "false", "nothing", "falsey", "not_", "n"]),
)
odd_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
awkward = st.one_of(
    odd_text,
    st.text(st.sampled_from("aZ _'\"\\.(),%~-:?\n\t0"), max_size=8),
    st.from_regex(r"[A-Z_][A-Za-z0-9_]{0,5}", fullmatch=True),
)
names = st.one_of(bare_names, awkward)
# a number is its value (core/logic/parser.py): a whole float such as 0.0 or 1e300 is that integer
numbers = st.floats(allow_nan=False, allow_infinity=False).map(lambda x: int(x) if x.is_integer() else x)
constants = st.one_of(names, st.integers(-10**12, 10**12), numbers)
variables = st.one_of(st.from_regex(r"[A-Z][A-Za-z0-9_]{0,4}", fullmatch=True),
                      st.from_regex(r"_[A-Za-z0-9][A-Za-z0-9_]{0,3}", fullmatch=True)).map(Var)


def atoms(args):
    return st.builds(lambda pred, args, neg: Atom(pred, tuple(args), neg),
                     names, st.lists(args, max_size=3), st.booleans())


@st.composite
def bodies(draw):
    """A safe body: positive atoms bind variables; `not`, comparisons and `=` use them."""
    positives = draw(st.lists(atoms(st.one_of(variables, constants)), min_size=1, max_size=3))
    bound = sorted({v for a in positives for v in a.variables()}, key=lambda v: v.name)
    used = st.one_of(st.sampled_from(bound), constants) if bound else constants
    body = list(positives)
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["not", "compare", "bind"]))
        if kind == "not":
            local = Var("Local")  # a named variable occurring only in this `not`
            lit = Naf(draw(atoms(st.one_of(used, st.just(local)))))
            if local in lit.variables() and any(local in other.variables() for other in body):
                continue
        elif kind == "compare":
            lit = Compare(draw(st.sampled_from(OPS)), draw(used), draw(used))
        else:
            fresh = draw(variables)
            if fresh in bound or any(fresh in other.variables() for other in body):
                continue
            lit = Compare("=", fresh, draw(used))
            bound.append(fresh)
            used = st.one_of(st.sampled_from(bound), constants)
        body.insert(draw(st.integers(0, len(body))), lit)
    return tuple(body), bound


@st.composite
def clauses(draw):
    kind = draw(st.sampled_from(["fact", "rule", "constraint", "query"]))
    if kind == "fact":
        return draw(atoms(constants))
    body, bound = draw(bodies())
    if kind == "rule":
        used = st.one_of(st.sampled_from(bound), constants) if bound else constants
        return Rule(draw(atoms(used)), body)
    return Rule(None, body) if kind == "constraint" else Query(body)


@QUICK
@given(clauses())
def test_printed_clauses_read_back_as_themselves(clause):
    text = clause_text(clause)
    again = parse_one(text)
    assert again == clause
    assert clause_text(again) == text
