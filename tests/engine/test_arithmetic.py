"""Arithmetic in rules and queries: `is`, arithmetic comparisons and SWI-Prolog's operators, exact
integers, floats as written, one clear line for a value arithmetic cannot take, memory unchanged."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sym.core.errors import UserError
from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_program, parse_query
from tests.conftest import fails


def engine(text: str, *, goal_directed: bool = True) -> Engine:
    e = Engine(goal_directed=goal_directed)
    e.add_program([it.clause for it in parse_program(text)])
    return e


def answers(e: Engine, query: str) -> list[dict[str, object]]:
    return [{v.name: x for v, x in b.items()} for b in e.solve(parse_query(query))]


@pytest.mark.parametrize(("expr", "value"), [
    ("7 + 2 * 3", 13), ("(7 + 2) * 3", 27), ("7 - 2 - 3", 2), ("2 - (3 - 4)", 3),
    ("7 / 2", 3.5), ("6 / 3", 2), ("-7 // 2", -3), ("7 // -2", -3), ("-7 mod 2", 1), ("7 mod -2", -1),
    ("7 rem -2", 1), ("-7 rem 2", -1), ("2 ** 10", 1024), ("2 ^ 3 ^ 2", 512), ("2 ** -1", 0.5),
    ("abs(-4)", 4), ("min(3, 2.5)", 2.5), ("max(3, 2.5)", 3), ("sign(-3)", -1), ("-(3 - 5)", 2),
    ("2 ^ 200", 2 ** 200), ("0.1 + 0.2", 0.1 + 0.2), ("1.5 * 2", 3), ("10 - 0.5", 9.5),
])
def test_is_computes_as_swi_prolog_does(expr, value):
    (row,) = answers(Engine(), f"X is {expr}")
    assert row["X"] == value and type(row["X"]) is type(value)


def test_a_whole_float_is_the_integer_it_equals_so_a_computed_fact_meets_a_stored_one():
    e = engine("price(a, 3). half(X, H) :- price(X, P), H is P / 2. double(X, D) :- half(X, H), D is H * 2.")
    assert answers(e, "double(a, D)") == [{"D": 3}]
    assert e.truth(parse_query("double(a, 3)").body[0]) == "true"


def test_rules_compute_from_the_facts_bound_before_them_in_any_written_order():
    e = engine("age(ann, 60). age(bob, 35). parent(ann, bob). "
               "gap(X, Y, D) :- D is A - B, parent(X, Y), age(X, A), age(Y, B).")
    assert answers(e, "gap(X, Y, D)") == [{"X": "ann", "Y": "bob", "D": 25}]
    assert answers(e, "gap(ann, bob, 25)") == [{}]
    assert answers(e, "gap(ann, bob, 24)") == []


def test_arithmetic_comparisons_compare_values_and_mixed_numbers():
    e = engine("v(a, 1). v(b, 2.0). v(c, 2.5).")
    assert [r["X"] for r in answers(e, "v(X, N), N * 2 >= 4")] == ["b", "c"]
    assert [r["X"] for r in answers(e, "v(X, N), N =:= 2")] == ["b"]
    assert [r["X"] for r in answers(e, "v(X, N), N + 1 =\\= 2")] == ["b", "c"]


def test_a_bound_target_of_is_is_a_test():
    e = engine("n(3). n(4). ok(X) :- n(X), X is 1 + 2.")
    assert answers(e, "ok(X)") == [{"X": 3}]
    assert answers(e, "5 is 2 + 3") == [{}]
    assert answers(e, "6 is 2 + 3") == []


@pytest.mark.parametrize(("query", "words"), [
    ("n(X), Y is X / 0", ["division by zero", "Y is X / 0"]),
    ("w(X), Y is X + 1", ["X is bob, not a number"]),
    ("n(X), Y is X // 2.5", ["// takes integers"]),
    ("X is 10 ** 5000", ["more than 4300 digits"]),
    ("X is 10.5 ** 400", ["out of range"]),
    ("n(X), X mod 0 =:= 1", ["division by zero"]),
])
def test_a_value_arithmetic_cannot_take_is_one_line_at_query_time(query, words):
    e = engine("n(3). w(bob).")
    with pytest.raises(UserError) as err:
        answers(e, query)
    message = err.value.message
    assert "\n" not in message and all(w in message for w in words), message


def test_a_failed_query_leaves_memory_as_it_was(sym):
    sym("n(3).")
    before = sorted(sym.shell.memory.items)
    fails(sym("?- n(X), Y is X / 0."), "division by zero")
    assert sorted(sym.shell.memory.items) == before
    assert sym("?- n(X), Y is X + 1.").answer.bindings == [{"X": 3, "Y": 4}]


def test_recursion_through_arithmetic_stops_at_max_facts_with_one_line(sym):
    sym("/set max_facts 500")
    sym("n(0).")
    added = sym("n(Y) :- n(X), Y is X + 1.")
    assert any("computes new numbers through recursion" in w for w in added.warnings)
    assert not any("recursion" in w for w in sym("m(Y) :- n(X), Y is X + 1.").warnings)
    message = fails(sym("?- n(1000)."), "max_facts")
    assert "n/1" in message


def test_bounded_recursion_through_arithmetic_ends():
    e = engine("n(0). n(Y) :- n(X), X < 20, Y is X + 1. fib(0, 0). fib(1, 1). "
               "fib(N, F) :- fib(A, FA), N is A + 2, N =< 30, B is A + 1, fib(B, FB), F is FA + FB.")
    assert len(answers(e, "n(X)")) == 21
    assert answers(e, "fib(30, F)") == [{"F": 832040}]


@given(st.integers(-10**30, 10**30), st.integers(-10**30, 10**30).filter(lambda b: b != 0))
@settings(max_examples=200, deadline=None)
def test_integer_division_laws_hold_for_any_size(a, b):
    (row,) = answers(Engine(), f"Q is {a} // {b}, R is {a} rem {b}, M is {a} mod {b}")
    assert row["Q"] * b + row["R"] == a and abs(row["R"]) < abs(b)
    assert (row["M"] - a) % b == 0 and (row["M"] == 0 or (row["M"] > 0) == (b > 0))


def test_goal_directed_and_whole_model_answers_agree():
    text = ("e(a, 1). e(b, 5). e(c, 9). step(X, Y, Z) :- e(X, A), e(Y, B), Z is B - A, Z > 0. "
            "far(X, Y) :- step(X, Y, Z), Z >= 8.")
    for query in ("step(a, Y, Z)", "far(X, Y)", "far(a, c)", "step(X, Y, 4)"):
        assert answers(engine(text), query) == answers(engine(text, goal_directed=False), query)


def test_a_computed_value_is_never_asked_for_goal_directed():
    # Soufflé's magic_infbinding: asking gen(0) must not ask gen(1), gen(2), … without end
    text = "seed(3). valid(0). valid(1). valid(2). gen(X) :- seed(X). gen(X) :- gen(Y), valid(X), Y is X + 1. q :- gen(0)."
    e = engine(text)
    e.max_facts = 10_000
    assert answers(e, "q") == [{}] and answers(e, "gen(1)") == [{}]
    assert answers(e, "gen(X)") == answers(engine(text, goal_directed=False), "gen(X)")
