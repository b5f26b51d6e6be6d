"""Join plans: the order in which a rule body is matched, and the loop that runs it.

A body is matched breadth-first over rows of variable bindings. Atoms are taken
most-bound-first (smallest relation among ties); filters (`not`, comparisons) run as
soon as their variables are bound. This room knows nothing of strata or provenance.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Callable

from core.logic.terms import Atom, Compare, Literal, Naf, Var

Row = tuple
Relation = dict  # args tuple -> provenance (None for asserted facts)


def compare_op(op: str) -> Callable[[object, object], bool]:
    def ordered(test):
        def run(a, b):
            if isinstance(a, str) != isinstance(b, str):
                return False  # numbers and atoms are not ordered against each other
            return test(a, b)
        return run

    return {
        "=": lambda a, b: a == b,
        "\\=": lambda a, b: a != b,
        "<": ordered(lambda a, b: a < b),
        ">": ordered(lambda a, b: a > b),
        "=<": ordered(lambda a, b: a <= b),
        ">=": ordered(lambda a, b: a >= b),
    }[op]


def _source(term, slots: dict[Var, int]):
    """('s', slot) for a bound variable, ('c', value) for a constant."""
    return ("s", slots[term]) if isinstance(term, Var) else ("c", term)


def _getter(sources) -> Callable[[Row], object]:
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
    key_of_row: Callable | None    # row -> index key (None when nothing is bound: a scan)
    consts: tuple[tuple[int, object], ...]  # for scans: (position, constant) that must match
    row_eq: tuple[tuple[int, int], ...]     # for delta scans: (position, row slot) that must match
    equal: tuple[tuple[int, int], ...]      # positions that must be equal (repeated new variable)
    new: tuple[int, ...]           # positions whose values extend the row


@dataclass(slots=True)
class Filter:
    make: Callable[["Runner"], Callable[[Row], bool]]  # runner -> row test
    compare: tuple | None = None                        # (op, left term, right term) for comparisons


@dataclass(slots=True)
class Bind:
    value: Callable[[Row], object]  # `X = t` with X unbound: append t's value to the row


@dataclass(slots=True)
class Plan:
    steps: list
    variables: list[Var]           # the variable held in each row slot
    order: list[int]               # body literal indices in the order they run


def make_plan(body: tuple[Literal, ...], sizes: Callable[[str], int], *, delta_at: int | None = None,
              bound: tuple[Var, ...] = ()) -> Plan:
    """Choose an order for `body`; `delta_at` names the atom matched against new facts only."""
    slots: dict[Var, int] = {v: i for i, v in enumerate(bound)}
    variables = list(bound)
    steps: list = []
    order: list[int] = []
    pending = set(range(len(body)))

    def bind_new(v: Var) -> None:
        slots[v] = len(variables)
        variables.append(v)

    def place_filters() -> None:
        progress = True
        while progress:
            progress = False
            for i in sorted(pending):
                lit = body[i]
                if isinstance(lit, Atom):
                    continue
                free = [v for v in lit.variables() if v not in slots]
                if isinstance(lit, Naf):  # variables only inside this `not` are its own
                    free = [v for v in free if any(v in body[j].variables() for j in range(len(body)) if j != i)]
                if isinstance(lit, Compare) and lit.op == "=" and len(free) == 1 and len(set(lit.variables())) <= 2:
                    other = lit.right if free[0] == lit.left else lit.left
                    if isinstance(other, Var) and other not in slots:
                        continue
                    steps.append(Bind(_getter([_source(other, slots)])))
                    bind_new(free[0])
                elif free:
                    continue
                elif isinstance(lit, Naf):
                    steps.append(Filter(_naf_test(lit.atom, slots)))
                else:
                    test, get_l, get_r = compare_op(lit.op), _getter([_source(lit.left, slots)]), _getter([_source(lit.right, slots)])
                    steps.append(Filter(lambda _runner, t=test, l=get_l, r=get_r: lambda row: t(l(row), r(row)),
                                        (lit.op, lit.left, lit.right)))
                pending.discard(i)
                order.append(i)
                progress = True

    def add_join(i: int, delta: bool) -> None:
        atom = body[i]
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
        for p in new:
            bind_new(atom.args[p])
        pending.discard(i)
        order.append(i)

    if delta_at is not None:
        add_join(delta_at, True)
    place_filters()
    while any(isinstance(body[i], Atom) for i in pending):
        def score(i: int):
            atom = body[i]
            nbound = sum(1 for a in atom.args if not isinstance(a, Var) or a in slots)
            return (nbound == 0 and bool(slots), -nbound, sizes(atom.key), i)
        best = min((i for i in pending if isinstance(body[i], Atom)), key=score)
        add_join(best, False)
        place_filters()
    if pending:  # only unsafe bodies get here; the parser rejects them first
        raise ValueError(f"cannot order body: {[str(body[i]) for i in sorted(pending)]}")
    return Plan(steps, variables, order)


def _naf_test(atom: Atom, slots: dict[Var, int]):
    """`not atom`: variables not bound by the row are local (existential inside the `not`)."""
    key = atom.key
    bound = [(p, a) for p, a in enumerate(atom.args) if not isinstance(a, Var) or a in slots]
    local = [(p, a) for p, a in enumerate(atom.args) if isinstance(a, Var) and a not in slots]
    get = _getter([_source(a, slots) for _, a in bound]) if bound else None
    repeats = [(p, q) for i, (p, a) in enumerate(local) for q, b in local[i + 1:] if a == b]

    def make(runner: "Runner"):
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


def _add_to_index(idx: dict, get: Callable, facts) -> None:
    for t in facts:
        k = get(t)
        bucket = idx.get(k)
        if bucket is None:
            idx[k] = [t]
        else:
            bucket.append(t)


class Runner:
    """Runs plans over a store of relations and their per-position hash indexes."""

    def __init__(self, relations: dict[str, Relation]):
        self.relations = relations
        self.indexes: dict[str, dict[tuple[int, ...], tuple[Callable, dict]]] = {}

    def index(self, key: str, positions: tuple[int, ...]) -> dict:
        """The hash index of a relation on some argument positions, built on first use."""
        by_pos = self.indexes.setdefault(key, {})
        entry = by_pos.get(positions)
        if entry is None:
            get = itemgetter(*positions)
            idx: dict = {}
            _add_to_index(idx, get, self.relations.get(key, ()))
            entry = by_pos[positions] = (get, idx)
        return entry[1]

    def insert(self, key: str, facts: dict) -> None:
        """Add new facts (args -> provenance) to a relation and every index on it."""
        self.relations.setdefault(key, {}).update(facts)
        for get, idx in self.indexes.get(key, {}).values():
            _add_to_index(idx, get, facts)

    def run(self, plan: Plan, delta: dict[str, dict] | None = None, steps: list | None = None) -> list[Row]:
        """All binding rows of a plan (or of its first `steps`), joining `delta` where the plan says."""
        rows: list[Row] = [()]
        for step in plan.steps if steps is None else steps:
            if not rows:
                return rows
            if isinstance(step, Join):
                rows = self._join(rows, step, delta)
            elif isinstance(step, Filter):
                test = step.make(self)
                rows = [r for r in rows if test(r)]
            else:
                value = step.value
                rows = [r + (value(r),) for r in rows]
        return rows

    def _join(self, rows: list[Row], step: Join, delta) -> list[Row]:
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
        source = delta.get(step.key, {}) if step.delta else self.relations.get(step.key, {})
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


def _tuple_getter(positions: tuple[int, ...]) -> Callable[[tuple], tuple]:
    if not positions:
        return lambda t: ()
    if len(positions) == 1:
        p = positions[0]
        return lambda t: (t[p],)
    return itemgetter(*positions)


def _last_join(plan: Plan) -> int:
    return max((i for i, st in enumerate(plan.steps) if isinstance(st, Join)), default=-1)


@dataclass(slots=True)
class Tail:
    """A plan's last indexed join with the comparisons after it, compiled over (row, matched tuple)."""

    at: int                                   # index of the last join in plan.steps
    head_of: Callable[[Row, tuple], tuple]
    shape: tuple | None                       # ("rt"|"tr", i, j) for two-argument heads, inlined
    tests: list[Callable[[Row, tuple], bool]]
    unequal: tuple | None                     # (("r"|"t", i), ("r"|"t", j)) for a lone X \= Y, inlined


