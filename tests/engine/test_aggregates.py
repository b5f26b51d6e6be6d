"""aggregate_all as SWI-Prolog has it: count, sum, max, min and their witnesses, grouped by the
variables bound before it, stratified, explained by /why, and the same goal-directed or whole."""

from __future__ import annotations

import pytest

from sym.core.errors import ParseError, StratificationError
from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_program, parse_query
from sym.repl.render import to_text

FAMILY = """
person(ann). person(bob). person(cy). person(dan).
parent_of(ann, bob). parent_of(ann, cy). parent_of(bob, dan).
age(ann, 60). age(bob, 35). age(cy, 30). age(dan, 5).
cost(a, 10). cost(b, 2.5). cost(c, 7).
"""


def engine(text: str, *, goal_directed: bool = True) -> Engine:
    e = Engine(goal_directed=goal_directed)
    e.add_program([it.clause for it in parse_program(FAMILY + text)])
    return e


def answers(e: Engine, query: str) -> list[dict[str, object]]:
    return [{v.name: x for v, x in b.items()} for b in e.solve(parse_query(query))]


@pytest.mark.parametrize("goal_directed", [True, False])
def test_count_groups_by_the_variables_bound_before_it_and_counts_nothing_as_zero(goal_directed):
    e = engine("children(P, N) :- person(P), aggregate_all(count, parent_of(P, _), N).", goal_directed=goal_directed)
    assert answers(e, "children(P, N)") == [{"P": "ann", "N": 2}, {"P": "bob", "N": 1},
                                            {"P": "cy", "N": 0}, {"P": "dan", "N": 0}]
    assert answers(e, "children(ann, N)") == [{"N": 2}]
    assert answers(e, "children(P, 2)") == [{"P": "ann"}]


def test_who_has_more_than_one_child():
    e = engine("children(P, N) :- person(P), aggregate_all(count, parent_of(P, _), N). "
               "many(P) :- children(P, N), N > 1.")
    assert answers(e, "many(P)") == [{"P": "ann"}]


def test_sum_max_min_and_their_empty_cases():
    e = engine("")
    assert answers(e, "aggregate_all(sum(C), cost(_, C), T)") == [{"T": 19.5}]
    assert answers(e, "aggregate_all(max(A), age(_, A), M)") == [{"M": 60}]
    assert answers(e, "aggregate_all(min(A), age(_, A), M)") == [{"M": 5}]
    assert answers(e, "aggregate_all(count, age(nobody, _), N)") == [{"N": 0}]
    assert answers(e, "aggregate_all(sum(A), age(nobody, A), S)") == [{"S": 0}]
    assert answers(e, "aggregate_all(max(A), age(nobody, A), M)") == []
    assert answers(e, "aggregate_all(min(A), age(nobody, A), M)") == []


def test_a_witness_names_who_has_the_extreme_value_and_ties_take_the_least():
    e = engine("score(al, 3). score(bo, 7). score(cy, 7). score(di, 1).")
    assert answers(e, "aggregate_all(max(S, P), score(P, S), max(M, W))") == [{"M": 7, "W": "bo"}]
    assert answers(e, "aggregate_all(min(S, P), score(P, S), min(M, W))") == [{"M": 1, "W": "di"}]
    assert answers(e, "aggregate_all(max(A, P), age(P, A), max(_, W))") == [{"W": "ann"}]


def test_a_conjunction_with_arithmetic_inside_an_aggregate():
    e = engine("")
    assert answers(e, "aggregate_all(count, (age(P, A), A < 40, A * 2 > 20), N)") == [{"N": 2}]
    assert answers(e, "aggregate_all(sum(A + 1), (parent_of(ann, C), age(C, A)), S)") == [{"S": 67}]


def test_a_bound_result_is_a_test():
    e = engine("")
    assert answers(e, "aggregate_all(count, person(_), 4)") == [{}]
    assert answers(e, "aggregate_all(count, person(_), 3)") == []


def test_an_aggregate_over_what_it_derives_is_refused_naming_the_cycle():
    e = Engine()
    with pytest.raises(StratificationError, match="aggregate"):
        e.add_program([it.clause for it in parse_program("p(a). p(N) :- aggregate_all(count, p(_), N).")])


@pytest.mark.parametrize(("text", "words"), [
    ("c(N, P) :- aggregate_all(count, parent_of(P, _), N), person(P).", ["reads P", "bound only after it"]),
    ("c(N) :- aggregate_all(count, p(N), N).", ["both inside the aggregate and its result"]),
    ("c(N) :- aggregate_all(avg(X), p(X), N).", ["avg(X) is not an aggregate"]),
    ("c(N) :- aggregate_all(sum(Y), p(X), N).", ["Y of sum(Y) is not bound"]),
    ("c(N) :- aggregate_all(max(X, W), p(X, W), N).", ["max(Value, Witness)"]),
    ("c(N) :- aggregate_all(count, p(X)).", ["3 arguments"]),
])
def test_a_malformed_aggregate_is_refused_in_one_line(text, words):
    with pytest.raises(ParseError) as err:
        parse_program(text)
    assert all(w in str(err.value) for w in words), str(err.value)


def test_aggregates_feed_arithmetic_and_other_rules():
    e = engine("total(T) :- aggregate_all(sum(C), cost(_, C), T). "
               "share(X, S) :- cost(X, C), total(T), S is C * 100 / T.")
    assert answers(e, "share(a, S)") == [{"S": 1000 / 19.5}]


def test_why_shows_the_value_and_the_facts_counted(sym):
    for line in FAMILY.strip().splitlines():
        sym(line)
    sym("children(P, N) :- person(P), aggregate_all(count, parent_of(P, _), N).")
    tree = sym("/why children(ann, 2)").trees[0]
    (agg,) = [c for c in tree.children if c.status == "aggregated"]
    assert agg.step == 2 and sorted(str(c.literal) for c in agg.children) == ["parent_of(ann, bob)", "parent_of(ann, cy)"]
    shown = to_text(sym("/why children(ann, 2)"))
    assert "aggregate_all(count, parent_of(ann, _), 2)  [aggregate of 2 solutions]" in shown


def test_why_shows_ten_solutions_and_how_many_more(sym):
    for i in range(25):
        sym(f"item(x, {i}).")
    sym("n(N) :- aggregate_all(count, item(x, _), N).")
    (agg,) = sym("/why n(25)").trees[0].children
    assert len(agg.children) == 11 and agg.children[-1].status == "more" and agg.children[-1].step == 15
