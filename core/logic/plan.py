"""Join plans: the order in which a rule body is matched, and the loop that runs it.

A body is matched breadth-first over rows of variable bindings. Atoms are taken
most-bound-first (smallest relation among ties); filters (`not`, comparisons) run as
soon as their variables are bound. This room knows nothing of strata or provenance.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, cast

from sym.core.errors import UserError
from sym.core.logic import arith
from sym.core.logic.aggregate import aggregate_step
from sym.core.logic.pause import UNBOUNDED, Budget
from sym.core.logic.terms import Aggregate, Atom, Compare, Eval, Is, Literal, Naf, Var, expr_variables

Row = tuple[Any, ...]
Relation = dict[Row, Any]  # args tuple -> provenance (None for asserted facts)
Stored = Mapping[Row, Any]  # a Relation, or the dense path's read-only view of a table
STRIDE = 1 << 16  # rows a join makes between two budget checks (a few ms)


def compare_op(op: str) -> Callable[[Any, Any], bool]:
    def ordered(test: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
        def run(a: Any, b: Any) -> bool:
            if isinstance(a, str) != isinstance(b, str):
                return False  # numbers and atoms are not ordered against each other
            return test(a, b)
        return run

    tests: dict[str, Callable[[Any, Any], bool]] = {
        "=": lambda a, b: a == b,
        "\\=": lambda a, b: a != b,
        "<": ordered(lambda a, b: a < b),
        ">": ordered(lambda a, b: a > b),
        "=<": ordered(lambda a, b: a <= b),
        ">=": ordered(lambda a, b: a >= b),
    }
    return tests[op]


Source = tuple[str, Any]   # ("s", row slot) or ("c", constant)


def _source(term: object, slots: dict[Var, int]) -> Source:
    """('s', slot) for a bound variable, ('c', value) for a constant."""
    return ("s", slots[term]) if isinstance(term, Var) else ("c", term)


def _getter(sources: list[Source]) -> Callable[[Row], Any]:
    """A function from a row to the value (one source) or tuple of values (several)."""
    if all(kind == "s" for kind, _ in sources):
        idx = [i for _, i in sources]
        if len(idx) == 1:
            return itemgetter(idx[0])
        return itemgetter(*idx)
    if len(sources) == 1:
        value = sources[0][1]
        return lambda row: value
    return lambda row: tuple(row[v] if k == "s" else v for k, v in sources)


@dataclass(slots=True)
class Join:
    """Match one positive atom against a relation (or the delta of one)."""

    key: str
    delta: bool
    positions: tuple[int, ...]     # argument positions bound before this step (index key)
    key_of_row: Callable[..., Any] | None    # row -> index key (None when nothing is bound: a scan)
    consts: tuple[tuple[int, object], ...]  # for scans: (position, constant) that must match
    row_eq: tuple[tuple[int, int], ...]     # for delta scans: (position, row slot) that must match
    equal: tuple[tuple[int, int], ...]      # positions that must be equal (repeated new variable)
    new: tuple[int, ...]           # positions whose values extend the row


@dataclass(slots=True)
class Filter:
    make: Callable[[Runner], Callable[[Row], bool]]  # runner -> row test
    compare: tuple[Any, ...] | None = None                        # (op, left term, right term) for comparisons


@dataclass(slots=True)
class Bind:
    value: Callable[[Row], object]  # `X = t` with X unbound: append t's value to the row


@dataclass(slots=True)
class Computed:
    """A step that computes from whole batches of rows (an aggregate per group): rows -> rows."""

    run: Callable[[Runner, list[Row]], list[Row]]


@dataclass(slots=True)
class JoinPlan:
    steps: list[Any]
    variables: list[Var]           # the variable held in each row slot
    order: list[int]               # body literal indices in the order they run


GUARD = "magic["     # how a demand program's guards are named (core/logic/magic.py)


def delta_sizes(relations: Mapping[str, Any]) -> Callable[[str], int]:
    """Relation sizes for a plan matched against new facts, a guard counted as the largest: among
    atoms bound alike the one joined through the new facts' values goes first, and the guard, its
    variables bound by then, is a lookup. (A ground question's constant is in every magic fact:
    joined on it first, each new fact scanned all of them.)"""
    return lambda k: (1 << 62) if k.startswith(GUARD) else len(relations.get(k, ()))


def make_plan(body: tuple[Literal, ...], sizes: Callable[[str], int], *, delta_at: int | None = None,
              bound: tuple[Var, ...] = ()) -> JoinPlan:
    """Choose an order for `body`; `delta_at` names the atom matched against new facts only.

    Near-linear in the body's size: each literal learns of a newly bound variable through an
    index from variables to the literals holding them, and atoms wait in a heap by score."""
    slots: dict[Var, int] = {v: i for i, v in enumerate(bound)}
    variables = list(bound)
    steps: list[Any] = []
    order: list[int] = []
    pending = set(range(len(body)))
    holders: dict[Var, list[int]] = {}
    for i, lit in enumerate(body):
        for v in dict.fromkeys(lit.variables()):
            holders.setdefault(v, []).append(i)
    atoms_left = sum(1 for lit in body if isinstance(lit, Atom))
    nbound = [0] * len(body)       # atoms: arguments bound (constants count)
    size = [0] * len(body)
    waiting: list[tuple[int, int, int]] = []   # atom heap: (-nbound, relation size, index); stale entries skipped
    needs = [0] * len(body)        # filters: unbound variables they need bound
    needed: list[frozenset[Any]] = [frozenset()] * len(body)
    ready: list[int] = []          # filter heap: indices worth trying
    for i, lit in enumerate(body):
        if isinstance(lit, Atom):
            nbound[i] = sum(1 for a in lit.args if not isinstance(a, Var) or a in slots)
            size[i] = sizes(lit.key)
            waiting.append((-nbound[i], size[i], i))
            continue
        own = set(lit.variables())
        if isinstance(lit, Naf):  # variables only inside this `not` are its own
            own = {v for v in own if len(holders[v]) > 1}
        elif isinstance(lit, Is):   # it binds its target
            own = set(expr_variables(lit.expr))
        elif isinstance(lit, Aggregate):   # it needs its outer variables, and binds its results
            own = set(lit.outer(list(body)))
        needed[i] = frozenset(own)
        needs[i] = sum(1 for v in own if v not in slots)
        if needs[i] <= 1:
            ready.append(i)
    heapq.heapify(waiting)
    heapq.heapify(ready)

    def bind_new(v: Var) -> None:
        slots[v] = len(variables)
        variables.append(v)
        for i in holders.get(v, ()):
            if i not in pending:
                continue
            lit = body[i]
            if isinstance(lit, Atom):
                nbound[i] += lit.args.count(v)
                heapq.heappush(waiting, (-nbound[i], size[i], i))
            elif v in needed[i]:
                needs[i] -= 1
                if needs[i] <= 1:
                    heapq.heappush(ready, i)

    def place(i: int) -> bool:
        lit = body[i]
        free = [v for v in lit.variables() if v not in slots]
        if isinstance(lit, Naf):
            free = [v for v in free if v in needed[i]]
        if isinstance(lit, Compare) and lit.op == "=" and len(free) == 1 and len(set(lit.variables())) <= 2:
            other = lit.right if free[0] == lit.left else lit.left
            if isinstance(other, Var) and other not in slots:
                return False
            pending.discard(i)
            order.append(i)
            steps.append(Bind(_getter([_source(other, slots)])))
            bind_new(free[0])
            return True
        if isinstance(lit, (Is, Aggregate)):
            if any(v in needed[i] for v in free):
                return False
            pending.discard(i)
            order.append(i)
            if isinstance(lit, Is):
                steps.append(_is_step(lit, slots))
                made = [lit.target] if isinstance(lit.target, Var) and lit.target not in slots else []
            else:
                sub = make_plan(lit.goal, sizes, bound=tuple(lit.outer(list(body))))
                steps.append(Computed(aggregate_step(lit, list(body), slots, sub)))
                made = [v for v in dict.fromkeys(lit.results()) if v not in slots]
            for v in made:
                bind_new(v)
            return True
        if free:
            return False
        if isinstance(lit, Naf):
            steps.append(Filter(_naf_test(lit.atom, slots)))
        elif isinstance(lit, Eval):
            steps.append(Filter(_row_test(arith.eval_test(lit, slots))))
        else:
            assert isinstance(lit, Compare)   # atoms are placed as joins, never here
            test, get_l, get_r = compare_op(lit.op), _getter([_source(lit.left, slots)]), _getter([_source(lit.right, slots)])
            steps.append(Filter(_compare_filter(test, get_l, get_r), (lit.op, lit.left, lit.right)))
        pending.discard(i)
        order.append(i)
        return True

    def place_filters() -> None:
        while ready:
            i = heapq.heappop(ready)
            if i in pending:
                place(i)

    def add_join(i: int, delta: bool) -> None:
        nonlocal atoms_left
        atom = body[i]
        assert isinstance(atom, Atom)   # only atoms are joined
        positions, sources, consts, row_eq, equal, new = [], [], [], [], [], []
        first_new: dict[Var, int] = {}
        for p, arg in enumerate(atom.args):
            if isinstance(arg, Var) and arg in slots:
                positions.append(p)
                sources.append(("s", slots[arg]))
            elif isinstance(arg, Var):
                if arg in first_new:
                    equal.append((first_new[arg], p))
                else:
                    first_new[arg] = p
                    new.append(p)
            else:
                positions.append(p)
                sources.append(("c", arg))
                consts.append((p, arg))
        if delta:  # delta sets are scanned, never indexed
            key_of_row = None
            row_eq = [(p, src[1]) for p, src in zip(positions, sources) if src[0] == "s"]
        else:
            key_of_row = _getter(sources) if positions else None
        steps.append(Join(atom.key, delta, tuple(positions), key_of_row, tuple(consts), tuple(row_eq),
                          tuple(equal), tuple(new)))
        pending.discard(i)
        order.append(i)
        atoms_left -= 1
        for p in new:
            bind_new(atom.args[p])

    if delta_at is not None:
        add_join(delta_at, True)
    place_filters()
    while atoms_left:
        negnb, _size, best = heapq.heappop(waiting)
        if best not in pending or -negnb != nbound[best]:
            continue  # placed already, or scored again since
        add_join(best, False)
        place_filters()
    if pending:  # only unsafe bodies get here; the parser rejects rules like these first
        shown = ", ".join(str(body[i]) for i in sorted(pending)[:3])
        raise UserError(f"cannot evaluate {shown}: a variable in it is never bound by a positive atom",
                        hint="bind every variable of a comparison or a `not` with a positive atom first")
    return JoinPlan(steps, variables, order)


def _is_step(lit: Is, slots: dict[Var, int]) -> Bind | Filter:
    """`X is E`: X's value appended to the row (X unbound), or tested against E (X bound)."""
    target = lit.target
    if isinstance(target, Var) and target not in slots:
        return Bind(arith.is_value(lit, slots))
    return Filter(_row_test(arith.is_test(lit, slots)))


