"""The dense evaluator: semi-naive rounds run set-at-a-time over numpy columns, for programs
large enough that per-tuple Python costs dominate. Same rounds, steps and first derivations
as the tuple engine; provenance is kept columnar (firing number and binding row per fact)
and turned into literals only when asked. Rules it cannot run raise `Unsupported`, and the
engine keeps to its tuple path; this room knows nothing of the engine's public answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from sym.core.logic.columnar import Symbols, Table, encode_key, expand, lookup
from sym.core.logic.pause import Budget
from sym.core.logic.plan import make_plan
from sym.core.logic.terms import Atom, Compare, Naf, Rule, Var, is_numeric

Src = tuple[str, Any]                # ("s", slot) | ("c", constant id)
Delta = dict[str, tuple[int, int]]   # key -> (start, end) rows new in the last round

CHUNK = 1 << 17            # join output rows made between two cancel checks (tens of ms, on a loaded machine too)


class Unsupported(Exception):
    """A rule shape the dense evaluator does not run (the tuple engine does)."""


@dataclass(slots=True)
class Step:
    kind: str                  # "atom", "naf", "test", "bind"
    key: str = ""
    delta: bool = False
    bound: tuple[Any, ...] = ()          # atoms and `not`: (position, source) that must match
    new: tuple[Any, ...] = ()            # atoms: (position, slot) the match binds
    equal: tuple[Any, ...] = ()          # atoms: (position, position) that must hold the same value
    op: str = ""
    sources: tuple[Any, ...] = ()        # tests: (left, right); bind: (value,)


@dataclass(slots=True)
class DensePlan:
    steps: list[Step]
    variables: list[Var]
    head: tuple[Any, ...]                # a source per head argument


@dataclass(slots=True)
class Firing:
    rule_id: str
    step: int
    variables: list[Var]                   # those not in the head (the head's are the fact's arguments)
    bindings: np.ndarray | None = None     # (variables, rows) for the facts it may have derived
    from_head: tuple[tuple[int, Var], ...] = ()   # (head position, variable) for the others


Made = np.ndarray | tuple[int, int]   # a round's new facts of a relation: (firing, row) arrays, or (firing, n)
                                      # when they are that firing's rows 0..n-1


@dataclass
class DenseModel:
    """What a dense inference leaves: the tables, and how each derived fact was first found."""

    symbols: Symbols
    tables: dict[str, Table]
    base: dict[str, int]                   # facts asserted per table (they come first)
    firings: list[Firing] = field(default_factory=list)
    made_by: dict[str, list[Made]] = field(default_factory=dict)    # key -> each round's, in order


def compile_rule(rule: Rule, symbols: Symbols, sizes: Callable[[str], int], delta_at: int | None) -> DensePlan:
    """Choose the join order as the tuple engine does, then describe each step over slots."""
    plan = make_plan(rule.body, sizes, delta_at=delta_at)
    slots: dict[Var, int] = {}
    variables: list[Var] = []

    def source(term: object) -> Src:
        if isinstance(term, Var):
            return ("s", slots[term])
        if term not in symbols.ids:  # interning it now would change every key's radix
            raise Unsupported(f"constant {term!r} unknown to the model")
        return ("c", symbols.ids[term])

    def bind(v: Var) -> int:
        slots[v] = len(variables)
        variables.append(v)
        return slots[v]

    steps: list[Step] = []
    for i in plan.order:
        lit = rule.body[i]
        if isinstance(lit, Atom):
            bound: list[tuple[int, Src]] = []
            new: list[tuple[int, int]] = []
            equal: list[tuple[int, int]] = []
            first: dict[Var, int] = {}
            for p, arg in enumerate(lit.args):
                if not isinstance(arg, Var) or arg in slots:
                    bound.append((p, source(arg)))
                elif arg in first:
                    equal.append((first[arg], p))
                else:
                    first[arg] = p
            for v, p in first.items():
                new.append((p, bind(v)))
            if i == delta_at and any(kind == "s" for _, (kind, _) in bound):
                raise Unsupported("a delta atom after other atoms")
            steps.append(Step("atom", lit.key, i == delta_at, tuple(bound), tuple(new), tuple(equal)))
        elif isinstance(lit, Naf):
            local = [a for a in lit.atom.args if isinstance(a, Var) and a not in slots]
            if len(set(local)) != len(local):
                raise Unsupported("a repeated local variable under `not`")
            must = tuple((p, source(a)) for p, a in enumerate(lit.atom.args) if not isinstance(a, Var) or a in slots)
            steps.append(Step("naf", lit.atom.key, bound=must))
        else:
            assert isinstance(lit, Compare)   # `supported` keeps arithmetic and aggregates out
            free = [t for t in (lit.left, lit.right) if isinstance(t, Var) and t not in slots]
            if free:  # `X = t` with X unbound: make_plan placed it as a binding
                other = lit.right if free[0] == lit.left else lit.left
                steps.append(Step("bind", sources=(source(other),)))
                bind(free[0])
            else:
                steps.append(Step("test", op=lit.op, sources=(source(lit.left), source(lit.right))))
    assert rule.head is not None   # constraints are not compiled
    head = tuple(source(a) for a in rule.head.args)
    return DensePlan(steps, variables, head)


def rule_constants(rules: Iterable[Rule]) -> list[Any]:
    out: list[Any] = []
    for rule in rules:
        lits = list(rule.body) + ([rule.head] if rule.head is not None else [])
        for lit in lits:
            atom = lit.atom if isinstance(lit, Naf) else lit
            if is_numeric(atom):
                continue      # such rules never reach the dense path (`supported`)
            assert isinstance(atom, (Atom, Compare))
            terms = (atom.left, atom.right) if isinstance(atom, Compare) else atom.args
            out += [t for t in terms if not isinstance(t, Var)]
    return out


class Evaluator:
    """Runs dense plans over a model's tables; `delta` maps a key to its (start, end) rows."""

    def __init__(self, model: DenseModel, budget: Budget, needs_order: bool) -> None:
        self.model, self.budget = model, budget
        self.radix = max(1, len(model.symbols))
        self.ranks = model.symbols.order_ranks() if needs_order else None

    def table(self, key: str, arity: int) -> Table:
        t = self.model.tables.get(key)
        if t is None:
            t = self.model.tables[key] = Table(arity, self.radix)
            self.model.base[key] = 0
        return t

    def value(self, src: Src, cols: list[np.ndarray], n: int) -> np.ndarray:
        kind, v = src
        return cols[v] if kind == "s" else np.full(n, v, dtype=np.int64)

    def chunks(self, plan: DensePlan, delta: Delta | None) -> Iterator[Rows]:
        """The plan's binding rows, as `Rows` in pieces of about CHUNK (cancel checked between)."""
        yield from self._steps(plan.steps, 0, 1, [], delta)

    def _steps(self, steps: list[Step], i: int, n: int, cols: list[np.ndarray], delta: Delta | None) -> Iterator[Rows]:
        while i < len(steps):
            if not n:
                return
            step = steps[i]
            i += 1
            if step.kind == "atom":
                joined = self._atom(step, n, cols, delta)
                if isinstance(joined, tuple):
                    n, cols = joined
                    continue
                if len(joined) == 1:        # one piece: go on in this loop (bodies may be long)
                    piece = joined[0]()
                    if piece is None:
                        return
                    if i == len(steps):
                        yield piece
                        return
                    n, cols = piece.n, piece.columns()
                    continue
                for make in joined:         # a large join: the rest of the plan per piece
                    self.budget.check()
                    piece = make()
                    if piece is None:
                        continue
                    if i == len(steps):
                        yield piece
                    else:
                        yield from self._steps(steps, i, piece.n, piece.columns(), delta)
                return
            if step.kind == "naf":
                n, cols = self._keep(n, cols, ~self._exists(step, n, cols))
            elif step.kind == "test":
                n, cols = self._keep(n, cols, self._test(step, n, cols))
            else:
                cols = cols + [self.value(step.sources[0], cols, n)]
        if n:
            yield Rows(n, cols)

    def _keep(self, n: int, cols: list[np.ndarray], mask: np.ndarray) -> tuple[int, list[np.ndarray]]:
        kept = int(mask.sum())
        if kept == n:
            return n, cols
        return kept, [c[mask] for c in cols]

    def _test(self, step: Step, n: int, cols: list[np.ndarray]) -> np.ndarray:
        left, right = (self.value(s, cols, n) for s in step.sources)
        result: np.ndarray
        if step.op == "=":
            result = left == right
            return result
        if step.op == "\\=":
            result = left != right
            return result
        assert self.ranks is not None   # made when a rule orders constants
        is_str, rank = self.ranks
        same = is_str[left] == is_str[right]
        a, b = rank[left], rank[right]
        result = same & {"<": a < b, ">": a > b, "=<": a <= b, ">=": a >= b}[step.op]
        return result

    def _exists(self, step: Step, n: int, cols: list[np.ndarray]) -> np.ndarray:
        table = self.model.tables.get(step.key)
        if table is None or not table.n:
            return np.zeros(n, dtype=bool)
        if not step.bound:
            return np.ones(n, dtype=bool)
        positions = tuple(p for p, _ in step.bound)
        keys = encode_key([self.value(s, cols, n) for _, s in step.bound], self.radix, n)
        found: np.ndarray
        if len(positions) == table.arity and table.bitmap is not None:
            found = table.bitmap[keys]
            return found
        _, count = lookup(table.index(positions), keys)
        found = count > 0
        return found

    def _atom(self, step: Step, n: int, cols: list[np.ndarray], delta: Delta | None) -> Joined:
        """(n, cols) for a semi-join or an empty result; otherwise a list of `Rows` piece makers."""
        table = self.model.tables.get(step.key)
        if table is None or not table.n:
            return 0, cols
        if step.delta:
            assert delta is not None   # a delta step runs with one
            start, end = delta[step.key]
            rows = np.arange(start, end, dtype=np.int64)
            for p, (_, v) in step.bound:  # matched first, so only constants are bound
                rows = rows[table.col(p)[rows] == v]
            return self._cross(table, step, n, cols, rows)
        if not step.bound:
            return self._cross(table, step, n, cols, np.arange(table.n, dtype=np.int64))
        positions = tuple(p for p, _ in step.bound)
        keys = encode_key([self.value(s, cols, n) for _, s in step.bound], self.radix, n)
        idx = table.index(positions)
        lo, count = lookup(idx, keys)
        if not step.new and not step.equal:   # a semi-join: keep the rows that match
            return self._keep(n, cols, count > 0)
        total = int(count.sum())
        self.budget.check(total)
        if not total:
            return 0, cols
        return self._pieces(table, step, cols, lo, count, total, idx[2])

    def _cross(self, table: Table, step: Step, n: int, cols: list[np.ndarray], rows: np.ndarray) -> Joined:
        total = n * len(rows)
        self.budget.check(total)
        if not total:
            return 0, cols
        return self._pieces(table, step, cols, np.zeros(n, dtype=np.int64), np.full(n, len(rows)), total, rows)

    def _pieces(self, table: Table, step: Step, cols: list[np.ndarray], lo: np.ndarray, count: np.ndarray, total: int,
                perm: np.ndarray) -> list[Callable[[], Rows | None]]:
        """Makers of the join's rows in pieces of about CHUNK: input row i matches
        perm[lo[i]:lo[i] + count[i]]. A maker returns `Rows`, or None when nothing matched."""
        if total <= CHUNK:
            bounds = [(0, len(count))]
        else:
            ends = np.cumsum(count)
            cut = (np.searchsorted(ends, np.arange(CHUNK, total, CHUNK), "left") + 1).tolist()
            bounds = [(a, b) for a, b in zip([0, *cut], [*cut, len(count)]) if a < b]

        def make(a: int, b: int) -> Rows | None:
            sub_count = count[a:b]
            out_rows, at = expand(lo[a:b], sub_count, int(sub_count.sum()))
            if a:
                out_rows += a
            matched = perm[at]
            for x, y in step.equal:
                same = table.col(x)[matched] == table.col(y)[matched]
                out_rows, matched = out_rows[same], matched[same]
            if not len(matched):
                return None
            return Rows(len(matched), cols, out_rows, [table.col(p) for p, _ in step.new], matched)

        return [partial(make, a, b) for a, b in bounds]


