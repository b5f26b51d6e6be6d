"""Adding is linear: the strata kept as rules are added are `stratify`'s (and refuse what it
refuses, changing nothing); a schema compares a new predicate name only with names that could be
its duplicates; and the stratification work of a /tell does not grow with what memory holds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sym.core.errors import StratificationError
from sym.core.logic.engine import Engine
from sym.core.logic.slice import Dependencies
from sym.core.logic.strata import Strata, stratify
from sym.core.logic.terms import Atom, Naf, Query, Rule, Var
from sym.core.memory.schema import Predicate, PredicateTable, Schema
from tests.engine.test_engine_properties import programs

X = Var("X")
NAMES = [f"p{i}" for i in range(7)]


@st.composite
def rule_batches(draw):
    """Batches of rules over a few unary relations: chains, cycles, `not` (some unstratifiable)."""
    batches = []
    for _ in range(draw(st.integers(1, 12))):
        batch = []
        for _ in range(draw(st.integers(1, 3))):
            head = draw(st.sampled_from(NAMES))
            body = [Naf(Atom(b, (X,))) if draw(st.integers(0, 3)) == 0 else Atom(b, (X,))
                    for b in draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3))]
            if isinstance(body[0], Naf):
                body.insert(0, Atom("d", (X,)))    # safe: X bound before the `not`
            batch.append(Rule(None if draw(st.integers(0, 9)) == 0 else Atom(head, (X,)), tuple(body)))
        batches.append(batch)
    return batches


@settings(max_examples=300, deadline=None)
@given(rule_batches(), st.integers(0, 4))
def test_kept_strata_are_stratify_of_all_the_rules(batches, start):
    base = [Rule(Atom(f"b{i}", (X,)), (Atom(f"b{i + 1}", (X,)),)) for i in range(start * 5)]   # a program to add to
    kept = Strata(base)
    program = list(base)
    for batch in batches:
        try:
            expected = stratify([*program, *batch])
        except StratificationError as err:
            with pytest.raises(StratificationError) as found:
                kept.check(batch)
            assert str(found.value) == str(err)
            with pytest.raises(StratificationError):
                kept.add(batch)
            assert kept.levels == stratify(program)      # refused: nothing changed
            continue
        if random.random() < 0.5:
            kept.check(batch)
        kept.add(batch)
        program += batch
        assert kept.levels == expected


def test_a_rule_on_a_new_head_is_added_without_stratifying_again(monkeypatch):
    import sym.core.logic.strata as strata

    rules = [Rule(Atom(f"q{i}", (X,)), (Atom("d", (X,)), Naf(Atom(f"q{i - 1}", (X,))))) for i in range(1, 40)]
    kept = Strata(rules)
    calls = []
    monkeypatch.setattr(strata, "_stratified", lambda rs: calls.append(len(rs)) or ({}, {}, []))
    for i in range(40, 400):
        rule = Rule(Atom(f"q{i}", (X,)), (Atom("d", (X,)), Naf(Atom(f"q{i - 1}", (X,)))))
        kept.check([rule])
        kept.add([rule])
    assert calls == []
    assert kept.levels["q399/1"] == 399


def test_a_not_under_a_stratum_lifts_what_reads_it():
    kept = Strata([Rule(Atom(f"r{i}", (X,)), (Atom(f"r{i + 1}", (X,)),)) for i in range(20)])
    kept.add([Rule(Atom("r20", (X,)), (Atom("d", (X,)), Naf(Atom("s", (X,)))))])
    assert kept.levels["r0/1"] == 1 and kept.levels["s/1"] == 0


def test_a_cycle_through_not_added_later_is_refused_by_name():
    kept = Strata([Rule(Atom(f"r{i}", (X,)), (Atom(f"r{i + 1}", (X,)),)) for i in range(20)])
    with pytest.raises(StratificationError, match="cycle"):
        kept.check([Rule(Atom("r20", (X,)), (Atom("d", (X,)), Naf(Atom("r0", (X,)))))])


def _names(rng: random.Random, n: int) -> list[str]:
    words = ["located", "in", "at", "of", "parent", "parents", "friend", "big", "red", "owner", "the", "likes"]
    return ["_".join(rng.choice(words + [f"w{rng.randrange(30)}"]) for _ in range(rng.randint(1, 3))) for _ in range(n)]


def test_indexed_near_duplicates_are_those_of_a_scan_of_every_name(monkeypatch):
    rng = random.Random(3)
    schema = Schema()
    for name in _names(rng, 300):
        schema.observe(name, arity=rng.randint(1, 2))
    for key in list(schema.predicates)[:40]:       # names come and go
        name, arity = key.rsplit("/", 1)
        schema.forget(name, arity=int(arity))
    ones = [k for k in schema.predicates if k.endswith("/1")]
    schema.merge(ones[0], ones[1])
    schema.predicates["located_in/2"] = Predicate("located_in", 2)
    questions = [(name, rng.randint(1, 2)) for name in [*_names(rng, 150), "located_at", "locatedIn"]]
    indexed = [schema.near_duplicates(name, arity) for name, arity in questions]
    assert sum(map(bool, indexed)) > 20
    monkeypatch.setattr(PredicateTable, "near", lambda self, me: list(self.values()))
    assert [schema.near_duplicates(name, arity) for name, arity in questions] == indexed


@settings(max_examples=80, deadline=None)
@given(programs())
def test_rules_added_one_at_a_time_between_questions_give_the_whole_programs_answers(program):
    from tests.engine import naive

    _domain, arity, facts, rules = program
    engine = Engine()
    engine.add_facts(facts)
    for number, rule in enumerate(rules):
        engine.check_rules({f"r{number}": rule})
        engine.add_rules({f"r{number}": rule})
        for pred in sorted(arity):          # questions keep goal models and who-reads-whom alive
            engine.solve(Query((Atom(pred, tuple(Var(f"V{i}") for i in range(arity[pred]))),)))
    expected = naive.model(facts, rules)
    for pred in sorted(arity):
        for neg in (False, True):
            found = engine.solve(Query((Atom(pred, tuple(Var(f"V{i}") for i in range(arity[pred])), neg),)))
            assert {Atom(pred, tuple(row.values()), neg) for row in found} == \
                {a for a in expected if a.pred == pred and a.neg == neg}
    assert engine.dependencies().reads == Dependencies(engine.rules).reads
    engine.infer()
    assert set(engine.facts()) == expected


def _mentioned(rules) -> set[str]:
    keys = set()
    for rule in rules:
        keys |= {rule.head.key} if rule.head is not None else set()
        keys |= {(lit.atom if isinstance(lit, Naf) else lit).key for lit in rule.body if isinstance(lit, (Atom, Naf))}
    return keys


def _reaches_a_clash(engine: Engine, clauses) -> bool:
    """could_clash as it read every rule each time, to compare with."""
    from sym.core.reason.clashes import _body_keys, _clashing_keys, _clause_keys

    rules = [*engine.rules.values(), *(c for c in clauses if isinstance(c, Rule))]
    clashing = _clashing_keys(engine.relation_keys().union(*(_clause_keys(c) for c in clauses)),
                              [r for r in rules if r.head is None])
    if not clashing:
        return False
    if any(isinstance(c, Rule) and c.head is None for c in clauses):
        return True
    reached = {c.key if isinstance(c, Atom) else c.head.key for c in clauses}
    grew = True
    while grew:
        grew = False
        for rule in rules:
            if rule.head is not None and rule.head.key not in reached and _body_keys(rule) & reached:
                reached.add(rule.head.key)
                grew = True
    return bool(reached & clashing)


@settings(max_examples=80, deadline=None)
@given(programs(), st.data())
def test_what_rules_mention_and_what_can_clash_stay_current_as_rules_come_and_go(program, data):
    from sym.core.reason.clashes import could_clash

    _domain, _arity, facts, rules = program
    engine = Engine()
    engine.add_facts(facts)
    ids = []
    for number, rule in enumerate(rules):
        ids.append(f"r{number}")
        engine.add_rules({ids[-1]: rule})
        engine.dependencies()                 # kept, and brought up to date by the next additions
        if data.draw(st.booleans()):
            gone = data.draw(st.sampled_from(ids))
            engine.remove_rule(gone)
            ids.remove(gone)
        kept = engine.rules
        assert engine.relation_keys() == {a.key for a in facts} | _mentioned(kept.values())
        assert engine.constraints() == {rid: r for rid, r in kept.items() if r.head is None}
        deps = engine.dependencies()
        for keys in ({r.head.key for r in kept.values() if r.head is not None}, {a.key for a in facts}):
            assert list(deps.rules_for(keys)) == [rid for rid, r in kept.items() if r.head is not None
                                                  and r.head.key in keys]
        clauses = data.draw(st.lists(st.sampled_from([*facts, *rules]), max_size=3))
        assert could_clash(engine, clauses) == _reaches_a_clash(engine, clauses)
