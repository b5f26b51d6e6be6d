"""The engine and working memory as a user meets them: assert, infer, ask, explain, forget."""

from __future__ import annotations

import pytest

from sym.core.errors import StratificationError, UserError
from sym.core.logic.engine import FALSE, TRUE, UNKNOWN, Engine
from sym.core.logic.parser import parse_atom, parse_one, parse_program, parse_query
from sym.core.logic.provenance import ASSERTED, DERIVED, proof_tree
from sym.core.logic.terms import Atom, Compare, Naf, Var
from sym.core.memory.working import WorkingMemory, item_id


def engine_with(text: str) -> Engine:
    engine = Engine()
    engine.add_program(item.clause for item in parse_program(text))
    return engine


def atom(text: str) -> Atom:
    return parse_atom(text)


def answers(engine: Engine, query: str) -> set[tuple]:
    """The bindings of a query, as tuples in order of the query's variables."""
    q = parse_query(query)
    return {tuple(row[v] for v in q.variables()) for row in engine.solve(q)}


CHAIN = """
edge(a, b). edge(b, c). edge(c, d).
path(X, Y) :- edge(X, Y).
path(X, Z) :- path(X, Y), edge(Y, Z).
"""


# -- deriving ----------------------------------------------------------------------


def test_transitive_closure():
    engine = engine_with(CHAIN)
    result = engine.infer()
    assert result.complete
    assert answers(engine, "path(X, Y)") == {
        ("a", "b"), ("b", "c"), ("c", "d"), ("a", "c"), ("b", "d"), ("a", "d"),
    }
    assert result.derived == 6
    assert set(engine.facts("path/2", derived=True)) == {Atom("path", args) for args in answers(engine, "path(X, Y)")}
    assert set(engine.facts(derived=False)) == {atom("edge(a, b)"), atom("edge(b, c)"), atom("edge(c, d)")}


def test_semi_naive_rounds_number_each_fact_by_its_path_length():
    engine = engine_with(CHAIN)
    assert engine.infer().steps == 3
    assert engine.provenance(atom("path(a, b)")).step == 1
    assert engine.provenance(atom("path(c, d)")).step == 1
    assert engine.provenance(atom("path(a, c)")).step == 2
    assert engine.provenance(atom("path(b, d)")).step == 2
    assert engine.provenance(atom("path(a, d)")).step == 3
    assert engine.provenance(atom("edge(a, b)")) is None  # asserted, not derived


def test_a_step_limit_stops_early_and_a_later_full_inference_completes():
    engine = engine_with(CHAIN)
    partial = engine.infer(max_steps=1)
    assert (partial.steps, partial.derived, partial.complete) == (1, 3, False)
    assert engine.holds(atom("path(a, b)"))
    assert not engine.holds(atom("path(a, c)"))
    assert not engine.complete
    full = engine.infer()
    assert (full.steps, full.complete) == (3, True)
    assert engine.holds(atom("path(a, d)"))
    assert engine.complete


def test_negation_as_failure_across_strata():
    engine = engine_with("""
        bird(tweety). bird(pingu). penguin(pingu). injured(tweety).
        abnormal(X) :- penguin(X).
        grounded(X) :- injured(X).
        flies(X) :- bird(X), not abnormal(X), not grounded(X).
        walks(X) :- bird(X), not flies(X).
        tweety_ok :- not flies(tweety), not walks(tweety).
    """)
    engine.infer()
    assert answers(engine, "flies(X)") == set()
    assert answers(engine, "walks(X)") == {("tweety",), ("pingu",)}
    assert not engine.holds(atom("tweety_ok"))
    engine.remove_fact(atom("injured(tweety)"))
    assert answers(engine, "flies(X)") == {("tweety",)}
    assert answers(engine, "walks(X)") == {("pingu",)}


def test_negation_with_a_local_anonymous_variable_means_no_such_fact():
    engine = engine_with("""
        person(ann). person(bob). person(cy).
        friend_of(ann, bob). friend_of(bob, bob).
        lonely(X) :- person(X), not friend_of(X, _).
    """)
    assert answers(engine, "lonely(X)") == {("cy",)}


