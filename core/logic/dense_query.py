"""Queries and integrity constraints answered over a dense model without turning its tables
back into tuples: a body is planned and run set-at-a-time, and only the answers read are decoded
(`DenseRows`: 50 answers shown of two million cost 50 decoded rows).
Returns None for what it does not run, and the caller uses the tuple runner instead.
"""

from __future__ import annotations

import marshal
import struct
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from sym.core.logic.columnar import MAX_KEY, decode_key, encode_key, first_occurrences
from sym.core.logic.dense import DenseModel, Evaluator, compile_rule, rule_constants, supported
from sym.core.logic.pause import Budget
from sym.core.logic.terms import Atom, Compare, Rule, Var

ORDERED = frozenset({"<", ">", "=<", ">="})


def rows(model: DenseModel, body: tuple[Any, ...], wanted: list[Var],
         budget: Budget) -> Sequence[tuple[Any, ...]] | None:
    """The distinct values of `wanted` over every binding of `body`, in model order (decoded
    where they are read)."""
    symbols = model.symbols
    rule = Rule(Atom("?", tuple(wanted)), body)
    if not supported(rule):
        return None
    if any(c not in symbols.ids for c in rule_constants([Rule(None, body)])):
        return None  # a constant the model never saw: keys would need a wider radix
    radix = max(1, len(symbols))
    if radix ** len(wanted) >= MAX_KEY:
        return None
    whole = _whole_table(model, body, wanted)
    if whole is not None:
        return whole
    needs_order = any(isinstance(lit, Compare) and lit.op in ORDERED for lit in body)
    ev = Evaluator(model, budget, needs_order)
    plan = compile_rule(rule, symbols, lambda k: model.tables[k].n if k in model.tables else 0, None)
    found_keys, found_cols = [], []
    for piece in ev.chunks(plan, None):
        cols = [piece.column(v) if kind == "s" else np.full(piece.n, v, dtype=np.int64) for kind, v in plan.head]
        keys = encode_key(cols, radix, piece.n)
        first = first_occurrences(keys, radix ** len(wanted))
        found_keys.append(keys[first])
        found_cols.append([c[first] for c in cols])
    if not found_keys:
        return []
    keys = np.concatenate(found_keys)
    cols = [np.concatenate(c) for c in zip(*found_cols)] if wanted else []
    if len(found_keys) > 1:
        first = first_occurrences(keys, radix ** len(wanted))
        keys, cols = keys[first], [c[first] for c in cols]
    if not wanted:
        return [()]
    return DenseRows(cols, symbols.values)


def _whole_table(model: DenseModel, body: tuple[Any, ...], wanted: list[Var]) -> DenseRows | None:
    """`?- p(X, Y).`: every row of one table, as it holds them (distinct, in model order), so its
    columns are the answer without a join or a pass to drop repeats."""
    if len(body) != 1 or not isinstance(body[0], Atom) or not wanted:
        return None
    atom = body[0]
    if not all(isinstance(a, Var) for a in atom.args) or len(set(atom.args)) != len(atom.args) \
            or set(atom.args) != set(wanted) or len(wanted) != len(atom.args):
        return None
    table = model.tables.get(atom.key)
    if table is None or not table.n:
        return None
    return DenseRows([table.col(atom.args.index(v)).copy() for v in wanted], model.symbols.values)


DECODED = 10_000        # rows decoded at a time by iteration


class DenseRows(Sequence[tuple[Any, ...]]):
    """Answer rows kept as columns of symbol ids: a row is decoded (by numpy's take over an object
    table of the values) only when it is read, so counting and showing the first rows of a
    long answer cost what is shown. Compares equal to the list of tuples it stands for."""

    __slots__ = ("_cols", "_values", "_table", "_codes")

    def __init__(self, cols: list[np.ndarray], values: Sequence[Any]) -> None:
        self._cols, self._values = cols, values
        self._table: np.ndarray | None = None
        self._codes: tuple[np.ndarray, np.ndarray] | None = None

    def _decoder(self) -> np.ndarray:
        if self._table is None:
            self._table = np.fromiter(self._values, dtype=object, count=len(self._values))
        return self._table

    def __len__(self) -> int:
        return len(self._cols[0])

    @overload
    def __getitem__(self, index: int) -> tuple[Any, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[Any, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[Any, ...] | list[tuple[Any, ...]]:
        if isinstance(index, slice):
            table = self._decoder()
            return list(zip(*(table[c[index]].tolist() for c in self._cols)))
        n = len(self)
        at = index + n if index < 0 else index
        if not 0 <= at < n:
            raise IndexError("row index out of range")
        return tuple(self._values[int(c[at])] for c in self._cols)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        for start in range(0, len(self), DECODED):
            yield from self[start:start + DECODED]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (DenseRows, list, tuple)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]   # stands for a list

    def __repr__(self) -> str:
        return f"DenseRows({len(self)} rows of {len(self._cols)})"

    def marshalled(self, start: int, stop: int) -> bytes | None:
        """`marshal.dumps(list(self[start:stop]), 2)` without decoding a row: format 2 has no
        back-references, so a list of tuples is its header, then per row a tuple header and each
        value's own bytes, read from a table of each symbol's bytes. None where a value has no
        marshal form (the caller encodes those rows its own way)."""
        codes = self._value_codes()
        if codes is None:
            return None
        stop = min(stop, len(self))
        m = max(0, stop - start)
        first, lead = codes
        grid = np.empty((m, len(self._cols)), dtype=object)
        for j, c in enumerate(self._cols):
            grid[:, j] = (lead if j == 0 else first)[c[start:stop]]
        return b"[" + struct.pack("<i", m) + b"".join(grid.ravel().tolist())

    def _value_codes(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Each symbol's marshal bytes, and the same led by a row's tuple header (for column 0)."""
        if self._codes is None:
            values = self._values
            used = range(len(values)) if len(values) <= len(self) * len(self._cols) else \
                np.unique(np.concatenate(self._cols)).tolist()
            codes, lead = np.empty(len(values), dtype=object), np.empty(len(values), dtype=object)
            header = b"(" + struct.pack("<i", len(self._cols))
            try:
                for i in used:
                    codes[i] = marshal.dumps(values[i], 2)
                    lead[i] = header + codes[i]
            except ValueError:
                return None
            self._codes = (codes, lead)
        return self._codes


def contradictions(model: DenseModel, key: str) -> list[tuple[Any, ...]]:
    """Argument tuples held both in relation `key` ('~p/n') and in its positive twin."""
    neg, pos = model.tables.get(key), model.tables.get(key[1:])
    if neg is None or pos is None or not neg.n or not pos.n:
        return []
    both = neg.keys[pos.contains(neg.keys)]
    values = model.symbols.values
    cols = [c.tolist() for c in decode_key(both, neg.radix, neg.arity)]
    return [tuple(values[i] for i in ids) for ids in zip(*cols)] if cols else [()] * len(both)

