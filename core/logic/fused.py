"""Fused last joins: a plan's final indexed join matched while building head tuples, so a rule
that derives millions of facts makes no intermediate row per candidate. Split from plan.py;
this room knows nothing of strata.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sym.core.logic.plan import STRIDE, Filter, Join, JoinPlan, Relation, Row, Runner, Stored, compare_op, fan_out
from sym.core.logic.terms import Var

Part = tuple[str, Any]                               # ("r", row slot) | ("t", matched tuple position) | ("c", constant)
Pick = Callable[[Row, tuple[Any, ...]], Any]         # (row, matched tuple) -> a value


def _last_join(plan: JoinPlan) -> int:
    return max((i for i, st in enumerate(plan.steps) if isinstance(st, Join)), default=-1)


@dataclass(slots=True)
class Tail:
    """A plan's last indexed join with the comparisons after it, compiled over (row, matched tuple)."""

    at: int                                   # index of the last join in plan.steps
    head_of: Callable[[Row, tuple[Any, ...]], tuple[Any, ...]]
    shape: tuple[Any, ...] | None                       # ("rt"|"tr", i, j) for two-argument heads, inlined
    tests: list[Callable[[Row, tuple[Any, ...]], bool]]
    unequal: tuple[Any, ...] | None                     # (("r"|"t", i), ("r"|"t", j)) for a lone X \= Y, inlined


def fused_tail(plan: JoinPlan, head_args: tuple[Any, ...]) -> Tail | None:
    """Compile the tail of a plan for `derive_fused`, or None when the plan does not end that way."""
    at = _last_join(plan)
    if at < 0:
        return None
    last = plan.steps[at]
    after = plan.steps[at + 1:]
    if last.key_of_row is None or last.delta or last.equal or not all(
            isinstance(st, Filter) and st.compare is not None for st in after):
        return None
    width = len(plan.variables) - len(last.new)
    slots = {v: i for i, v in enumerate(plan.variables)}

    def part(term: object) -> Part:
        if isinstance(term, Var):
            i = slots[term]
            return ("r", i) if i < width else ("t", last.new[i - width])
        return ("c", term)

    def value(p: Part) -> Pick:
        kind, i = p
        if kind == "r":
            return lambda r, t: r[i]
        if kind == "t":
            return lambda r, t: t[i]
        return lambda r, t: i

    parts = [part(a) for a in head_args]
    shape = None
    if len(parts) == 2 and parts[0][0] != "c" and parts[1][0] != "c":
        shape = (parts[0][0] + parts[1][0], parts[0][1], parts[1][1])
    getters = [value(p) for p in parts]
    head_of = lambda r, t: tuple(g(r, t) for g in getters)  # noqa: E731
    tests: list[Callable[[Row, tuple[Any, ...]], bool]] = []
    unequal = None
    for st in after:
        op, left, right = st.compare
        lp, rp = part(left), part(right)
        if op == "\\=" and len(after) == 1 and lp[0] != "c" and rp[0] != "c":
            unequal = (lp, rp)
        test, lv, rv = compare_op(op), value(lp), value(rp)
        tests.append(_pair_test(test, lv, rv))
    return Tail(at, head_of, shape, tests, unequal)


def _pair_test(test: Callable[[Any, Any], bool], lv: Pick, rv: Pick) -> Callable[[Row, tuple[Any, ...]], bool]:
    return lambda r, t: test(lv(r, t), rv(r, t))


def derive_fused(runner: Runner, plan: JoinPlan, delta: dict[str, Relation] | None, tail: Tail, have: Stored,
                 fresh: dict[Row, Any], firing: int) -> None:
    """Run the plan up to its last join, then match that join while building heads: no row per
    candidate. The commonest shapes (two-argument heads, one `X \\= Y`) run inlined."""
    rows = runner.run(plan, delta, steps=plan.steps[:tail.at])
    if not rows:
        return
    last: Join = plan.steps[tail.at]
    budget = runner.budget
    chunk = max(1, STRIDE // fan_out(runner, last, delta))
    if len(rows) <= chunk:
        derive_rows(runner, rows, last, tail, have, fresh, firing)
    else:
        for start in range(0, len(rows), chunk):
            derive_rows(runner, rows[start:start + chunk], last, tail, have, fresh, firing)
            budget.check(budget.offset + len(fresh))
    budget.check(budget.offset + len(fresh))


def derive_rows(runner: Runner, rows: list[Row], last: Join, tail: Tail, have: Stored, fresh: dict[Row, Any],
                 firing: int) -> None:
    get = runner.index(last.key, last.positions).get
    key_of_row = last.key_of_row
    assert key_of_row is not None   # fused_tail takes only an indexed last join
    if not last.new and not tail.tests:  # a semi-join: the head comes from the row alone
        head_of = tail.head_of
        if tail.shape is not None and tail.shape[0] == "rr":
            _, i, j = tail.shape
            head_of = lambda r, t: (r[i], r[j])  # noqa: E731
        for row in rows:
            matches = get(key_of_row(row))
            if matches:
                args = head_of(row, ())
                if args not in have and args not in fresh:
                    fresh[args] = (firing, row, matches[0])
        return
    if tail.shape is not None and not tail.tests and tail.shape[0] in ("rt", "tr"):
        kind, i, j = tail.shape
        for row in rows:
            matches = get(key_of_row(row))
            if matches:
                a = row[i] if kind == "rt" else row[j]
                for t in matches:
                    args = (a, t[j]) if kind == "rt" else (t[i], a)
                    if args not in have and args not in fresh:
                        fresh[args] = (firing, row, t)
        return
    if tail.shape is not None and tail.unequal is not None and tail.shape[0] == "rt" and \
            tail.unequal in ((("r", tail.shape[1]), ("t", tail.shape[2])), (("t", tail.shape[2]), ("r", tail.shape[1]))):
        _, i, j = tail.shape  # e.g. sibling(X, Y) :- parent(P, X), parent(P, Y), X \\= Y.
        for row in rows:
            matches = get(key_of_row(row))
            if matches:
                a = row[i]
                for t in matches:
                    b = t[j]
                    if a != b:
                        args = (a, b)
                        if args not in have and args not in fresh:
                            fresh[args] = (firing, row, t)
        return
    head_of, tests = tail.head_of, tail.tests
    for row in rows:
        matches = get(key_of_row(row))
        if matches:
            for t in matches:
                if tests and not all(test(row, t) for test in tests):
                    continue
                args = head_of(row, t)
                if args not in have and args not in fresh:
                    fresh[args] = (firing, row, t)


def full_row(plan: JoinPlan, payload: tuple[Any, ...]) -> Row:
    """The complete binding row from a provenance payload (row) or (row, matched tuple)."""
    if len(payload) == 1:
        only: Row = payload[0]
        return only
    row, t = payload
    last: Join = plan.steps[_last_join(plan)]
    return tuple(row) + tuple(t[p] for p in last.new)
