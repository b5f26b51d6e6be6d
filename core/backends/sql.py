"""SQL of one rule body (or query): joins of its atoms, its comparisons, arithmetic, `not` as
NOT EXISTS and aggregates as LATERAL subqueries, over tables a caller names.

Text is built only from the dialect's quoted generated names, column names `c<i>` and fixed
keywords; every constant travels as a `?` parameter (`Frag.params`, in text order). Where a literal
cannot match for its types (an atom compared with a number) the body is `None`: no rows, as the
native engine finds. Where it cannot be compiled exactly, `Refused` (one line).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sym.core.backends.executor import Dialect
from sym.core.backends.types import Refused, const_type, expr_type
from sym.core.logic.plan import compare_op
from sym.core.logic.terms import Aggregate, Arith, Atom, Compare, Eval, Is, Naf, Var, expr_variables


@dataclass(frozen=True)
class Frag:
    """A piece of SQL text with the parameters of its `?` markers, in order."""

    sql: str
    params: tuple[Any, ...] = ()


def cat(*parts: str | Frag) -> Frag:
    text: list[str] = []
    params: list[Any] = []
    for p in parts:
        if isinstance(p, Frag):
            text.append(p.sql)
            params.extend(p.params)
        else:
            text.append(p)
    return Frag("".join(text), tuple(params))


def join(parts: list[Frag], sep: str) -> Frag:
    out: list[str | Frag] = []
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.append(p)
    return cat(*out)


class Empty(Exception):
    """The body has no rows whatever the facts (a type mismatch with a constant, a false test)."""


# (key, literal index in the body or None) -> a FROM item; the index lets a semi-naive round
# read one atom from its delta table
Source = Callable[[str, int | None], Frag]
SQL_OPS = {"=": "=", "\\=": "<>", "<": "<", ">": ">", "=<": "<=", ">=": ">=", "=:=": "=", "=\\=": "<>"}


@dataclass
class Body:
    froms: list[Frag] = field(default_factory=list)     # each with its alias, the first without a comma
    wheres: list[Frag] = field(default_factory=list)
    vars: dict[Var, Frag] = field(default_factory=dict)

    def clauses(self) -> Frag:
        """` FROM … WHERE …` (either may be missing)."""
        parts: list[str | Frag] = []
        if self.froms:
            parts += [" FROM ", self.froms[0]]
            for f in self.froms[1:]:
                parts += [", ", f]
        if self.wheres:
            parts += [" WHERE ", join(self.wheres, " AND ")]
        return cat(*parts)


class Compiler:
    """Compiles bodies for one dialect; `var_type(var)` gives a variable's logical type, `column_type`
    a relation column's."""

    def __init__(self, dialect: Dialect, source: Source, var_type: Callable[[Var], str],
                 column_type: Callable[[str, int], str]) -> None:
        self.dialect, self.source, self.column_type = dialect, source, column_type
        self._var_type = var_type
        self.dynamic: dict[Var, str] | None = None   # a query's variables: typed by what binds them
        self._aliases = 0

    def var_type(self, var: Var) -> str:
        if self.dynamic is not None:
            return self.dynamic.get(var, "int")
        return self._var_type(var)

    def typed(self, var: Var, logical: str) -> None:
        if self.dynamic is not None:
            self.dynamic.setdefault(var, logical)

    def alias(self, prefix: str) -> str:
        self._aliases += 1
        return f"{prefix}{self._aliases}"

    def param(self, value: Any, logical: str | None = None) -> Frag:
        logical = logical or const_type(value)
        return Frag(f"CAST(? AS {self.dialect.type_of(logical)})", (value,))

    # -- bodies ------------------------------------------------------------------

    def body(self, literals: tuple[Any, ...], *, bound: dict[Var, Frag] | None = None,
             delta_at: int | None = None) -> Body:
        """The body's FROM and WHERE and its variables' SQL; raises Empty or Refused."""
        out = Body(vars=dict(bound or {}))
        pending: list[Any] = []
        for i, lit in enumerate(literals):
            if isinstance(lit, Atom):
                self._atom(out, lit, self.source(lit.key, i if delta_at == i else None))
            else:
                pending.append(lit)
        progress = True
        while progress:
            progress = False
            for lit in list(pending):
                if not isinstance(lit, Naf) and self._place(out, lit, literals):
                    pending.remove(lit)
                    progress = True
        for lit in pending:
            if not isinstance(lit, Naf):
                unbound = [v.name for v in lit.variables() if v not in out.vars]
                raise Refused(f"{lit} cannot be evaluated: {', '.join(unbound) or 'a variable'} is not bound before it")
            self._naf(out, lit)
        return out

    def _atom(self, out: Body, atom: Atom, source: Frag) -> None:
        alias = self.alias("a")
        out.froms.append(cat(source, f" AS {alias}"))
        for i, arg in enumerate(atom.args):
            col = Frag(f"{alias}.c{i}")
            if isinstance(arg, Var):
                if arg in out.vars:
                    if (self.var_type(arg) == "str") != (self.column_type(atom.key, i) == "str"):
                        raise Empty()     # a number never equals an atom
                    out.wheres.append(cat(col, " = ", out.vars[arg]))
                else:
                    out.vars[arg] = col
                    self.typed(arg, self.column_type(atom.key, i))
            else:
                self._const_test(out, col, self.column_type(atom.key, i), arg)

    def _const_test(self, out: Body, col: Frag, logical: str, value: Any) -> None:
        if (logical == "str") != isinstance(value, str):
            raise Empty()
        out.wheres.append(cat(col, " = ", self.param(value, logical)))

    def _place(self, out: Body, lit: Any, literals: tuple[Any, ...]) -> bool:
        bound = out.vars
        if isinstance(lit, Is):
            if not all(v in bound for v in expr_variables(lit.expr)):
                return False
            value, logical = self.expr(lit.expr, bound, lit)
            target = lit.target
            if isinstance(target, Var) and target not in bound:
                bound[target] = value
                self.typed(target, logical)
            elif isinstance(target, Var):
                if self.var_type(target) == "str":
                    raise Empty()
                out.wheres.append(cat(bound[target], " = ", value))
            else:
                out.wheres.append(cat(value, " = ", self.param(target)))
            return True
        if isinstance(lit, Eval):
            if not all(v in bound for v in lit.variables()):
                return False
            left, _ = self.expr(lit.left, bound, lit)
            right, _ = self.expr(lit.right, bound, lit)
            out.wheres.append(cat("(", left, f" {SQL_OPS[lit.op]} ", right, ")"))
            return True
        if isinstance(lit, Compare):
            return self._compare(out, lit)
        assert isinstance(lit, Aggregate)
        if not all(v in bound for v in lit.outer(list(literals))):
            return False
        self._aggregate(out, lit, literals)
        return True

    def _term(self, term: Any, bound: dict[Var, Frag]) -> tuple[Frag, str] | None:
        if isinstance(term, Var):
            return (bound[term], self.var_type(term)) if term in bound else None
        return self.param(term), const_type(term)

    def _compare(self, out: Body, lit: Compare) -> bool:
        left, right = lit.left, lit.right
        if not isinstance(left, Var) and not isinstance(right, Var):
            if not compare_op(lit.op)(left, right):
                raise Empty()
            return True
        lt, rt = self._term(left, out.vars), self._term(right, out.vars)
        if lit.op == "=" and (lt is None) != (rt is None):
            var, known = (left, rt) if lt is None else (right, lt)
            assert isinstance(var, Var) and known is not None
            if (self.var_type(var) == "str") != (known[1] == "str"):
                raise Empty()
            out.vars[var] = known[0]
            self.typed(var, known[1])
            return True
        if lt is None or rt is None:
            return False
        if (lt[1] == "str") != (rt[1] == "str"):      # an atom and a number: equal never, ordered never
            if lit.op == "\\=":
                return True
            raise Empty()
        out.wheres.append(cat("(", lt[0], f" {SQL_OPS[lit.op]} ", rt[0], ")"))
        return True

    def _naf(self, out: Body, lit: Naf) -> None:
        inner = Body(vars=dict(out.vars))
        try:
            self._atom(inner, lit.atom, self.source(lit.atom.key, None))
        except Empty:
            return      # the atom can never hold: `not` of it always does
        out.wheres.append(cat("NOT EXISTS (SELECT 1", inner.clauses(), ")"))

    # -- aggregates --------------------------------------------------------------

    def _aggregate(self, out: Body, agg: Aggregate, literals: tuple[Any, ...]) -> None:
        outer = agg.outer(list(literals))
        alias = self.alias("g")
        try:
            goal = self.body(agg.goal, bound={v: out.vars[v] for v in outer})
        except Empty:
            goal = None
        locals_ = [v for v in goal.vars if v not in outer] if goal is not None else []
        inner_vars = {v: Frag(f"s.v{i}") for i, v in enumerate(locals_)}
        inner_vars.update({v: out.vars[v] for v in outer})
        if goal is None:
            solutions = Frag("(SELECT 1 AS one WHERE FALSE)")
        else:
            cols = [cat(goal.vars[v], f" AS v{i}") for i, v in enumerate(locals_)] or [Frag("1 AS one")]
            solutions = cat("(SELECT DISTINCT ", join(cols, ", "), goal.clauses(), ")")
        if agg.op == "count":
            sub = cat("SELECT count(*) AS v FROM ", solutions, " AS s")
        else:
            value, logical = self.expr(agg.template, inner_vars, agg)
            if agg.op == "sum":
                sub = cat("SELECT CAST(COALESCE(sum(", value, "), 0) AS ", self.dialect.type_of(logical),
                          ") AS v FROM ", solutions, " AS s")
            else:
                order = "DESC" if agg.op == "max" else "ASC"
                picks: list[str | Frag] = ["SELECT ", value, " AS v"]
                orders = f" ORDER BY v {order}"
                if agg.witness is not None:
                    witness = self._term(agg.witness, inner_vars)
                    if witness is None:
                        raise Refused(f"{agg}: the witness {agg.witness} is not bound by the goal")
                    picks += [", ", witness[0], " AS w"]
                    orders += ", w ASC"
                sub = cat(*picks, " FROM ", solutions, " AS s", orders, " LIMIT 1")
        out.froms.append(cat("LATERAL (", sub, f") AS {alias}") if out.froms else cat("(", sub, f") AS {alias}"))
        value_type = "int" if agg.op == "count" else expr_type(agg.template, self.var_type)
        results = [(agg.result, Frag(f"{alias}.v"), value_type)]
        if agg.found is not None:
            witness_type = self.var_type(agg.witness) if isinstance(agg.witness, Var) else const_type(agg.witness)
            results.append((agg.found, Frag(f"{alias}.w"), witness_type))
        for term, col, logical in results:
            if isinstance(term, Var) and term not in out.vars:
                out.vars[term] = col
                self.typed(term, logical)
            elif isinstance(term, Var):
                out.wheres.append(cat(col, " = ", out.vars[term]))
            else:
                out.wheres.append(cat(col, " = ", self.param(term)))

    # -- arithmetic --------------------------------------------------------------

    def fail(self, literal: Any, problem: str) -> Frag:
        """SQL that stops the query with the native engine's line for this literal."""
        return cat(f"{self.dialect.error}(", Frag("?", (f"cannot evaluate {literal}: {problem}",)), ")")

    def expr(self, expr: Any, bound: dict[Var, Frag], lit: Any) -> tuple[Frag, str]:
        """An arithmetic expression's SQL and logical type."""
        if isinstance(expr, Var):
            logical = self.var_type(expr)
            if logical == "str":
                raise Refused(f"cannot evaluate {lit}: {expr.name} is an atom, not a number")
            return bound[expr], logical
        if not isinstance(expr, Arith):
            if isinstance(expr, str):
                raise Refused(f"cannot evaluate {lit}: {expr} is not a number")
            return self.param(expr), const_type(expr)
        parts = [self.expr(a, bound, lit) for a in expr.args]
        logical = expr_type(expr, self.var_type)
        op = expr.op
        if len(parts) == 1:
            (a, _), = parts
            fn = {"-": "-", "abs": "abs", "sign": "sign"}[op]
            return cat(f"{fn}(", a, ")"), logical
        (a, ta), (b, tb) = parts
        if op in ("+", "-", "*"):
            return cat("(", a, f" {op} ", b, ")"), logical
        if op in ("min", "max"):
            return cat("least(" if op == "min" else "greatest(", a, ", ", b, ")"), logical
        if op == "/":
            return cat("(CASE WHEN ", b, " = 0 THEN ", self.fail(lit, "division by zero"),
                       " ELSE CAST(", a, " AS DOUBLE) / ", b, " END)"), "num"
        if op in ("//", "mod", "rem"):
            x, y = self._int(a, ta, lit, op), self._int(b, tb, lit, op)
            if op == "//":
                body = cat(x, f" {self.dialect.int_div} ", y)
            elif op == "rem":
                body = cat(x, " % ", y)
            else:
                body = cat("((", x, " % ", y, ") + ", y, ") % ", y)
            return cat("(CASE WHEN ", y, " = 0 THEN ", self.fail(lit, "division by zero"), " ELSE ", body, " END)"), "int"
        assert op in ("**", "^")
        power = cat("power(CAST(", a, " AS DOUBLE), ", b, ")")
        if op == "^" and ta == tb == "int":
            bad = cat(b, " < 0 AND ", a, " NOT IN (1, -1)")
            return cat("(CASE WHEN ", bad, " THEN ",
                       self.fail(lit, "an integer to a negative integer power is not an integer (write 2 ** -1)"),
                       " WHEN abs(", power, ") >= 9.0e15 THEN ",
                       self.fail(lit, "the result is too large for the relational engine's integers"),
                       " ELSE CAST(", power, " AS BIGINT) END)"), "int"
        return cat("(CASE WHEN isinf(", power, ") OR isnan(", power, ") THEN ",
                   self.fail(lit, "the result is out of range"), " ELSE ", power, " END)"), "num"

    def _int(self, value: Frag, logical: str, lit: Any, op: str) -> Frag:
        if logical == "int":
            return value
        return cat("(CASE WHEN ", value, " <> trunc(", value, ") THEN ", self.fail(lit, f"{op} takes integers"),
                   " ELSE CAST(", value, " AS BIGINT) END)")