def test_an_unstratifiable_rule_is_rejected_naming_the_cycle_and_changes_nothing():
    engine = engine_with("q(a). q(b). r(b).\np(X) :- q(X), not r(X).")
    engine.infer()
    rules_before = engine.rules
    with pytest.raises(StratificationError) as caught:
        engine.add_rule("bad", parse_one("r(X) :- q(X), not p(X)."))
    assert "p/1" in str(caught.value) and "r/1" in str(caught.value)
    assert "cycle" in str(caught.value)
    assert engine.rules == rules_before
    assert answers(engine, "p(X)") == {("a",)}


def test_an_unstratifiable_program_adds_neither_its_rules_nor_its_facts():
    engine = Engine()
    program = [item.clause for item in parse_program(
        "q(a).\np(X) :- q(X), not r(X).\nr(X) :- q(X), not p(X).")]
    with pytest.raises(StratificationError):
        engine.add_program(program)
    assert engine.rules == {}
    assert list(engine.facts()) == []


def test_adding_a_program_never_replaces_an_existing_rule():
    engine = engine_with("q(a).")
    engine.add_rule("r2", parse_one("p(X) :- q(X)."))
    engine.add_program([parse_one("s(X) :- q(X).")])
    assert engine.holds(atom("p(a)")) and engine.holds(atom("s(a)"))


def test_strong_negation_gives_three_valued_answers():
    engine = engine_with("""
        frog(gary). frog(fred). ~green(gary).
        green(X) :- frog(X), not ~green(X).
        ~swims(X) :- ~green(X).
    """)
    engine.infer()
    assert engine.truth(atom("green(fred)")) == TRUE
    assert engine.truth(atom("green(gary)"), open_world=True) == FALSE
    assert engine.truth(atom("~green(gary)"), open_world=True) == TRUE
    assert engine.truth(atom("~green(fred)"), open_world=True) == FALSE
    assert engine.truth(atom("swims(fred)"), open_world=True) == UNKNOWN
    assert engine.truth(atom("swims(fred)"), open_world=False) == FALSE
    assert engine.truth(atom("swims(gary)"), open_world=True) == FALSE


def test_comparisons_filter_and_bind():
    engine = engine_with("""
        height(ann, 170). height(bob, 182). height(cy, 170).
        taller(X, Y) :- height(X, H1), height(Y, H2), H1 > H2.
        same(X, Y) :- height(X, H), height(Y, H), X \\= Y.
        at_most(X, Y) :- height(X, H1), height(Y, H2), H1 =< H2, X \\= Y.
        tall(X) :- height(X, H), H >= 180.
        short(X) :- height(X, H), H < 175.
        alias(Y, H) :- height(X, H), Y = X.
        named(X) :- height(X, _), X = ann.
    """)
    assert answers(engine, "taller(X, Y)") == {("bob", "ann"), ("bob", "cy")}
    assert answers(engine, "same(X, Y)") == {("ann", "cy"), ("cy", "ann")}
    assert answers(engine, "at_most(X, Y)") == {("ann", "bob"), ("cy", "bob"), ("ann", "cy"), ("cy", "ann")}
    assert answers(engine, "tall(X)") == {("bob",)}
    assert answers(engine, "short(X)") == {("ann",), ("cy",)}
    assert answers(engine, "alias(Y, H)") == {("ann", 170), ("bob", 182), ("cy", 170)}
    assert answers(engine, "named(X)") == {("ann",)}


def test_numbers_and_atoms_are_equal_only_to_their_own_kind_and_never_ordered():
    engine = engine_with("""
        value(one, 1). value(word, '1'). value(b, b). value(two, 2.0).
        small(K) :- value(K, V), V < 5.
        after_a(K) :- value(K, V), V > a.
        is_one(K) :- value(K, V), V = 1.
        not_one(K) :- value(K, V), V \\= 1.
        is_two(K) :- value(K, V), V = 2.
    """)
    assert answers(engine, "small(K)") == {("one",), ("two",)}
    assert answers(engine, "after_a(K)") == {("b",)}
    assert answers(engine, "is_one(K)") == {("one",)}
    assert answers(engine, "not_one(K)") == {("word",), ("b",), ("two",)}
    assert answers(engine, "is_two(K)") == {("two",)}


def test_integrity_constraints_are_reported_with_the_facts_involved():
    engine = engine_with("""
        wife_of(ann, bob). husband_of(ann, bob). wife_of(cy, dan).
        :- wife_of(X, Y), husband_of(X, Y).
    """)
    result = engine.infer()
    assert result.complete
    (violation,) = result.violations
    assert set(violation.facts) == {atom("wife_of(ann, bob)"), atom("husband_of(ann, bob)")}
    assert violation.constraint is not None and violation.constraint.is_constraint
    assert violation.constraint_id in engine.rules
    engine.remove_fact(atom("husband_of(ann, bob)"))
    assert engine.violations() == []


