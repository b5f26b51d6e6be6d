"""What a body goal read as a Prolog term is: an atom, `not`, a comparison, `is`, an arithmetic
comparison or an aggregate. The grammar reads a body as terms with SWI-Prolog's operators
(so `(X + 1) * 2 > Y` and `aggregate_all(count, (p(X), q(X)), N)` parse without conflicts);
this room turns each into one literal, or one ParseError at the place that is not one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sym.core.errors import ParseError
from sym.core.logic.terms import (
    AGGREGATES,
    ARITH_COMPARISONS,
    FAIL_GOAL,
    FUNCTIONS,
    TRUE_GOAL,
    Aggregate,
    Arith,
    Atom,
    Compare,
    Eval,
    Is,
    Naf,
    Var,
    format_expr,
)

# the built-in goals, as a body atom reads them (`false` in a body is `fail`, as in SWI-Prolog)
GOALS = {Atom("true"): TRUE_GOAL, Atom("fail"): FAIL_GOAL}
COMPUTE_HINT = "compute the value first and pass the variable: Y is X + 1, p(Y)"


@dataclass(frozen=True)
class Where:
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class Compound:
    """`name(args…)` or a bare name (`args` empty), as read; `neg` for `~name(…)`."""

    name: str
    args: tuple[Any, ...]
    neg: bool
    at: Where


@dataclass(frozen=True)
class Paren:
    """`( goal, … )`: a parenthesised expression (one item) or conjunction (several)."""

    items: tuple[Any, ...]
    at: Where


class FalseWord:
    """The keyword `false` where a term or goal goes: the goal fail, or the atom false."""


FALSE_WORD = FalseWord()


def fail(message: str, at: Where | None, hint: str | None = None) -> ParseError:
    at = at or Where()
    return ParseError(message, line=at.line, column=at.column, hint=hint)


def _where(raw: Any) -> Where | None:
    return raw.at if isinstance(raw, (Compound, Paren)) else None


def shown(raw: Any) -> str:
    """A read term as the user wrote it (near enough for a message)."""
    if isinstance(raw, Compound):
        head = ("~" if raw.neg else "") + raw.name
        return f"{head}({', '.join(shown(a) for a in raw.args)})" if raw.args else head
    if isinstance(raw, Paren):
        return f"({', '.join(shown(a) for a in raw.items)})"
    if raw is FALSE_WORD:
        return "false"
    if isinstance(raw, (Arith, Var, int, float, str)):
        return format_expr(raw)
    return str(raw)


def term(raw: Any) -> Any:
    """An argument: a constant or a variable (no function symbols, no arithmetic)."""
    if isinstance(raw, (Var, int, float)) and not isinstance(raw, bool):
        return raw
    if raw is FALSE_WORD:
        return "false"
    if isinstance(raw, Compound) and not raw.args and not raw.neg:
        return raw.name
    if isinstance(raw, Paren) and len(raw.items) == 1:
        return term(raw.items[0])
    if isinstance(raw, Arith):
        raise fail(f"{shown(raw)} is an expression where a constant or variable goes", None, COMPUTE_HINT)
    raise fail(f"{shown(raw)} is not a constant or variable", _where(raw),
               "arguments must be constants or variables (no function symbols)")


def expr(raw: Any) -> Any:
    """An arithmetic expression: numbers, variables, operators and the functions abs, min, max, sign."""
    if isinstance(raw, (Var, Arith)) or (isinstance(raw, (int, float)) and not isinstance(raw, bool)):
        return raw
    if isinstance(raw, Paren) and len(raw.items) == 1:
        return expr(raw.items[0])
    if isinstance(raw, Compound) and raw.args and not raw.neg:
        arity = FUNCTIONS.get(raw.name)
        if arity == len(raw.args):
            return Arith(raw.name, tuple(expr(a) for a in raw.args))
        known = ", ".join(f"{f}/{n}" for f, n in FUNCTIONS.items())
        raise fail(f"{raw.name}/{len(raw.args)} is not an arithmetic function", raw.at,
                   f"arithmetic has + - * / // mod rem ** ^ and {known}")
    raise fail(f"{shown(raw)} is not a number", _where(raw),
               "arithmetic works on numbers and on variables bound to numbers")


def binary(left: Any, op: str, right: Any) -> Arith:
    return Arith(op, (expr(left), expr(right)))


def negative(raw: Any) -> Any:
    value = expr(raw)
    if isinstance(value, (int, float)):
        return -value
    return Arith("-", (value,))


def compare(left: Any, op: str, right: Any, at: Where) -> Compare | Eval:
    """`=`/`\\=` compare terms; `=:=`/`=\\=` numbers; `<` … compare terms, or numbers once either
    side computes."""
    computes = _computes(left) or _computes(right)
    if op in ("=", "\\=") and computes:
        raise fail(f"{op} compares terms, and {shown(left)} {op} {shown(right)} holds an expression", at,
                   "compute with is (X is Y + 1) or compare values with =:= and =\\=")
    if op in ARITH_COMPARISONS and (computes or op in ("=:=", "=\\=")):
        return Eval(op, expr(left), expr(right))
    return Compare(op, term(left), term(right))


def _computes(raw: Any) -> bool:
    """Whether a read term is arithmetic: an operator, or a call of an arithmetic function."""
    if isinstance(raw, Paren) and len(raw.items) == 1:
        return _computes(raw.items[0])
    return isinstance(raw, Arith) or (isinstance(raw, Compound) and bool(raw.args) and raw.name in FUNCTIONS)


def is_goal(left: Any, right: Any, at: Where) -> Is:
    target = term(left) if not isinstance(left, Arith) else None
    if target is None or isinstance(target, str):
        raise fail(f"the left side of is must be a variable or a number, not {shown(left)}", at,
                   "write the result variable first: N is X + 1")
    return Is(target, expr(right))


def naf(raw: Any, at: Where) -> Naf | Compare:
    inner = raw.items[0] if isinstance(raw, Paren) and len(raw.items) == 1 else raw
    if isinstance(inner, Paren):
        raise fail(f"not takes one atom, not {shown(raw)}", inner.at,
                   "negate an atom; for more, define it first: q(X) :- a(X), b(X). then not q(X)")
    lit = goal(inner)
    if lit == TRUE_GOAL:        # `\+ true` is `fail`, `\+ fail` is `true`
        return FAIL_GOAL
    if lit == FAIL_GOAL:
        return TRUE_GOAL
    if not isinstance(lit, Atom):
        raise fail(f"not takes one atom, not {shown(raw)}", _where(raw) or at,
                   "negate an atom; for more, define it first: q(X) :- a(X), b(X). then not q(X)")
    return Naf(lit)


def goals(raws: list[Any]) -> tuple[Any, ...]:
    """A body: its goals, a parenthesised conjunction read as its goals in place."""
    out: list[Any] = []
    for raw in raws:
        if isinstance(raw, Paren) and len(raw.items) > 1:
            out += goals(list(raw.items))
        else:
            out.append(goal(raw))
    return tuple(out)


def goal(raw: Any) -> Any:
    """One body goal."""
    if isinstance(raw, (Compare, Eval, Is, Naf, Aggregate)):
        return raw
    if raw is FALSE_WORD:
        return FAIL_GOAL
    if isinstance(raw, Paren):
        if len(raw.items) == 1:
            return goal(raw.items[0])
        raise fail(f"{shown(raw)} is a conjunction where one goal goes", raw.at)
    if isinstance(raw, Compound):
        if raw.name == "aggregate_all" and not raw.neg:
            return aggregate(raw)
        atom = Atom(raw.name, tuple(term(a) for a in raw.args), raw.neg)
        return GOALS.get(atom, atom)
    if isinstance(raw, Var):
        raise fail(f"variable {raw.name} cannot be a goal", None, "a goal is an atom such as p(X)")
    raise fail(f"{shown(raw)} is not a goal", None, "a goal is an atom such as p(X), a comparison, or N is Expr")


def aggregate(raw: Compound) -> Aggregate:
    """`aggregate_all(Spec, Goal, Result)`: count, sum(E), max(E), min(E), max(E, W), min(E, W)."""
    if len(raw.args) != 3:
        raise fail(f"aggregate_all takes 3 arguments, not {len(raw.args)}", raw.at,
                   "aggregate_all(count, p(X), N) or aggregate_all(sum(C), cost(_, C), Total)")
    spec, body, result = raw.args
    forms = "count, sum(E), max(E), min(E), max(E, W) or min(E, W)"
    if not isinstance(spec, Compound) or spec.neg or spec.name not in AGGREGATES:
        raise fail(f"{shown(spec)} is not an aggregate", _where(spec) or raw.at, f"aggregate_all takes {forms}")
    op, n = spec.name, len(spec.args)
    if (op == "count") != (n == 0) or n > 2 or (n == 2 and op not in ("max", "min")):
        raise fail(f"{shown(spec)} is not an aggregate", spec.at, f"aggregate_all takes {forms}")
    template = expr(spec.args[0]) if n else None
    witness = term(spec.args[1]) if n == 2 else None
    inner = goals(list(body.items)) if isinstance(body, Paren) else (goal(body),)
    found = None
    if witness is not None:
        if not (isinstance(result, Compound) and result.name == op and len(result.args) == 2 and not result.neg):
            raise fail(f"the result of {shown(spec)} is {op}(Value, Witness), not {shown(result)}",
                       _where(result) or raw.at, f"e.g. aggregate_all({op}(A, P), age(P, A), {op}(Age, Who))")
        value, found = term(result.args[0]), term(result.args[1])
    else:
        value = term(result)
    return Aggregate(op, template, witness, inner, value, found)
