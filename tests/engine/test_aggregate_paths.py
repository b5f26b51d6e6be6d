"""An aggregate over one atom is reduced from the relation's index buckets, or for many groups in
one pass over the relation: on random facts both give exactly what the general path (the goal's
plan run into rows, grouped) gives, values, types, and the line a bad value stops with."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.errors import UserError
from sym.core.logic import aggregate
from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_program, parse_query

QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

GROUPS = ["a", "b", "c", "d"]
# (rule, whole query, point query): goals an index bucket answers, and some it does not
RULES = [
    ("r(G, N) :- group(G), aggregate_all(count, item(G, _, _), N).", "r(G, N)", "r(b, N)"),
    ("r(G, S) :- group(G), aggregate_all(sum(V), item(G, _, V), S).", "r(G, S)", "r(a, S)"),
    ("r(G, S) :- group(G), aggregate_all(sum(V * 2 - X), item(G, X, V), S).", "r(G, S)", "r(c, S)"),
    ("r(G, M) :- group(G), aggregate_all(max(V), item(G, _, V), M).", "r(G, M)", "r(a, M)"),
    ("r(G, M) :- group(G), aggregate_all(min(V), item(G, _, V), M).", "r(G, M)", "r(d, M)"),
    ("r(G, M, W) :- group(G), aggregate_all(max(V, X), item(G, X, V), max(M, W)).", "r(G, M, W)", "r(b, M, W)"),
    ("r(G, M, W) :- group(G), aggregate_all(min(V, X), item(G, X, V), min(M, W)).", "r(G, M, W)", "r(a, M, W)"),
    ("r(G, N) :- group(G), aggregate_all(count, item(G, 1, _), N).", "r(G, N)", "r(a, N)"),
    ("r(G, S) :- group(G), aggregate_all(sum(V), item(G, 2, V), S).", "r(G, S)", "r(b, S)"),
    ("r(G, N) :- group(G), aggregate_all(count, item(G, V, V), N).", "r(G, N)", "r(c, N)"),
    ("r(G, X, S) :- pair(G, X), aggregate_all(sum(V), item(G, X, V), S).", "r(G, X, S)", "r(a, 1, S)"),
    ("r(G, X, N) :- pair(G, X), aggregate_all(count, item(G, X, _), N).", "r(G, X, N)", "r(b, 2, N)"),
    ("r(N) :- aggregate_all(count, item(_, _, _), N).", "r(N)", "r(N)"),
    ("r(S) :- aggregate_all(sum(V), item(_, _, V), S).", "r(S)", "r(S)"),
    ("r(G, N) :- group(G), aggregate_all(count, derived(G, _), N).", "r(G, N)", "r(a, N)"),
    ("r(G, S) :- group(G), aggregate_all(sum(V), derived(G, V), S).", "r(G, S)", "r(d, S)"),
    ("r(G, X, S) :- pair(G, X), aggregate_all(sum(X + V), item(G, _, V), S).", "r(G, X, S)", "r(b, 1, S)"),
    ("r(G, N) :- group(G), aggregate_all(count, (item(G, X, _), item(G, _, X)), N).", "r(G, N)", "r(a, N)"),
    ("r(G) :- group(G), aggregate_all(sum(V), item(G, 1, V), 6).", "r(G)", "r(a)"),
]
DERIVED = "derived(G, V) :- item(G, X, V), X >= 1.\n"

ints = st.integers(-5, 9)
values = st.one_of(ints, ints, ints, st.sampled_from([0.5, 0.1, 2.25, -1.5, 10**30]), st.just("x"))
items = st.lists(st.tuples(st.sampled_from(GROUPS), st.integers(0, 3), values), max_size=40)


def program(facts: list[tuple[str, int, object]], rule: str) -> str:
    lines = [f"group({g})." for g in GROUPS[:3]]     # d has no group/1 fact: never asked for
    lines += [f"pair({g}, {x})." for g in GROUPS for x in (1, 2)]
    lines += [f"item({g}, {x}, {v})." for g, x, v in facts]
    return "\n".join(lines) + "\n" + DERIVED + rule + "\n"


def outcome(text: str, query: str, *, fast: bool, scan_from: int, goal_directed: bool) -> object:
    """The answers, each value with its type (3 and 3.0 differ), or the line the query stops with."""
    old = aggregate.FAST_PATH, aggregate.SCAN_FROM
    aggregate.FAST_PATH, aggregate.SCAN_FROM = fast, scan_from
    try:
        e = Engine(goal_directed=goal_directed)
        e.add_program([it.clause for it in parse_program(text)])
        try:
            found = e.solve(parse_query(f"?- {query}."))
        except UserError as problem:
            return ("stopped", str(problem))
        return sorted((tuple((type(x).__name__, x) for x in b.values()) for b in found), key=repr)
    finally:
        aggregate.FAST_PATH, aggregate.SCAN_FROM = old


@QUICK
@given(facts=items, which=st.integers(0, len(RULES) - 1), point=st.booleans(), goal_directed=st.booleans())
def test_the_fast_paths_give_what_the_general_path_gives(facts, which, point, goal_directed):
    rule, whole, one = RULES[which]
    text, query = program(facts, rule), one if point else whole
    general = outcome(text, query, fast=False, scan_from=1, goal_directed=goal_directed)
    buckets = outcome(text, query, fast=True, scan_from=10**9, goal_directed=goal_directed)
    scanned = outcome(text, query, fast=True, scan_from=1, goal_directed=goal_directed)
    assert buckets == general
    assert scanned == general


@pytest.mark.parametrize("fast", [True, False])
def test_a_grouped_count_and_sum_count_nothing_as_zero_and_max_fails(fast):
    facts = [("a", 1, 3), ("a", 2, 4), ("b", 1, 5)]
    assert outcome(program(facts, RULES[0][0]), "r(G, N)", fast=fast, scan_from=1, goal_directed=True) == [
        (("str", "a"), ("int", 2)), (("str", "b"), ("int", 1)), (("str", "c"), ("int", 0))]
    assert outcome(program(facts, RULES[1][0]), "r(G, S)", fast=fast, scan_from=1, goal_directed=False) == [
        (("str", "a"), ("int", 7)), (("str", "b"), ("int", 5)), (("str", "c"), ("int", 0))]
    assert outcome(program(facts, RULES[3][0]), "r(c, M)", fast=fast, scan_from=1, goal_directed=True) == []


def test_an_atom_among_the_summed_values_stops_with_the_general_line():
    facts = [("a", 1, 3), ("b", 1, "x")]
    stopped = outcome(program(facts, RULES[1][0]), "r(G, S)", fast=True, scan_from=1, goal_directed=False)
    assert stopped[0] == "stopped"
    assert str(stopped[1]).startswith("cannot evaluate aggregate_all(sum(V), item(G, _, V), S): V is x, not a number")


@pytest.mark.parametrize("which", [0, 1, 3, 5, 7, 9, 10, 12, 14])
def test_a_goal_of_one_atom_never_runs_the_general_path(which, monkeypatch):
    def general(*args):
        raise AssertionError("the general path ran")

    monkeypatch.setattr(aggregate, "_through_plan", general)
    rule, whole, one = RULES[which]
    for scan_from in (1, 10**9):
        assert outcome(program([("a", 1, 3), ("b", 2, 4)], rule), whole, fast=True, scan_from=scan_from,
                       goal_directed=False)[0] != "stopped"
