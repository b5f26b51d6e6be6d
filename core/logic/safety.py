"""Datalog safety, checked when a clause is read: facts are ground, and every variable a rule or
query needs is bound by the time it is needed — by a positive atom, by `X = t` from a bound
term, by `N is Expr` once Expr's variables are bound, or by an aggregate's result. An
aggregate's outer variables (those it shares with the rest of the clause) must be bound by
the literals before it, as SWI-Prolog reads a body left to right, so it means the same there.
"""

from __future__ import annotations

from typing import Any, NoReturn

from sym.core.errors import ParseError
from sym.core.logic.terms import Aggregate, Atom, Compare, Eval, Is, Naf, Query, Rule, Var, expr_variables


def check_clause(clause: Atom | Rule | Query, *, source: str | None = None, line: int | None = None) -> None:
    """Raise ParseError naming the first variable a clause cannot bind, or a fact's variables."""
    def fail(message: str, hint: str | None = None) -> NoReturn:
        raise ParseError(message, source=source, line=line, hint=hint)

    if isinstance(clause, Atom):
        if not clause.is_ground:
            names = ", ".join(dict.fromkeys(str(v) for v in clause.variables()))
            fail(f"fact {clause} has variables {names}",
                 "facts must be ground; write a rule (head :- body.) to generalise")
        return
    what = "query" if isinstance(clause, Query) else "rule"
    head = [clause.head] if isinstance(clause, Rule) and clause.head is not None else []
    bound = _check_body(clause.body, set(), head, what, fail)
    for atom in head:
        for v in atom.variables():
            if v not in bound:
                fail(f"unsafe rule: head variable {v} does not appear in the body",
                     "every variable in the head must appear in a positive body atom")


def binds(body: tuple[Any, ...], bound: set[Var], others: list[Any]) -> set[Var]:
    """The variables a body binds, given `bound` on entry (`others`: the clause's other literals,
    which decide an aggregate's outer variables)."""
    bound = bound | {v for lit in body if isinstance(lit, Atom) for v in lit.variables()}
    literals = [*body, *others]
    changed = True
    while changed:
        changed = False
        for lit in body:
            new: list[Var] = []
            if isinstance(lit, Compare) and lit.op == "=":   # `X = Y` binds one side from the other
                sides = [t for t in (lit.left, lit.right) if isinstance(t, Var)]
                if any(v not in bound for v in sides) and (len(sides) == 1 or any(v in bound for v in sides)):
                    new = sides
            elif isinstance(lit, Is) and isinstance(lit.target, Var) and set(expr_variables(lit.expr)) <= bound:
                new = [lit.target]
            elif isinstance(lit, Aggregate) and set(lit.outer(literals)) <= bound:
                new = lit.results()
            if any(v not in bound for v in new):
                bound.update(new)
                changed = True
    return bound


def _check_body(body: tuple[Any, ...], entry: set[Var], others: list[Any], what: str,
                fail: Any) -> set[Var]:
    literals = [*body, *others]
    bound = binds(body, entry, others)
    for i, lit in enumerate(body):
        if isinstance(lit, Naf):
            local = _local(lit, literals)
            needed = [v for v in lit.variables() if v not in local]
            kind = "negated literal"
        elif isinstance(lit, Aggregate):
            _check_aggregate(lit, i, body, literals, what, fail)
            continue
        elif isinstance(lit, Is):
            needed = expr_variables(lit.expr)
            for v in needed:
                if v not in bound:
                    fail(f"unsafe {what}: variable {v} in '{lit}' is never bound, so it cannot be computed",
                         f"bind {v} with a positive atom (e.g. p({v})) before computing with it")
            continue
        else:
            needed = lit.variables() if not isinstance(lit, Atom) else []
            kind = "arithmetic comparison" if isinstance(lit, Eval) else "comparison"
        for v in needed:
            if v not in bound:
                fail(f"unsafe {what}: variable {v} in {kind} '{lit}' is not bound by a positive atom",
                     "every variable under 'not' or in a comparison must also appear in a positive body atom")
    return bound


def _check_aggregate(agg: Aggregate, at: int, body: tuple[Any, ...], literals: list[Any], what: str,
                     fail: Any) -> None:
    outer = agg.outer(literals)
    before = {v for lit in body[:at] for v in lit.variables()}
    for v in outer:
        if v in agg.results():
            continue
        if v not in before:
            fail(f"unsafe {what}: {agg} reads {v}, which is bound only after it",
                 f"SWI-Prolog reads a body left to right: put the literal that binds {v} before the aggregate, "
                 f"or write _ to count over every {v}")
    inside = set(agg.inner())
    for v in agg.results():
        if v in inside:
            fail(f"{agg}: {v} is both inside the aggregate and its result", "give the result a variable of its own")
    entry = set(outer)
    bound = _check_body(agg.goal, entry, [], what, fail)
    for v in expr_variables(agg.template) + expr_variables(agg.witness):
        if v not in bound:
            fail(f"unsafe {what}: variable {v} of {agg.spec()} is not bound by the aggregate's goal",
                 "the value aggregated must come from the goal, e.g. aggregate_all(sum(C), cost(_, C), T)")


def _local(naf: Naf, literals: list[Any]) -> set[Var]:
    elsewhere = {v for lit in literals if lit is not naf for v in lit.variables()}
    return {v for v in naf.variables() if v not in elsewhere}


def local_variables(naf: Naf, clause: Rule | Query) -> set[Var]:
    """Variables that occur only inside one `not` literal: existential within it (`not p(X, _)`)."""
    literals = list(clause.body) + ([clause.head] if isinstance(clause, Rule) and clause.head else [])
    return _local(naf, literals)
