"""Columnar relations for the dense evaluator: constants interned to small ints, the facts of a
relation held as numpy columns, membership by a bitmap (small key spaces) or by sorted keys,
and the vectorised index lookups that joins are made of. This room knows nothing of rules,
strata or provenance.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterable
from itertools import chain, filterfalse
from typing import Any

import numpy as np

Index = tuple[str, np.ndarray, np.ndarray]   # ("csr", offsets, permutation) | ("sorted", sorted keys, permutation)

BITMAP_LIMIT = 1 << 26     # key spaces up to this many slots may test membership in a byte map
BITMAP_SPREAD = 64         # … once the facts and keys tested are at least 1/64 of the space
MAX_KEY = 1 << 62          # keys are int64: the key space of any relation must stay below this
CSR_LIMIT = 1 << 24        # single-column indexes over at most this many symbols use offsets


_trim: list[object] = []    # glibc's malloc_trim, or None, found on first use


def release_freed() -> None:
    """Hand the C heap's free pages back to the system: glibc keeps what numpy's temporaries
    freed (after a large inference, more than the model holds); a no-op without glibc."""
    if not _trim:
        try:
            _trim.append(getattr(ctypes.CDLL(None), "malloc_trim", None))
        except OSError:
            _trim.append(None)
    trim = _trim[0]
    if callable(trim):
        trim(0)


class Symbols:
    """Constants <-> ids. Ids are dense (0..n-1), in the order values are first interned (where
    rows of ints are encoded, their new values in increasing order)."""

    def __init__(self) -> None:
        self.ids: dict[Any, Any] = {}
        self.values: list[Any] = []

    def __len__(self) -> int:
        return len(self.values)

    def intern(self, value: object) -> int:
        i = self.ids.get(value)
        if i is None:
            i = self.ids[value] = len(self.values)
            self.values.append(value)
        return i

    def copy(self) -> Symbols:
        """The same ids, in a table of their own (a model's, which the fact base's may outgrow)."""
        out = Symbols()
        out.ids, out.values = self.ids.copy(), self.values.copy()
        return out

    def encode(self, column: Iterable[Any]) -> np.ndarray:
        """Ids for a column of values, interning the new ones."""
        column = column if isinstance(column, (list, tuple)) else list(column)
        return self.encode_rows([(v,) for v in column], 1)[0] if column else np.zeros(0, dtype=np.int64)

    def encode_rows(self, rows: list[tuple[Any, ...]], arity: int) -> list[np.ndarray]:
        """The id columns of rows of `arity` values, interning the new ones. Rows of plain ints are
        encoded in numpy, only their distinct values looked up; others in C loops but the one over
        distinct new values."""
        if not arity:
            return []
        if len(rows) > 64 and set(map(type, chain.from_iterable(rows))) == {int}:
            try:
                ints = np.array(rows, dtype=np.int64)
            except OverflowError:   # beyond 64 bits: as any other value
                pass
            else:
                encoded = self._encode_ints(ints.ravel()).reshape(len(rows), arity)
                return [encoded[:, p] for p in range(arity)]
        return [self._encode(col) for col in zip(*rows)]

    def _encode_ints(self, ints: np.ndarray) -> np.ndarray:
        """Ids for int64 values: their distinct values interned (new ones in increasing order), then
        mapped by a lookup table where the values span a narrow range, else by a sort."""
        low, high = int(ints.min()), int(ints.max())
        if high - low <= 4 * len(ints) + 1024:
            present = np.zeros(high - low + 1, dtype=bool)
            present[ints - low] = True
            distinct = np.flatnonzero(present)
            table = np.zeros(high - low + 1, dtype=np.int64)
            table[distinct] = self._encode((distinct + low).tolist(), distinct=True)
            found: np.ndarray = table[ints - low]
            return found
        values, inverse = np.unique(ints, return_inverse=True)
        ids: np.ndarray = self._encode(values.tolist(), distinct=True)[inverse.reshape(-1)]
        return ids

    def _encode(self, column: list[Any] | tuple[Any, ...], *, distinct: bool = False) -> np.ndarray:
        ids, values = self.ids, self.values
        unique: Iterable[Any] = column if distinct else dict.fromkeys(column)
        fresh = list(filterfalse(ids.__contains__, unique)) if ids else list(unique)
        ids.update(zip(fresh, range(len(values), len(values) + len(fresh))))
        values += fresh
        return np.fromiter(map(ids.__getitem__, column), dtype=np.int64, count=len(column))

    def order_ranks(self) -> tuple[np.ndarray, np.ndarray]:
        """(is_string, rank) per id: `<` holds between two ids of the same kind with lower rank."""
        values = self.values
        is_str = np.fromiter((isinstance(v, str) for v in values), dtype=bool, count=len(values))
        rank = np.empty(len(values), dtype=np.int64)
        strings = sorted((v, i) for i, v in enumerate(values) if isinstance(v, str))
        numbers = sorted((v, i) for i, v in enumerate(values) if not isinstance(v, str))
        for r, (_, i) in enumerate(numbers + strings):
            rank[i] = r
        return is_str, rank


def encode_key(columns: list[np.ndarray], radix: int, n: int) -> np.ndarray:
    """One int64 per row: the columns read as digits in base `radix` (zeros for no columns)."""
    if not columns:
        return np.zeros(n, dtype=np.int64)
    key = columns[0]
    for col in columns[1:]:
        key = key * radix + col
    return key if len(columns) > 1 else key.astype(np.int64, copy=False)


def decode_key(keys: np.ndarray, radix: int, arity: int) -> list[np.ndarray]:
    out = []
    for _ in range(arity):
        keys, digit = np.divmod(keys, radix)
        out.append(digit)
    return out[::-1]


class Columns:
    """A relation's asserted facts as id columns, kept as they are added (amortised doubling), so
    that a dense inference reads them without encoding the tuples again."""

    def __init__(self, arity: int) -> None:
        self.arity, self.n = arity, 0
        self._cols = np.zeros((arity, 16), dtype=np.int64)

    def col(self, p: int) -> np.ndarray:
        return self._cols[p, :self.n]

    def append(self, cols: list[np.ndarray], k: int) -> None:
        need = self.n + k
        if need > self._cols.shape[1]:
            grown = np.zeros((self.arity, max(need, 2 * self._cols.shape[1])), dtype=np.int64)
            grown[:, :self.n] = self._cols[:, :self.n]
            self._cols = grown
        for p, col in enumerate(cols):
            self._cols[p, self.n:need] = col
        self.n = need


class Table:
    """One relation: columns in amortised-doubling buffers, asserted facts first, then derived
    ones in the order they were found; keys (the whole tuple as one int) for membership."""

    def __init__(self, arity: int, radix: int) -> None:
        self.arity, self.radix, self.n = arity, radix, 0
        self._cols = np.zeros((arity, 16), dtype=np.int64)
        self._keys = np.zeros(16, dtype=np.int64)
        self.space = radix ** arity
        self.bitmap: np.ndarray | None = None      # made by `contains` when it pays
        self._sorted: np.ndarray | None = None   # sorted keys, kept up to date once built
        self._order: np.ndarray | None = None    # argsort of the keys, for `position`
        self._indexes: dict[tuple[int, ...], tuple[int, Index]] = {}

    def col(self, p: int) -> np.ndarray:
        return self._cols[p, :self.n]

    @property
    def keys(self) -> np.ndarray:
        return self._keys[:self.n]

    def append(self, cols: list[np.ndarray], keys: np.ndarray) -> None:
        k = len(keys)
        if not k:
            return
        need = self.n + k
        if need > len(self._keys):
            cap = max(need, 2 * len(self._keys))
            grown = np.zeros((self.arity, cap), dtype=np.int64)
            grown[:, :self.n] = self._cols[:, :self.n]
            self._cols = grown
            keys_grown = np.zeros(cap, dtype=np.int64)
            keys_grown[:self.n] = self._keys[:self.n]
            self._keys = keys_grown
        for p, col in enumerate(cols):
            self._cols[p, self.n:need] = col
        self._keys[self.n:need] = keys
        self.n = need
        if self.bitmap is not None:
            self.bitmap[keys] = True
        elif self._sorted is not None:
            self._sorted = np.sort(np.concatenate([self._sorted, np.sort(keys)]), kind="stable") if len(self._sorted) \
                else np.sort(keys)

    def extend(self, keys: np.ndarray, radix: int, check: Callable[[], object], stride: int = 1 << 20) -> None:
        """Append the facts with these keys, decoded and copied in pieces of `stride` with `check()`
        between (it may raise, a cancel: the table is then part-grown, and the model holding it is
        dropped). A table that will be large enough for a byte map (as `contains` would make next) gets
        it now; one that keeps its keys sorted instead takes them at once (a sort per piece would not pay)."""
        if self.bitmap is None and self.space <= min(BITMAP_LIMIT, BITMAP_SPREAD * (self.n + len(keys))):
            self.bitmap = np.zeros(self.space, dtype=bool)
            self.bitmap[self.keys] = True
            self._sorted = None
        if len(keys) <= stride or self._sorted is not None:
            self.append(decode_key(keys, radix, self.arity), keys)
            return
        self._reserve(self.n + len(keys))
        for start in range(0, len(keys), stride):
            check()
            part = keys[start:start + stride]
            self.append(decode_key(part, radix, self.arity), part)

    def _reserve(self, need: int) -> None:
        if need > len(self._keys):
            grown = np.zeros((self.arity, need), dtype=np.int64)
            grown[:, :self.n] = self._cols[:, :self.n]
            self._cols = grown
            keys_grown = np.zeros(need, dtype=np.int64)
            keys_grown[:self.n] = self._keys[:self.n]
            self._keys = keys_grown

    def contains(self, keys: np.ndarray) -> np.ndarray:
        """Which of `keys` are facts of this table."""
        if self.bitmap is None and self.space <= min(BITMAP_LIMIT, BITMAP_SPREAD * (self.n + len(keys))):
            self.bitmap = np.zeros(self.space, dtype=bool)
            self.bitmap[self.keys] = True
            self._sorted = None
        if self.bitmap is not None:
            found: np.ndarray = self.bitmap[keys]
            return found
        if self._sorted is None:
            self._sorted = np.sort(self.keys)
        return sorted_member(self._sorted, keys)

    def position(self, key: int) -> int:
        """The index of the fact with this key, or -1 (by binary search over the keys' order,
        built on first use: /why and lookups come after inference, when tables no longer grow)."""
        if self.bitmap is not None and not self.bitmap[key]:
            return -1
        if self._order is None or len(self._order) != self.n:
            self._order = np.argsort(self.keys, kind="stable")
        keys = self.keys
        at = int(np.searchsorted(keys[self._order], key)) if self.n < 64 else self._find(key)
        return int(self._order[at]) if at < self.n and keys[self._order[at]] == key else -1

    def _find(self, key: int) -> int:
        order, keys = self._order, self.keys
        assert order is not None   # set by `position`, the only caller
        lo, hi = 0, self.n
        while lo < hi:   # a scalar binary search: no gather of the whole sorted key column
            mid = (lo + hi) // 2
            if keys[order[mid]] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def index(self, positions: tuple[int, ...]) -> Index:
        """An index on some argument positions, rebuilt when the table has grown."""
        entry = self._indexes.get(positions)
        if entry is not None and entry[0] == self.n:
            return entry[1]
        cols = [self.col(p) for p in positions]
        if len(positions) == 1 and self.radix <= CSR_LIMIT:
            perm = np.argsort(cols[0], kind="stable")
            offsets = np.zeros(self.radix + 1, dtype=np.int64)
            np.cumsum(np.bincount(cols[0], minlength=self.radix), out=offsets[1:])
            idx = ("csr", offsets, perm)
        else:
            key = encode_key(cols, self.radix, self.n)
            perm = np.argsort(key, kind="stable")
            idx = ("sorted", key[perm], perm)
        self._indexes[positions] = (self.n, idx)
        return idx


def sorted_member(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=bool)
    at = np.searchsorted(sorted_keys, keys)
    at[at == len(sorted_keys)] = 0
    found: np.ndarray = sorted_keys[at] == keys
    return found


def lookup(idx: Index, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first match, number of matches) in the index for each key."""
    if idx[0] == "csr":
        offsets = idx[1]
        lo = offsets[keys]
        return lo, offsets[keys + 1] - lo
    skeys = idx[1]
    lo = np.searchsorted(skeys, keys, "left")
    return lo, np.searchsorted(skeys, keys, "right") - lo


def expand(lo: np.ndarray, count: np.ndarray, total: int) -> tuple[np.ndarray, np.ndarray]:
    """For `total` output rows: the input row each comes from and its position in the index."""
    rows = np.repeat(np.arange(len(count), dtype=np.int64), count)
    starts = np.cumsum(count) - count
    at = np.arange(total, dtype=np.int64) + np.repeat(lo - starts, count)
    return rows, at


def first_occurrences(keys: np.ndarray, space: int | None = None) -> np.ndarray:
    """Indices of the first occurrence of each distinct key, in their original order. With the
    key space known and small enough, key and index share one int64 and a plain sort does it."""
    n = len(keys)
    if n < 2:
        return np.arange(n)
    first = np.empty(n, dtype=bool)
    first[0] = True
    if space is not None and space * n < MAX_KEY:
        both = keys * n + np.arange(n, dtype=np.int64)
        both.sort()
        ranked = both // n
        np.not_equal(ranked[1:], ranked[:-1], out=first[1:])
        found = both[first] % n
        found.sort()
        return found
    order = np.argsort(keys, kind="stable")
    ranked = keys[order]
    np.not_equal(ranked[1:], ranked[:-1], out=first[1:])
    return np.sort(order[first])
