"""Semi-naive rounds over dense tables, and the model they leave seen as the tuple engine's
relations (read-only mappings from argument tuples to a provenance marker).

The rounds mirror `Engine._infer`: strata in order; in round one every rule runs on whole
relations, later each rule runs once per body atom whose relation grew, that atom matched
against the new facts only; a fact's step is its round; the first derivation found is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from sym.core.logic.columnar import BITMAP_LIMIT, MAX_KEY, Columns, Symbols, Table, encode_key, first_occurrences, release_freed
from sym.core.logic.dense import DenseModel, DensePlan, Evaluator, Firing, Made, Unsupported, compile_rule, rule_constants
from sym.core.logic.pause import Budget
from sym.core.logic.plan import Relation
from sym.core.logic.terms import Atom, Compare, Rule, Var

ORDERED = frozenset({"<", ">", "=<", ">="})
TRIM_AFTER = 1 << 17    # derived facts from which the freed temporaries are handed back to the system


def load(base: dict[str, Relation], rules: dict[str, Rule], known: Symbols | None = None,
         columns: Mapping[str, Columns] | None = None) -> DenseModel:
    """Intern every constant and build a table per asserted relation: from its `columns` where
    they hold it, encoded with `known`'s ids (copied: the fact base goes on growing its own), else
    encoded from its tuples now."""
    symbols = known.copy() if known is not None else Symbols()
    columns = columns or {}
    for c in rule_constants(rules.values()):
        symbols.intern(c)
    encoded = {}
    for key, rel in base.items():
        if rel:
            arity = int(key[key.rindex("/") + 1:])
            held = columns.get(key)
            if held is not None and held.n == len(rel):
                encoded[key] = (len(rel), [held.col(p) for p in range(arity)])
            else:
                encoded[key] = (len(rel), symbols.encode_rows(list(rel), arity))
    radix = max(1, len(symbols))
    arities = [int(k[k.rindex("/") + 1:]) for k in encoded]
    arities += [len(r.head.args) for r in rules.values() if r.head is not None]
    arities += [len(a.args) for r in rules.values() for a in r.body if isinstance(a, Atom)]
    if radix ** max(arities, default=0) >= MAX_KEY:
        raise Unsupported("tuples too wide to key as one integer")
    tables: dict[str, Table] = {}
    for key, (n, cols) in encoded.items():
        table = tables[key] = Table(len(cols), radix)
        table.append(cols, encode_key(cols, radix, n))
    return DenseModel(symbols, tables, {k: t.n for k, t in tables.items()})


def infer_dense(model: DenseModel, rules: dict[str, Rule], strata: dict[str, int], budget: Budget,
                max_steps: int | None) -> tuple[int, int, bool]:
    """Run every stratum to its fixpoint (or `max_steps` rounds); (steps, derived, complete)."""
    done = _rounds(model, rules, strata, budget, max_steps)
    if done[1] >= TRIM_AFTER:
        release_freed()     # the rounds' temporaries, freed as they returned
    return done


def _rounds(model: DenseModel, rules: dict[str, Rule], strata: dict[str, int], budget: Budget,
            max_steps: int | None) -> tuple[int, int, bool]:
    needs_order = any(isinstance(lit, Compare) and lit.op in ORDERED for r in rules.values() for lit in r.body)
    ev = Evaluator(model, budget, needs_order)
    radix = ev.radix
    by_stratum: dict[int, list[tuple[str, Rule]]] = {}
    for rid, rule in rules.items():
        if rule.head is not None:
            by_stratum.setdefault(strata.get(rule.head.key, 0), []).append((rid, rule))
    step, derived, complete = 0, 0, True
    sizes: Callable[[str], int] = lambda k: model.tables[k].n if k in model.tables else 0  # noqa: E731
    for level in sorted(by_stratum):
        rules_here = by_stratum[level]
        plans: dict[tuple[str, int | None], DensePlan] = {}
        delta: dict[str, tuple[int, int]] | None = None
        while True:
            found: dict[str, list[tuple[np.ndarray, int]]] = {}
            for rid, rule in rules_here:
                if delta is None:
                    positions: list[int | None] = [None]
                else:
                    positions = [i for i, lit in enumerate(rule.body) if isinstance(lit, Atom) and lit.key in delta]
                for at in positions:
                    plan = plans.get((rid, at))
                    if plan is None:
                        plan = plans[(rid, at)] = compile_rule(rule, model.symbols, sizes, at)
                    head = rule.head
                    assert head is not None   # constraints are checked, not run, here
                    budget.relation = head.key
                    budget.check(derived)          # cancel between rules
                    table = ev.table(head.key, len(head.args))
                    kept: list[np.ndarray] = []
                    bound: list[Any] = []
                    held = 0
                    seen: np.ndarray | None = None     # keys kept from this rule's earlier pieces (a byte map)
                    # a binding keeps only what the fact does not hold: head variables are read off its arguments
                    in_head = {v: p for p, (kind, v) in enumerate(plan.head) if kind == "s"}
                    slots = [s for s in range(len(plan.variables)) if s not in in_head]
                    for rows in ev.chunks(plan, delta):
                        keys = encode_key([rows.column(v) if kind == "s" else np.full(rows.n, v, dtype=np.int64)
                                           for kind, v in plan.head], radix, rows.n)
                        fresh = np.flatnonzero(~table.contains(keys))
                        fresh = fresh[first_occurrences(keys[fresh], table.space)]
                        if kept and len(fresh) and table.space <= BITMAP_LIMIT:
                            # a key an earlier piece found is dropped piece by piece, not by one sort of all
                            # of them at the end (seconds for millions of rows, with no cancel check inside)
                            if seen is None:
                                seen = np.zeros(table.space, dtype=bool)
                                for earlier in kept:
                                    seen[earlier] = True
                            fresh = fresh[~seen[keys[fresh]]]
                        if len(fresh):
                            if seen is not None:
                                seen[keys[fresh]] = True
                            kept.append(keys[fresh])
                            bound.append(rows.take(fresh, slots))
                            held += len(fresh)
                            budget.check(derived + held)   # memory stays bounded by max_facts
                    seen = None
                    if not kept:
                        continue
                    keys = np.concatenate(kept) if len(kept) > 1 else kept[0]
                    budget.check()
                    columns = []
                    for c in zip(*bound) if slots else ():
                        columns.append(np.concatenate(c) if len(bound) > 1 else c[0])
                        budget.check()
                    if len(kept) > 1 and not (table.space <= BITMAP_LIMIT):
                        first = first_occurrences(keys, table.space)
                        keys, columns = keys[first], [c[first] for c in columns]
                    budget.check(derived + len(keys))
                    bindings = np.empty((len(columns), len(keys)), dtype=np.int32) if columns else None
                    for at, column in enumerate(columns):   # one copy per column, cancel checked between
                        bindings[at] = column              # type: ignore[index]
                        budget.check()
                    found.setdefault(head.key, []).append((keys, len(model.firings)))
                    model.firings.append(Firing(rid, step + 1, [plan.variables[s] for s in slots], bindings,
                                                tuple((p, plan.variables[v]) for v, p in in_head.items())))
            new = {}
            for key, parts in found.items():
                budget.check()
                made: Made
                if len(parts) == 1:         # (nothing to join: no copy of millions of keys)
                    keys, f = parts[0]
                    made = (f, len(keys))   # one firing's rows in order: two numbers, not two per fact
                else:
                    keys = np.concatenate([k for k, _ in parts])
                    firing = np.concatenate([np.full(len(k), f, dtype=np.int32) for k, f in parts])
                    row = np.concatenate([np.arange(len(k), dtype=np.int32) for k, _ in parts])
                    first = first_occurrences(keys, model.tables[key].space)
                    keys, made = keys[first], np.stack([firing[first], row[first]])
                new[key] = (keys, made)
            budget.check(derived + sum(len(v[0]) for v in new.values()))
            if not new:
                break
            if max_steps is not None and step >= max_steps:
                complete = False  # this round would add facts beyond the limit: drop them
                break
            step += 1
            delta = {}
            for key, (keys, made) in new.items():
                table = model.tables[key]
                start = table.n
                table.extend(keys, radix, budget.check)     # in pieces, cancel checked between
                delta[key] = (start, table.n)
                budget.check()
                model.made_by.setdefault(key, []).append(made)
                derived += len(keys)
        if not complete:
            break
    return step, derived, complete


def derivation(model: DenseModel, key: str, args: tuple[Any, ...]) -> tuple[str, int, dict[Var, object]] | None:
    """(rule id, step, binding) of a derived fact's first derivation; None if asserted or absent."""
    table = model.tables.get(key)
    pos = -1 if table is None else _position(model, table, args)
    base = model.base.get(key, 0)
    if pos < base:
        return None
    made = model.made_by[key]
    if len(made) > 1:
        made[:] = [np.concatenate([_rows(m) for m in made], axis=1)]
    one = made[0]
    firing_no, row = (one[0], pos - base) if isinstance(one, tuple) else (int(v) for v in one[:, pos - base])
    firing = model.firings[firing_no]
    values = model.symbols.values
    bindings = firing.bindings   # None for a rule whose variables are all in its head
    binding = {v: args[p] for p, v in firing.from_head}
    if bindings is not None:
        binding.update((v, values[int(bindings[j, row])]) for j, v in enumerate(firing.variables))
    return firing.rule_id, firing.step, binding