def test_a_fact_and_its_strong_negation_are_a_contradiction():
    engine = engine_with("bird(tweety). ~flies(tweety).\nflies(X) :- bird(X).")
    (violation,) = engine.infer().violations
    assert set(violation.facts) == {atom("flies(tweety)"), atom("~flies(tweety)")}
    assert violation.constraint is None
    assert "contradiction" in str(violation)


def test_provenance_premises_are_the_instantiated_body():
    engine = engine_with("""
        father_of(joshua, don). daughter_of(ann, joshua). height(ann, 160).
        sister_of(C, A) :- father_of(B, A), daughter_of(C, B), not brother_of(C, A), height(C, H), H > 150.
    """)
    fact = atom("sister_of(ann, don)")
    derivation = engine.provenance(fact)
    assert derivation.fact == fact
    assert derivation.rule_id in engine.rules and derivation.rule == engine.rules[derivation.rule_id]
    assert derivation.premises == (
        atom("father_of(joshua, don)"),
        atom("daughter_of(ann, joshua)"),
        Naf(atom("brother_of(ann, don)")),
        atom("height(ann, 160)"),
        Compare(">", 160, 150),
    )


def test_a_proof_tree_reaches_asserted_facts():
    engine = engine_with(CHAIN)
    tree = proof_tree(engine, atom("path(a, c)"))
    assert tree.status == DERIVED and tree.step == 2
    assert [child.literal for child in tree.children] == [atom("path(a, b)"), atom("edge(b, c)")]
    assert [child.status for child in tree.children] == [DERIVED, ASSERTED]
    assert tree.children[0].children[0].literal == atom("edge(a, b)")


def test_removing_a_base_fact_retracts_what_was_derived_from_it():
    engine = engine_with(CHAIN)
    assert engine.holds(atom("path(a, d)"))
    assert engine.remove_fact(atom("edge(b, c)"))
    assert answers(engine, "path(X, Y)") == {("a", "b"), ("c", "d")}
    assert not engine.remove_fact(atom("edge(b, c)"))


def test_removing_a_rule_retracts_what_it_derived():
    engine = engine_with(CHAIN)
    (recursive,) = [rid for rid, rule in engine.rules.items() if len(rule.body) == 2]
    assert engine.remove_rule(recursive)
    assert answers(engine, "path(a, X)") == {("b",)}


def test_solve_returns_each_distinct_binding_once():
    engine = engine_with("""
        parent_of(ann, bob). parent_of(ann, cy). parent_of(dan, bob).
        has_child(X) :- parent_of(X, _).
    """)
    rows = engine.solve(parse_query("parent_of(X, _)"))
    assert sorted(row[Var("X")] for row in rows) == ["ann", "dan"]
    rows = engine.solve(parse_query("has_child(X), parent_of(X, Y)"))
    assert sorted(row[Var("X")] for row in rows) == ["ann", "ann", "dan"]
    assert engine.solve(parse_query("parent_of(ann, bob)")) == [{}]
    assert engine.solve(parse_query("parent_of(bob, ann)")) == []


def test_zero_arity_propositional_rules():
    engine = engine_with("""
        raining.
        wet :- raining.
        slippery :- wet, not salted.
        dry :- not wet.
    """)
    engine.infer()
    assert engine.holds(Atom("wet")) and engine.holds(Atom("slippery"))
    assert not engine.holds(Atom("dry"))
    assert engine.provenance(Atom("slippery")).premises == (Atom("wet"), Naf(Atom("salted")))
    engine.add_facts([Atom("salted")])
    assert not engine.holds(Atom("slippery"))
    engine.remove_fact(Atom("raining"))
    assert engine.holds(Atom("dry")) and not engine.holds(Atom("wet"))


def test_adding_facts_reports_only_new_ones():
    engine = Engine()
    assert engine.add_facts([atom("p(a)"), atom("p(b)"), atom("p(a)")]) == 2
    assert engine.add_facts([atom("p(a)")]) == 0


# -- working memory ----------------------------------------------------------------


def typed(text: str) -> list[tuple]:
    return [(item.clause, "typed") for item in parse_program(text)]


