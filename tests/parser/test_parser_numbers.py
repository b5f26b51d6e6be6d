"""The language's arithmetic and aggregates as SWI-Prolog reads them: operator priorities, printing
that reads back, and refusals with their line, column and a hint."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sym.core.errors import ParseError
from sym.core.logic.parser import parse_program, parse_query
from sym.core.logic.terms import Aggregate, Arith, Compare, Eval, Is, Var


def body(text: str):
    """The literals of `text`, read after an atom that binds the variables they use."""
    return parse_query(f"v(X, Y, P, A), {text}").body[1:]


def test_operators_bind_by_swi_prolog_priorities():
    (lit,) = body("X is 1 + 2 * 3 - 4 / 5")
    assert lit.expr == Arith("-", (Arith("+", (1, Arith("*", (2, 3)))), Arith("/", (4, 5))))
    assert body("X is 2 - 3 - 4")[0].expr == Arith("-", (Arith("-", (2, 3)), 4))       # left to right
    assert body("X is 2 ^ 3 ^ 2")[0].expr == Arith("^", (2, Arith("^", (3, 2))))       # right to left
    assert body("X is 7 mod 3 * 2")[0].expr == Arith("*", (Arith("mod", (7, 3)), 2))
    assert body("X is -Y + 1")[0].expr == Arith("+", (Arith("-", (Var("Y"),)), 1))
    assert body("X is Y-1")[0].expr == Arith("-", (Var("Y"), 1))                       # no space: still minus


def test_comparisons_of_terms_and_of_values_are_told_apart():
    assert body("X < Y")[0] == Compare("<", Var("X"), Var("Y"))
    assert body("X + 1 < Y")[0] == Eval("<", Arith("+", (Var("X"), 1)), Var("Y"))
    assert body("X =:= Y")[0] == Eval("=:=", Var("X"), Var("Y"))
    assert body("abs(X) =\\= 2")[0] == Eval("=\\=", Arith("abs", (Var("X"),)), 2)
    assert isinstance(body("N is max(X, 3)")[0], Is)


def test_an_aggregate_reads_its_spec_goal_and_result():
    (agg,) = parse_query("aggregate_all(max(A, P), (age(P, A), A < 40), max(M, W))").body
    assert isinstance(agg, Aggregate) and agg.op == "max" and agg.witness == Var("P")
    assert len(agg.goal) == 2 and agg.result == Var("M") and agg.found == Var("W")


def test_names_that_are_operators_elsewhere_stay_names_in_atoms():
    (rule,) = [it.clause for it in parse_program("p(is, mod, max, rem) :- q(mod), r(is).")]
    assert rule.head.args == ("is", "mod", "max", "rem")


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("p(X) :- q(X),\n    N is bob + 1.", 2, 10, ["bob is not a number"]),
    ("p(X) :- q(X), r(X + 1).", 1, None, ["X + 1 is an expression", "Y is X + 1"]),
    ("p(Y) :- q(X), Y = X * 2.", 1, 15, ["= compares terms", "is"]),
    ("p(N) :- q(X), N is floor(X).", 1, 20, ["floor/1 is not an arithmetic function"]),
    ("p(N) :- q(X), N is Z + 1.", 1, None, ["variable Z", "never bound"]),
    ("p(N) :- aggregate_all(bag(X), q(X), N).", 1, 23, ["bag(X) is not an aggregate"]),
])
def test_a_refusal_names_the_place_and_the_fix(text, line, column, words):
    with pytest.raises(ParseError) as err:
        parse_program(text)
    assert err.value.line == line and (column is None or err.value.column == column), (err.value.line, err.value.column)
    assert all(w in str(err.value) for w in words), str(err.value)


def expressions():
    leaves = st.one_of(st.integers(-50, 50), st.sampled_from([Var("X"), Var("Y")]),
                       st.sampled_from([0.5, 2.25, -1.5]))
    ops = ["+", "-", "*", "/", "//", "mod", "rem", "**", "^"]

    def extend(children):
        binary = st.tuples(st.sampled_from(ops), children, children).map(lambda t: Arith(t[0], (t[1], t[2])))
        unary = children.map(lambda c: Arith("-", (c,)) if not isinstance(c, (int, float)) else c)
        calls = st.tuples(st.sampled_from(["min", "max"]), children, children).map(lambda t: Arith(t[0], (t[1], t[2])))
        return st.one_of(binary, unary, calls, children.map(lambda c: Arith("abs", (c,))))
    return st.recursive(leaves, extend, max_leaves=8)


@given(expressions())
@settings(max_examples=300, deadline=None)
def test_a_printed_expression_reads_back_as_the_same_expression(expr):
    lit = Is(Var("N"), expr)
    (read,) = parse_query(f"p(X, Y), {lit}").body[1:]
    assert read == lit, (str(lit), str(read))