def _rows(made: Made) -> np.ndarray:
    """(firing, row) per fact of one round's part of a relation."""
    if isinstance(made, np.ndarray):
        return made
    firing, n = made
    return np.stack([np.full(n, firing, dtype=np.int32), np.arange(n, dtype=np.int32)])


def _position(model: DenseModel, table: Table, args: tuple[Any, ...]) -> int:
    key = _key_of(model.symbols, table, args)
    return -1 if key is None else table.position(key)


def _key_of(symbols: Symbols, table: Table, args: object) -> int | None:
    if type(args) is not tuple or len(args) != table.arity:
        return None
    key = 0
    ids = symbols.ids
    try:
        for a in args:
            i = ids.get(a)
            if i is None:
                return None
            key = key * table.radix + i
    except TypeError:  # unhashable: no such fact
        return None
    return key


class TableView(Mapping[tuple[Any, ...], Any]):
    """A dense table as the tuple engine's relation: args -> None (asserted) or a marker."""

    def __init__(self, model: DenseModel, key: str) -> None:
        self.model, self.table, self.base = model, model.tables[key], model.base.get(key, 0)

    def __len__(self) -> int:
        return self.table.n

    def __contains__(self, args: object) -> bool:
        key = _key_of(self.model.symbols, self.table, args)
        return key is not None and bool(self.table.contains(np.array([key], dtype=np.int64))[0])

    def __getitem__(self, args: tuple[Any, ...]) -> int | None:
        pos = _position(self.model, self.table, args)
        if pos < 0:
            raise KeyError(args)
        return None if pos < self.base else pos

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        for args, _ in self.items():
            yield args

    def values(self) -> Iterator[int | None]:  # type: ignore[override]  # a generator, not a view: only iterated
        return (None if i < self.base else i for i in range(self.table.n))

    def items(self) -> Iterator[tuple[tuple[Any, ...], int | None]]:  # type: ignore[override]  # as values()
        values, table, base = self.model.symbols.values, self.table, self.base
        rows: Iterable[tuple[Any, ...]]
        if table.arity == 0:
            rows = ((),) * table.n
        elif table.arity == 1:
            rows = ((values[a],) for a in table.col(0).tolist())
        elif table.arity == 2:
            rows = ((values[a], values[b]) for a, b in zip(table.col(0).tolist(), table.col(1).tolist()))
        else:
            rows = (tuple(values[i] for i in ids) for ids in zip(*(table.col(p).tolist() for p in range(table.arity))))
        for i, args in enumerate(rows):
            yield args, (None if i < base else i)