class Rows:
    """Binding rows: plain columns, or (lazily) the input columns picked by `pick` followed by
    the matched table columns, so that only what is asked for is ever gathered."""

    __slots__ = ("n", "cols", "pick", "new", "matched")

    def __init__(self, n: int, cols: list[np.ndarray], pick: np.ndarray | None = None,
                 new: Sequence[np.ndarray] = (), matched: np.ndarray | None = None) -> None:
        self.n, self.cols, self.pick, self.new, self.matched = n, cols, pick, new, matched

    def column(self, slot: int) -> np.ndarray:
        col: np.ndarray
        if self.pick is None:
            col = self.cols[slot]
        elif slot < len(self.cols):
            col = self.cols[slot][self.pick]
        else:
            col = self.new[slot - len(self.cols)][self.matched]
        return col

    def columns(self) -> list[np.ndarray]:
        return [self.column(s) for s in range(len(self.cols) + len(self.new))]

    def take(self, rows: np.ndarray, slots: Sequence[int]) -> list[np.ndarray]:
        """The columns of these slots, for the given rows only, as int32 (ids of a model's symbols)."""
        if self.pick is None:
            return [self.cols[s][rows].astype(np.int32) for s in slots]
        assert self.matched is not None   # given with `pick`
        pick, matched, width = self.pick[rows], self.matched[rows], len(self.cols)
        return [(self.cols[s][pick] if s < width else self.new[s - width][matched]).astype(np.int32) for s in slots]


# a join's result: (rows, columns) when it could be done in place, else makers of its pieces
Joined = tuple[int, list[np.ndarray]] | list[Callable[[], Rows | None]]


def supported(rule: Rule) -> bool:
    """Whether the dense evaluator runs this rule: all shapes but a variable repeated inside a
    `not` that occurs nowhere else (an existential with an equality the anti-join does not test),
    and arithmetic and aggregates (they compute values the columns' symbols do not hold)."""
    if any(is_numeric(lit) for lit in rule.body):
        return False
    counts: dict[Var, int] = {}
    for lit in rule.body:
        for v in set(lit.variables()):
            counts[v] = counts.get(v, 0) + 1
    for lit in rule.body:
        if isinstance(lit, Naf):
            local = [a for a in lit.atom.args if isinstance(a, Var) and counts[a] == 1]
            if len(set(local)) != len(local):
                return False
    return True