def _row_test(test: Callable[[Row], bool]) -> Callable[[Runner], Callable[[Row], bool]]:
    """A filter's maker for a test that needs no runner (arithmetic)."""
    return lambda _runner: test


def _no_value(row: Row) -> Any:
    return ()


def _compare_filter(test: Callable[[Any, Any], bool], lhs: Callable[[Row], Any],
                    rhs: Callable[[Row], Any]) -> Callable[[Runner], Callable[[Row], bool]]:
    return lambda _runner: lambda row: test(lhs(row), rhs(row))


def _naf_test(atom: Atom, slots: dict[Var, int]) -> Callable[[Runner], Callable[[Row], bool]]:
    """`not atom`: variables not bound by the row are local (existential inside the `not`)."""
    key = atom.key
    bound = [(p, a) for p, a in enumerate(atom.args) if not isinstance(a, Var) or a in slots]
    local = [(p, a) for p, a in enumerate(atom.args) if isinstance(a, Var) and a not in slots]
    get = _getter([_source(a, slots) for _, a in bound]) if bound else _no_value   # used only when bound
    repeats = [(p, q) for i, (p, a) in enumerate(local) for q, b in local[i + 1:] if a == b]

    def make(runner: Runner) -> Callable[[Row], bool]:
        if not local:
            rel = runner.relations.get(key, {})
            if not atom.args:
                return lambda row: () not in rel
            if len(atom.args) == 1:
                return lambda row: (get(row),) not in rel
            return lambda row: get(row) not in rel
        if not bound:
            exists = any(all(t[p] == t[q] for p, q in repeats) for t in runner.relations.get(key, {}))
            return lambda row: not exists
        idx = runner.index(key, tuple(p for p, _ in bound))
        if not repeats:
            return lambda row: get(row) not in idx
        return lambda row: not any(all(t[p] == t[q] for p, q in repeats) for t in idx.get(get(row), ()))

    return make