def test_memory_add_is_all_or_nothing_with_an_unstratifiable_rule():
    memory = WorkingMemory()
    memory.add(typed("q(a).\np(X) :- q(X), not r(X)."))
    before = dict(memory.items)
    with pytest.raises(StratificationError):
        memory.add(typed("q(b).\nr(X) :- q(X), not p(X).\ns(c)."))
    assert memory.items == before
    assert memory.ask(parse_query("q(X)")).bindings == [{"X": "a"}]
    assert memory.ask(parse_query("p(X)")).bindings == [{"X": "a"}]


def test_ids_are_stable_across_memories_and_differ_between_clauses():
    text = "parent_of(ann, bob).\nhas_child(X) :- parent_of(X, _).\n:- parent_of(X, X)."
    first, second = WorkingMemory(), WorkingMemory()
    ids_first = [it.id for it in first.add(typed(text)).items]
    ids_second = [it.id for it in second.add(typed(text)).items]
    assert ids_first == ids_second
    assert len(set(ids_first)) == 3
    assert [i[0] for i in ids_first] == ["f", "r", "c"]
    assert item_id(parse_one("parent_of(ann, bob).")) != item_id(parse_one("parent_of(bob, ann)."))
    assert first.resolve(ids_first[1][:4]).text == "has_child(X) :- parent_of(X, _)."


def test_duplicates_are_counted_not_added():
    memory = WorkingMemory()
    outcome = memory.add(typed("p(a).\np(a).\nq(X) :- p(X)."))
    items, duplicates = outcome.items, outcome.duplicates
    assert (len(items), duplicates) == (2, 1)
    outcome = memory.add(typed("p(a).\np(b).\nq(X) :- p(X)."))
    items, duplicates = outcome.items, outcome.duplicates
    assert [it.text for it in items] == ["p(b)."] and duplicates == 2
    assert memory.counts() == {"fact": 2, "rule": 1, "constraint": 0}


def test_asking_about_an_unknown_predicate_suggests_a_known_one():
    memory = WorkingMemory()
    memory.add(typed("father_of(joshua, don)."))
    with pytest.raises(UserError) as caught:
        memory.ask(parse_query("fathr_of(joshua, X)"))
    assert "fathr_of" in caught.value.message
    assert caught.value.hint == "did you mean father_of/2?"


def test_asking_a_ground_query_answers_with_a_truth_value():
    memory = WorkingMemory()
    memory.add(typed("frog(gary). ~green(gary). frog(fred).\nsmall(X) :- frog(X)."))
    assert memory.ask(parse_query("small(fred)")).truth == TRUE
    assert memory.ask(parse_query("green(gary)"), open_world=True).truth == FALSE
    assert memory.ask(parse_query("green(fred)"), open_world=True).truth == UNKNOWN
    assert memory.ask(parse_query("green(fred)")).truth == FALSE
    assert memory.ask(parse_query("small(fred), not green(fred)")).truth == TRUE


def test_forgetting_facts_by_pattern_retracts_what_was_derived_from_them():
    memory = WorkingMemory()
    memory.add(typed("""
        parent_of(ann, bob). parent_of(ann, cy). parent_of(dan, ann).
        ancestor(X, Y) :- parent_of(X, Y).
        ancestor(X, Z) :- parent_of(X, Y), ancestor(Y, Z).
    """))
    assert memory.ask(parse_query("ancestor(dan, cy)")).truth == TRUE
    found = memory.matching(parse_atom("parent_of(ann, _)"))
    assert sorted(it.text for it in found) == ["parent_of(ann, bob).", "parent_of(ann, cy)."]
    removed = memory.remove(it.id for it in found)
    assert len(removed) == 2
    assert memory.ask(parse_query("ancestor(dan, cy)")).truth == FALSE
    assert memory.ask(parse_query("ancestor(X, Y)")).bindings == [{"X": "dan", "Y": "ann"}]


def test_a_pattern_with_a_repeated_variable_matches_consistently():
    memory = WorkingMemory()
    memory.add(typed("likes(ann, ann). likes(ann, bob)."))
    assert [it.text for it in memory.matching(parse_atom("likes(X, X)"))] == ["likes(ann, ann)."]


def test_why_explains_a_derived_fact():
    memory = WorkingMemory()
    memory.add(typed(CHAIN))
    tree = memory.why(atom("path(a, d)"))
    assert tree.status == DERIVED and tree.step == 3
    assert tree.to_dict()["premises"][1] == {"literal": "edge(c, d)", "status": ASSERTED}