def fused_tail(plan: Plan, head_args: tuple) -> Tail | None:
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

    def part(term):
        if isinstance(term, Var):
            i = slots[term]
            return ("r", i) if i < width else ("t", last.new[i - width])
        return ("c", term)

    def value(p):
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
    tests, unequal = [], None
    for st in after:
        op, left, right = st.compare
        lp, rp = part(left), part(right)
        if op == "\\=" and len(after) == 1 and lp[0] != "c" and rp[0] != "c":
            unequal = (lp, rp)
        test, lv, rv = compare_op(op), value(lp), value(rp)
        tests.append(lambda r, t, test=test, lv=lv, rv=rv: test(lv(r, t), rv(r, t)))
    return Tail(at, head_of, shape, tests, unequal)


def derive_fused(runner: Runner, plan: Plan, delta, tail: Tail, have: dict, fresh: dict, firing) -> None:
    """Run the plan up to its last join, then match that join while building heads: no row per
    candidate. The commonest shapes (two-argument heads, one `X \\= Y`) run inlined."""
    rows = runner.run(plan, delta, steps=plan.steps[:tail.at])
    if not rows:
        return
    last: Join = plan.steps[tail.at]
    get = runner.index(last.key, last.positions).get
    key_of_row = last.key_of_row
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


def full_row(plan: Plan, payload: tuple) -> Row:
    """The complete binding row from a provenance payload (row) or (row, matched tuple)."""
    if len(payload) == 1:
        return payload[0]
    row, t = payload
    last: Join = plan.steps[_last_join(plan)]
    return row + tuple(t[p] for p in last.new)