Indexes = dict[tuple[int, ...], tuple[Callable[..., Any], dict[Any, Any]]]   # positions -> (key of a fact, index)


def add_to_indexes(indexes: Indexes, facts: Iterable[Row]) -> None:
    """Add facts to every index of their relation."""
    for get, idx in indexes.values():
        _add_to_index(idx, get, facts)


def _add_to_index(idx: dict[Any, Any], get: Callable[..., Any], facts: Iterable[Row]) -> None:
    for t in facts:
        k = get(t)
        bucket = idx.get(k)
        if bucket is None:
            idx[k] = [t]
        else:
            bucket.append(t)


class Runner:
    """Runs plans over a store of relations and their per-position hash indexes."""

    def __init__(self, relations: dict[str, Stored], budget: Budget = UNBOUNDED) -> None:
        self.relations = relations
        self.indexes: dict[str, Indexes] = {}
        self.budget = budget
        self.kept: set[str] = set()    # relations whose facts and indexes their owner keeps current

    def share(self, key: str, indexes: Indexes) -> None:
        """Use (and add to) indexes of a relation that another keeps current with its facts."""
        self.indexes[key] = indexes
        self.kept.add(key)

    def index(self, key: str, positions: tuple[int, ...]) -> dict[Any, Any]:
        """The hash index of a relation on some argument positions, built on first use."""
        by_pos = self.indexes.setdefault(key, {})
        entry = by_pos.get(positions)
        if entry is None:
            get = itemgetter(*positions)
            idx: dict[Any, Any] = {}
            _add_to_index(idx, get, self.relations.get(key, ()))
            entry = by_pos[positions] = (get, idx)
        return entry[1]

    def insert(self, key: str, facts: Relation) -> None:
        """Add new facts (args -> provenance) to a relation and every index on it."""
        if key in self.kept:
            return
        cast(Relation, self.relations.setdefault(key, {})).update(facts)   # the tuple path stores dicts
        for get, idx in self.indexes.get(key, {}).values():
            _add_to_index(idx, get, facts)

    def run(self, plan: JoinPlan, delta: dict[str, Relation] | None = None, steps: list[Any] | None = None) -> list[Row]:
        """All binding rows of a plan (or of its first `steps`), joining `delta` where the plan says."""
        rows: list[Row] = [()]
        for step in plan.steps if steps is None else steps:
            if not rows:
                return rows
            self.budget.check(len(rows))
            rows = self.through(rows, step, delta)
        return rows

    def through(self, rows: list[Row], step: Any, delta: dict[str, Relation] | None = None, *,
                chunked: bool = True) -> list[Row]:
        """Rows through one step of a plan: a join (with `delta` where the plan says; in budgeted
        chunks unless `chunked` is False), a filter, or a computed value appended."""
        if isinstance(step, Join):
            return self._join(rows, step, delta) if chunked else self.join_rows(rows, step, delta)
        if isinstance(step, Filter):
            test = step.make(self)
            return [r for r in rows if test(r)]
        if isinstance(step, Computed):
            return step.run(self, rows)
        value = step.value
        return [r + (value(r),) for r in rows]

    def _join(self, rows: list[Row], step: Join, delta: dict[str, Relation] | None) -> list[Row]:
        """Join in chunks of about STRIDE output rows, checking the budget after each, so that a
        cross product is cancelled or refused long before it fills memory."""
        chunk = max(1, STRIDE // fan_out(self, step, delta))
        if len(rows) <= chunk:
            out = self.join_rows(rows, step, delta)
            self.budget.check(len(out))
            return out
        out = []
        for start in range(0, len(rows), chunk):
            out += self.join_rows(rows[start:start + chunk], step, delta)
            self.budget.check(len(out))
        return out

    def join_rows(self, rows: list[Row], step: Join, delta: dict[str, Relation] | None) -> list[Row]:
        new = step.new
        out: list[Row] = []
        append = out.append
        if step.key_of_row is not None:
            idx = self.index(step.key, step.positions)
            key_of_row = step.key_of_row
            equal = step.equal
            if len(new) == 1 and not equal:
                p = new[0]
                for row in rows:
                    matches = idx.get(key_of_row(row))
                    if matches:
                        for t in matches:
                            append(row + (t[p],))
            elif not new and not equal:
                for row in rows:
                    if key_of_row(row) in idx:
                        append(row)
            else:
                get_new = _tuple_getter(new)
                for row in rows:
                    matches = idx.get(key_of_row(row))
                    if matches:
                        for t in matches:
                            if all(t[a] == t[b] for a, b in equal):
                                append(row + get_new(t))
            return out
        source = scanned(self.relations, step, delta)
        get_new = _tuple_getter(new)
        consts, row_eq, equal = step.consts, step.row_eq, step.equal
        if rows == [()] and not (consts or row_eq or equal) and new == tuple(range(len(new))):
            if source and len(next(iter(source))) == len(new):
                return list(source)  # the facts themselves are the rows
        if not (consts or row_eq or equal):
            for row in rows:
                for t in source:
                    append(row + get_new(t))
            return out
        for row in rows:
            for t in source:
                if (all(t[p] == v for p, v in consts) and all(t[p] == row[s] for p, s in row_eq)
                        and all(t[a] == t[b] for a, b in equal)):
                    append(row + get_new(t))
        return out


def fan_out(runner: Runner, step: Join, delta: dict[str, Relation] | None) -> int:
    """About how many rows one input row of `step` yields: the mean bucket of its index, or the
    size of the relation it scans."""
    if step.key_of_row is not None:
        idx = runner.index(step.key, step.positions)
        return len(runner.relations.get(step.key, ())) // max(1, len(idx)) + 1
    return len(scanned(runner.relations, step, delta)) + 1


def scanned(relations: Mapping[str, Stored], step: Join, delta: dict[str, Relation] | None) -> Stored:
    """The facts a step without an index scans: its relation, or this round's delta of it."""
    if step.delta:
        assert delta is not None   # a plan that joins a delta runs with one
        return delta.get(step.key, {})
    return relations.get(step.key, {})


def _tuple_getter(positions: tuple[int, ...]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    if not positions:
        return lambda t: ()
    if len(positions) == 1:
        p = positions[0]
        return lambda t: (t[p],)
    return itemgetter(*positions)


def head_getter(head: Atom, plan: JoinPlan) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    slots = {v: i for i, v in enumerate(plan.variables)}
    if not head.args:
        return lambda row: ()
    if all(isinstance(a, Var) for a in head.args):
        idx = [slots[a] for a in head.args]
        if len(idx) == 1:
            i = idx[0]
            return lambda row: (row[i],)
        return itemgetter(*idx)
    parts = [(True, slots[a]) if isinstance(a, Var) else (False, a) for a in head.args]
    return lambda row: tuple(row[v] if is_slot else v for is_slot, v in parts)
