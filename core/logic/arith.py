"""Arithmetic as SWI-Prolog evaluates it, over the language's numbers: exact integers of any size
(up to MAX_DIGITS digits), floats as IEEE doubles. Expressions are compiled once per plan into
functions from a binding row to a number; a bad value (an atom, a division by zero, a result too
large) raises one UserError naming the literal, at the row that meets it.

A number is its value (see parser.py): a whole float result is the integer it equals, so
`X is 3.0` and `X is 3` bind the same constant, and `p(6 / 2)`'s value is 3, stored as `3`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from sym.core.errors import UserError
from sym.core.logic.terms import Arith, Eval, Is, Var, format_term

Row = tuple[Any, ...]
Number = int | float
Value = Callable[[Row], Number]

MAX_DIGITS = 4300                       # as the parser's: Python's own limit for int <-> text
MAX_BITS = int(MAX_DIGITS * 3.3219280948873626)   # bits of the largest integer allowed


class ArithmeticProblem(Exception):
    """A value arithmetic cannot take or give (caught and named by `evaluator`'s caller)."""


def number(value: Any, what: str) -> Number:
    """`value` as a number, or ArithmeticProblem saying what it is instead."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArithmeticProblem(f"{what} is {format_term(value)}, not a number")
    return value


def normal(value: Number) -> Number:
    """A computed number as the language stores it: whole floats are integers; too large, or
    not finite, is a problem."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ArithmeticProblem("the result is out of range (not a finite number)")
        if value.is_integer():
            return int(value)
        return value
    if value.bit_length() > MAX_BITS:
        raise ArithmeticProblem(f"the result has more than {MAX_DIGITS} digits")
    return value


def _ints(op: str, a: Number, b: Number) -> tuple[int, int]:
    if not isinstance(a, int) or not isinstance(b, int):
        raise ArithmeticProblem(f"{op} takes integers (got {format_term(a)} and {format_term(b)})")
    return a, b


def _nonzero(b: Number) -> None:
    if b == 0:
        raise ArithmeticProblem("division by zero")


def _divide(a: Number, b: Number) -> Number:
    _nonzero(b)
    if isinstance(a, int) and isinstance(b, int) and a % b == 0:
        return a // b
    try:
        return a / b
    except OverflowError:
        raise ArithmeticProblem("the result is out of range") from None


def _int_div(a: Number, b: Number) -> int:
    x, y = _ints("//", a, b)
    _nonzero(y)
    q = abs(x) // abs(y)               # truncated toward zero, as SWI-Prolog's //
    return q if (x >= 0) == (y >= 0) else -q


def _mod(a: Number, b: Number) -> int:
    x, y = _ints("mod", a, b)
    _nonzero(y)
    return x % y                       # the sign of the divisor, as SWI-Prolog's mod


def _rem(a: Number, b: Number) -> int:
    x, y = _ints("rem", a, b)
    _nonzero(y)
    return x - y * _int_div(x, y)


def _float_power(a: Number, b: Number) -> Number:
    """`**`: as `^` on integers, but a negative integer power is a float (2 ** -1 is 0.5)."""
    if isinstance(a, int) and isinstance(b, int) and b < 0 and a not in (1, -1):
        return _power(float(a), b)
    return _power(a, b)


def _power(a: Number, b: Number) -> Number:
    if isinstance(a, int) and isinstance(b, int):
        if b < 0:
            if a in (1, -1):
                return 1 if a == 1 or b % 2 == 0 else -1
            raise ArithmeticProblem("an integer to a negative integer power is not an integer (write 2 ** -1)")
        if a not in (0, 1, -1) and b * max(1, abs(a).bit_length() - 1) > MAX_BITS:
            raise ArithmeticProblem(f"the result has more than {MAX_DIGITS} digits")
        whole: int = a ** b
        return whole
    try:
        result: float | complex = float(a) ** float(b)
    except (OverflowError, ZeroDivisionError):
        raise ArithmeticProblem("the result is out of range") from None
    if isinstance(result, complex):
        raise ArithmeticProblem("the result is not a real number")
    return result


def _sign(a: Number) -> Number:
    return (a > 0) - (a < 0) if isinstance(a, int) else math.copysign(1.0, a) if a else 0.0


OPERATIONS: dict[tuple[str, int], Callable[..., Number]] = {
    ("+", 2): lambda a, b: a + b,
    ("-", 2): lambda a, b: a - b,
    ("*", 2): lambda a, b: a * b,
    ("/", 2): _divide,
    ("//", 2): _int_div,
    ("mod", 2): _mod,
    ("rem", 2): _rem,
    ("**", 2): _float_power,
    ("^", 2): _power,
    ("-", 1): lambda a: -a,
    ("abs", 1): abs,
    ("sign", 1): _sign,
    ("min", 2): lambda a, b: b if b < a else a,
    ("max", 2): lambda a, b: b if b > a else a,
}


def compile_expr(expr: Any, slot: Callable[[Var], int]) -> Value:
    """A function from a row to the expression's value; `slot` gives a bound variable's place."""
    if isinstance(expr, Var):
        i, name = slot(expr), expr.name
        return lambda row: number(row[i], name)
    if not isinstance(expr, Arith):
        value = expr
        return lambda row: number(value, format_term(value))
    fn = OPERATIONS[(expr.op, len(expr.args))]
    parts = [compile_expr(a, slot) for a in expr.args]
    if len(parts) == 1:
        (only,) = parts
        return lambda row: normal(fn(only(row)))
    first, second = parts
    return lambda row: normal(fn(first(row), second(row)))


def failed(literal: object, problem: ArithmeticProblem) -> UserError:
    """The one line a problem in evaluating `literal` becomes."""
    return UserError(f"cannot evaluate {literal}: {problem}",
                     hint="arithmetic takes numbers bound by the atoms before it; nothing was changed")


def guarded(literal: object, fn: Callable[[Row], Any]) -> Callable[[Row], Any]:
    """`fn` with its ArithmeticProblem turned into the literal's UserError."""
    def run(row: Row) -> Any:
        try:
            return fn(row)
        except ArithmeticProblem as problem:
            raise failed(literal, problem) from None
    return run


def is_value(lit: Is, slots: dict[Var, int]) -> Value:
    """`X is E` with X unbound: the function from a row to E's value."""
    return guarded(lit, compile_expr(lit.expr, slots.__getitem__))


def is_test(lit: Is, slots: dict[Var, int]) -> Callable[[Row], bool]:
    """`X is E` with X bound (or a number): whether X is E's value."""
    value = is_value(lit, slots)
    target = lit.target
    if isinstance(target, Var):
        i = slots[target]
        return lambda row: _same(row[i], value(row))
    return lambda row: _same(target, value(row))


def _same(a: Any, b: Number) -> bool:
    return not isinstance(a, (str, bool)) and a == b


def eval_test(lit: Eval, slots: dict[Var, int]) -> Callable[[Row], bool]:
    """An arithmetic comparison as a test of a row."""
    left = compile_expr(lit.left, slots.__getitem__)
    right = compile_expr(lit.right, slots.__getitem__)
    test = compare_numbers(lit.op)
    return guarded(lit, lambda row: test(left(row), right(row)))


def compare_numbers(op: str) -> Callable[[Number, Number], bool]:
    return {
        "=:=": lambda a, b: a == b,
        "=\\=": lambda a, b: a != b,
        "<": lambda a, b: a < b,
        ">": lambda a, b: a > b,
        "=<": lambda a, b: a <= b,
        ">=": lambda a, b: a >= b,
    }[op]
