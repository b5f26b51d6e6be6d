"""Aggregates in a plan: `aggregate_all(Spec, Goal, Result)` as one step over a batch of rows.

The goal is planned with the aggregate's outer variables bound (they come first in its rows);
a batch of rows runs it once for all the distinct outer bindings in it (joined through the
indexes, so a point question counts only its own group), groups its solutions by those
bindings and reduces each group: count and sum of nothing are 0, max and min of nothing fail,
as in SWI-Prolog. A solution is one binding of the goal's variables (set semantics: facts and
derived relations hold each tuple once). Among ties for max(E, W) / min(E, W) the witness is
the least in the standard order of terms (numbers before atoms), so the answer never depends
on evaluation order. A goal of one atom makes no rows: its groups are the buckets of the index
it would join through, or for many groups of an unindexed relation one pass over it (count,
sum of integers); the results are those of the general path, as tests check on random facts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sym.core.logic import arith
from sym.core.logic.terms import Aggregate, Atom, Var, expr_variables

if TYPE_CHECKING:
    from sym.core.logic.plan import JoinPlan, Runner

Row = tuple[Any, ...]
Reduce = Callable[[list[Row]], tuple[Any, ...] | None]
Batch = Callable[["Runner", list[Row]], list[Row]]   # what the plan's Computed step runs


def standard_order(value: Any) -> tuple[int, Any]:
    """The sort key of a constant in the standard order of terms: numbers (by value), then atoms."""
    return (1, value) if isinstance(value, str) else (0, value)


FAST_PATH = True   # tests turn it off to compare the fast path against the general one


def aggregate_step(agg: Aggregate, body: list[Any], slots: dict[Var, int], sub: JoinPlan) -> Batch:
    """What the plan step of `agg` in `body` runs, its outer variables bound in `slots`; `sub`
    is the plan of its goal with the outer variables bound first (plan.make_plan's)."""
    outer = agg.outer(body)
    width = len(outer)
    key_of = _key(tuple(slots[v] for v in outer))
    groups = (_from_index(agg, sub, width) if FAST_PATH else None) or _through_plan(agg, sub, width)
    outs = [agg.result] + ([agg.found] if agg.witness is not None else [])
    fresh = [isinstance(t, Var) and t not in slots for t in outs]
    # results already bound (by a literal before, or constants): (index in the value, row -> what it must equal)
    checks = [(i, _getter(t, slots)) for i, (t, new) in enumerate(zip(outs, fresh)) if not new]

    def run(runner: Runner, rows: list[Row]) -> list[Row]:
        values = groups(runner, list(dict.fromkeys(map(key_of, rows))))
        out: list[Row] = []
        for r in rows:
            value = values[key_of(r)]
            if value is None or not all(_equal(value[i], get(r)) for i, get in checks):
                continue
            out.append(r + tuple(v for v, new in zip(value, fresh) if new))
        return out

    return run


Groups = Callable[["Runner", list[Row]], dict[Row, tuple[Any, ...] | None]]   # outer bindings -> their values


def _through_plan(agg: Aggregate, sub: JoinPlan, width: int) -> Groups:
    """The general path: the goal's plan run from all the outer bindings, its rows grouped by them."""
    reduce = _reducer(agg, {v: i for i, v in enumerate(sub.variables)})

    def groups(runner: Runner, keys: list[Row]) -> dict[Row, tuple[Any, ...] | None]:
        found = keys
        for step in sub.steps:
            if not found:
                break
            runner.budget.check(len(found))
            found = runner.through(found, step)
        grouped: dict[Row, list[Row]] = {}
        for r in found:
            grouped.setdefault(r[:width], []).append(r)
        return {k: reduce(grouped.get(k, [])) for k in keys}

    return groups


def _from_index(agg: Aggregate, sub: JoinPlan, width: int) -> Groups | None:
    """A goal of one atom holding every variable of the aggregate: each group is a bucket of the
    relation's hash index on the bound positions (the one the general path joins through), its
    facts reduced as they are, without rows; None where the goal is anything else. A fact of
    the bucket is one solution: the atom's arguments are its variables and constants."""
    if len(agg.goal) != 1 or len(sub.steps) != 1:
        return None
    atom, join = agg.goal[0], sub.steps[0]
    # the one step of a one-atom goal is its join (plan.Join: plan.py imports this room, not back)
    if not isinstance(atom, Atom) or not hasattr(join, "positions") or join.delta:
        return None
    at: dict[Var, int] = {}
    for p, arg in enumerate(atom.args):
        if isinstance(arg, Var):
            at.setdefault(arg, p)
    wanted = [*sub.variables, *expr_variables(agg.template), *expr_variables(agg.witness)]
    if not all(v in at for v in wanted):
        return None     # a variable only outside the goal (bound, or in the template): rows needed
    key, positions, key_of_row, equal = join.key, join.positions, join.key_of_row, join.equal
    reduce = _bucket_reducer(agg, at)
    scan = _scan(agg, at, positions) if key_of_row is not None and not equal else None

    def groups(runner: Runner, keys: list[Row]) -> dict[Row, tuple[Any, ...] | None]:
        # max_facts caps the rows a plan makes: these paths make none beyond the outer bindings
        runner.budget.check(len(keys))
        if key_of_row is None:     # nothing bound: one group, the whole relation
            idx: Mapping[Any, Any] = {None: runner.relations.get(key, {})}
            key_of: Callable[[Row], Any] = _nothing
        else:
            if scan is not None and len(keys) >= SCAN_FROM and positions not in runner.indexes.get(key, {}):
                values = scan(runner.relations.get(key, {}), keys, key_of_row)
                if values is not None:
                    return values
            idx = runner.index(key, positions)
            key_of = key_of_row
        empty: list[Row] = []
        values = {}
        for k in keys:
            bucket = idx.get(key_of(k), empty)
            if equal:
                bucket = [t for t in bucket if all(t[a] == t[b] for a, b in equal)]
            values[k] = reduce(bucket)
        return values

    return groups


SCAN_FROM = 32    # outer bindings from which one pass over a relation without an index beats building it
Scan = Callable[[Mapping[Row, Any], list[Row], Callable[[Row], Any]], "dict[Row, tuple[Any, ...] | None] | None"]


def _scan(agg: Aggregate, at: dict[Var, int], positions: tuple[int, ...]) -> Scan | None:
    """Count, or sum of one variable, for many groups in one pass over the relation (no index
    built); None (the caller uses the index) where a value is not an integer: the buckets then
    give sum()'s own float order and the general path's message for an atom."""
    fact_key = itemgetter(*positions)
    if agg.op == "count":
        def count(rel: Mapping[Row, Any], keys: list[Row], key_of: Callable[[Row], Any]) -> dict[Row, tuple[Any, ...] | None]:
            counts = Counter(map(fact_key, rel))
            return {k: (counts.get(key_of(k), 0),) for k in keys}
        return count
    if agg.op != "sum" or not isinstance(agg.template, Var):
        return None
    p = at[agg.template]

    def total(rel: Mapping[Row, Any], keys: list[Row], key_of: Callable[[Row], Any]) -> dict[Row, tuple[Any, ...] | None] | None:
        sums: dict[Any, Any] = {}
        get = sums.get
        try:
            if len(positions) == 1:
                q = positions[0]
                for t in rel:
                    k = t[q]
                    sums[k] = get(k, 0) + t[p]
            else:
                for t in rel:
                    k = fact_key(t)
                    sums[k] = get(k, 0) + t[p]
        except TypeError:     # an atom among the values
            return None
        found = [get(key_of(k), 0) for k in keys]
        if any(type(v) is not int for v in found):
            return None
        try:
            return {k: (arith.normal(v),) for k, v in zip(keys, found)}
        except arith.ArithmeticProblem as problem:
            raise arith.failed(agg, problem) from None
    return total


def _nothing(row: Row) -> None:
    return None


def _bucket_reducer(agg: Aggregate, at: dict[Var, int]) -> Reduce:
    """`_reducer` over facts, with C loops for count and for sum, max and min of one variable;
    a bucket they cannot take (a value not a number) goes to `_reducer`, which says why."""
    general = _reducer(agg, at)
    if agg.op == "count":
        return general
    if not isinstance(agg.template, Var) or agg.witness is not None:
        return general
    value = itemgetter(at[agg.template])
    if agg.op == "sum":
        def total(found: list[Row]) -> tuple[Any, ...] | None:
            try:
                return (arith.normal(sum(map(value, found))),)
            except TypeError:     # an atom among the values
                return general(found)
            except arith.ArithmeticProblem as problem:
                raise arith.failed(agg, problem) from None
        return total
    best: Callable[[Iterable[Any]], Any] = max if agg.op == "max" else min

    def extreme(found: list[Row]) -> tuple[Any, ...] | None:
        if not found:
            return None
        try:
            top = best(map(value, found))
        except TypeError:
            return general(found)
        return general(found) if isinstance(top, str) else (top,)
    return extreme


def _getter(term: Any, slots: dict[Var, int]) -> Callable[[Row], Any]:
    if isinstance(term, Var):
        return itemgetter(slots[term])
    return lambda row: term


def _equal(a: Any, b: Any) -> bool:
    """Unification of two constants as the language has it (a number is its value)."""
    return isinstance(a, str) == isinstance(b, str) and a == b


def _key(positions: tuple[int, ...]) -> Callable[[Row], tuple[Any, ...]]:
    if not positions:
        return lambda row: ()
    if len(positions) == 1:
        p = positions[0]
        return lambda row: (row[p],)
    return itemgetter(*positions)


def _reducer(agg: Aggregate, slots: dict[Var, int]) -> Reduce:
    """The function from one group's solutions to the result values (None: no result)."""
    if agg.op == "count":
        return lambda found: (len(found),)
    value = arith.guarded(agg, arith.compile_expr(agg.template, slots.__getitem__))
    if agg.op == "sum":
        def total(found: list[Row]) -> tuple[Any, ...]:
            try:
                return (arith.normal(sum(map(value, found))),)
            except arith.ArithmeticProblem as problem:
                raise arith.failed(agg, problem) from None
        return total
    best: Callable[[Iterable[Any]], Any] = max if agg.op == "max" else min
    if agg.witness is None:
        return lambda found: (best(map(value, found)),) if found else None
    witness = agg.witness
    pick: Callable[[Row], Any] = (itemgetter(slots[witness]) if isinstance(witness, Var)
                                  else lambda row: witness)

    def extreme(found: list[Row]) -> tuple[Any, ...] | None:
        if not found:
            return None
        scored = [(value(r), pick(r)) for r in found]
        top = best(v for v, _ in scored)
        return (top, min((w for v, w in scored if v == top), key=standard_order))
    return extreme
