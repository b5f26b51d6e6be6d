"""Propositional Horn programs and their least model, built in linear time (Dowling–Gallier).

This room turns clauses over opaque atoms into the set of atoms they force, checks integrity
constraints, and reports violations; it must not parse text, unify terms, or do any work that
grows faster than the total size of the clauses. Small programs are walked atom by atom; large
ones have their atoms numbered once and are propagated over numpy columns (same answers).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress, filterfalse, repeat
from operator import attrgetter, eq, is_, itemgetter
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import numpy as np


__all__ = ["Clause", "HornModel", "Inconsistent", "minimal_model"]

_BARE_ATOM = re.compile(r"[^\W\dA-Z_\u00C0-\u00D6\u00D8-\u00DE\u0391-\u03A9\u0410-\u042F]\w*")   # as grammar.lark's NAME


def _show_atom(atom: str) -> str:
    if _BARE_ATOM.fullmatch(atom):
        return atom
    return "'" + atom.replace("\\", "\\\\").replace("'", "\\'") + "'"


@dataclass(frozen=True, slots=True)
class Clause:
    """`head :- body.`; a fact when the body is empty, an integrity constraint when head is None."""

    head: str | None
    body: tuple[str, ...] = ()
    label: str | None = None

    def __post_init__(self) -> None:
        if type(self.body) is not tuple:
            object.__setattr__(self, "body", _as_body(self.body))

    def __str__(self) -> str:
        head = "" if self.head is None else _show_atom(self.head)
        if not self.body:
            return f"{head}." if head else ":- ."
        body = ", ".join(_show_atom(a) for a in self.body)
        return f"{head} :- {body}." if head else f":- {body}."


@dataclass(frozen=True)
class HornModel:
    """The least model of the definite clauses, and the integrity constraints it violates."""

    model: frozenset[str]
    violated: tuple[Clause, ...] = ()
    consistent: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "consistent", not self.violated)

    def holds(self, atom: str) -> bool:
        return atom in self.model

    __contains__ = holds

    def __len__(self) -> int:
        return len(self.model)


class Inconsistent(Exception):
    """Some integrity constraint has its whole body in the least model."""

    def __init__(self, violated: tuple[Clause, ...], model: frozenset[str]) -> None:
        self.violated = tuple(violated)
        self.model = model
        first = self.violated[0]
        name = f" {first.label}" if first.label is not None else ""
        more = f" (and {len(self.violated) - 1} more)" if len(self.violated) > 1 else ""
        super().__init__(f"integrity constraint{name} is violated: {first}{more}")

    def __reduce__(self) -> tuple[type[Inconsistent], tuple[tuple[Clause, ...], frozenset[str]]]:
        return (type(self), (self.violated, self.model))


def _as_body(body: Iterable[str]) -> tuple[str, ...]:
    # A bare string would silently become a body of its characters.
    if isinstance(body, str):
        raise TypeError(f"a clause body must be a sequence of atoms, not the string {body!r}")
    return tuple(body)


def _as_clause(c: object) -> Clause:
    if isinstance(c, Clause):
        return c
    if isinstance(c, (tuple, list)) and len(c) in (2, 3):
        return Clause(c[0], _as_body(c[1]), c[2] if len(c) == 3 else None)
    raise TypeError(f"expected a Clause or a (head, body) pair, got {c!r}")


def minimal_model(
    clauses: Iterable[Clause | tuple[str | None, Iterable[str]]], *, partial: bool = False
) -> HornModel:
    """Return the least model of `clauses` and check their integrity constraints.

    Each clause is a `Clause` or a `(head, body)` / `(head, body, label)` tuple. Unit
    propagation keeps, per clause, the number of body atoms not yet true, and per atom the
    clauses whose body holds it, so every clause is touched once per body atom.
    A violated constraint raises `Inconsistent`, unless `partial` is set, in which case the
    result carries the violations and `consistent` is False.
    """
    program: Sequence[object] = clauses if type(clauses) is list else list(clauses)
    found = _model_of_ids(program) if len(program) >= COLUMNAR_MIN else None
    model, broken = found if found is not None else _model_of_atoms(program)
    if not broken:
        return HornModel(model)
    if not partial:
        raise Inconsistent(broken, model)
    return HornModel(model, broken)


# -- small or unusual programs: one clause at a time, atoms as they come ------------------------


def _model_of_atoms(program: Sequence[object]) -> tuple[frozenset[str], tuple[Clause, ...]]:
    # The atom -> clauses index is a set of chains threaded through two flat int arrays:
    # occurrence j belongs to clause `owner[j]` and `older[j]` is the previous occurrence of
    # the same atom (-1 ends the chain); `newest[atom]` starts it. Flat arrays instead of one
    # list per atom spare the allocator and the garbage collector a million small objects.
    newest: dict[str, int] = {}
    owner = array("q")
    older = array("q")
    pending: list[int] = []  # clause index -> distinct body atoms not yet true
    heads: list[str | None] = []  # clause index -> head (None for a constraint)
    constraints: dict[int, Clause] = {}  # clause index -> the constraint, to report it
    true: set[str] = set()
    queue: list[str] = []  # atoms made true whose clauses are not yet told
    violated: list[int] = []

    last_seen = newest.get
    own = owner.append
    link = older.append
    pend = pending.append
    put_head = heads.append
    ci = 0
    j = 0
    for c in program:
        if type(c) is Clause:
            head = c.head
            body = c.body
        elif type(c) is tuple and len(c) == 2 and type(c[1]) is tuple:
            head, body = c[0], cast("tuple[str, ...]", c[1])   # checked just above
        else:
            c = _as_clause(c)
            head = c.head
            body = c.body
        first = j
        for atom in body:
            seen = last_seen(atom, -1)
            if seen >= first:  # already in this body: a repeated atom counts once
                continue
            own(ci)
            link(seen)
            newest[atom] = j
            j += 1
        unmet = j - first
        pend(unmet)
        put_head(head)
        if head is None:
            constraints[ci] = c if type(c) is Clause else Clause(None, body)
            if not unmet:
                violated.append(ci)
        elif not unmet and head not in true:
            true.add(head)
            queue.append(head)
        ci += 1

    make_true = true.add
    push = queue.append
    pop = queue.pop
    while queue:
        j = last_seen(pop(), -1)
        while j >= 0:
            ci = owner[j]
            j = older[j]
            unmet = pending[ci] - 1
            pending[ci] = unmet
            if not unmet:
                head = heads[ci]
                if head is None:
                    violated.append(ci)
                elif head not in true:
                    make_true(head)
                    push(head)

    violated.sort()
    return frozenset(true), tuple(constraints[i] for i in violated)


# -- large programs: atoms numbered once, propagation over columns ------------------------------
#
# Once a program outgrows the caches, what costs is not the propagation but finding each atom
# again: a dict lookup per occurrence is a few cache misses on the atom, the hash table and its
# entry. Here every occurrence is read once, for its address; sorting the addresses (a radix
# sort, so still linear) groups the occurrences of each atom without hashing them, and numbers
# the atoms. The propagation then works on int columns, a level of newly true atoms at a time.

COLUMNAR_MIN = 2048      # clauses; below this numpy's cost per call outweighs what it saves
_SMALL_LEVEL = 48        # atoms; fewer than this left to tell go through a plain loop

_HEAD = attrgetter("head")
_BODY = attrgetter("body")
_NONE = type(None)


def _model_of_ids(program: Sequence[object]) -> tuple[frozenset[str], tuple[Clause, ...]] | None:
    """The least model by numbered atoms, or None when the program is not all `Clause`s or all
    `(head, body-tuple)` pairs over string atoms (those go the plain way, with its errors)."""
    import numpy as np
    split = _heads_and_bodies(program)
    if split is None:
        return None
    heads, bodies = split
    n = len(program)
    pending = np.fromiter(map(len, bodies), np.int64, n)   # a repeated body atom counts each time
    size = n + int(pending.sum())
    occurrences: list[object] = []   # heads, then body atoms, in order; filled as `where` is read
    where = np.fromiter(map(id, filterfalse(occurrences.append, chain(heads, chain.from_iterable(bodies)))),
                        np.int64, size)
    numbered = _number_atoms(where, occurrences)   # `where` is used up
    del where, occurrences
    if numbered is None:
        return None
    order, atom_at, atoms = numbered

    # Head of each clause (-1 for a constraint) and, per atom, the clauses whose body holds it.
    at_head = order < n
    head_of = np.empty(n, np.int64)
    head_of[order[at_head]] = atom_at[at_head]
    if _NONE in set(map(type, atoms)):
        none = np.flatnonzero(np.fromiter(map(is_, atoms, repeat(None)), bool, len(atoms)))
        head_of[head_of == none[0]] = -1
    in_body = ~at_head
    watchers = np.repeat(np.arange(n, dtype=np.int64), pending)[order[in_body] - n]
    first_watcher = np.zeros(len(atoms) + 1, np.int64)
    np.cumsum(np.bincount(atom_at[in_body], minlength=len(atoms)), out=first_watcher[1:])

    true, broken = _propagate(watchers, first_watcher, head_of, pending)
    model = frozenset(cast("Iterator[str]", compress(atoms, true.tobytes())))
    violated = tuple(c if type(c) is Clause else Clause(None, cast("tuple[None, tuple[str, ...]]", c)[1])
                     for c in map(program.__getitem__, np.flatnonzero(broken).tolist()))
    return model, violated


def _heads_and_bodies(program: Sequence[object]) -> tuple[Iterator[object], list[tuple[object, ...]]] | None:
    kinds = set(map(type, program))
    if kinds == {tuple} and set(map(len, cast("Sequence[tuple[object, ...]]", program))) == {2}:
        pairs = cast("Sequence[tuple[object, tuple[object, ...]]]", program)
        heads: Iterator[object] = map(itemgetter(0), pairs)
        bodies: list[tuple[object, ...]] = list(map(itemgetter(1), pairs))
    elif kinds == {Clause}:
        heads = map(_HEAD, program)
        bodies = list(map(_BODY, program))
    else:
        return None
    return (heads, bodies) if set(map(type, bodies)) == {tuple} else None


def _number_atoms(where: np.ndarray, occurrences: list[object]) -> tuple[np.ndarray, np.ndarray, list[object]] | None:
    """Group the occurrences by atom, given their addresses `where` (overwritten): a permutation
    of them that brings each atom's together, the atom number at each place of it, and the atoms
    by number; None if an atom is not a string (a head may be None).

    Occurrences are grouped by object first, by address; equal strings that are distinct
    objects are then merged, which needs their hashes but only one per object.
    """
    import numpy as np
    key = np.right_shift(where, 4, out=where)   # live objects are at least 16 bytes apart
    key -= key.min()
    order = _radix_order(key, int(key.max()).bit_length())
    sorted_key = key[order]
    starts = np.empty(len(order), bool)
    starts[0] = True
    np.not_equal(sorted_key[1:], sorted_key[:-1], out=starts[1:])
    atom_at = np.cumsum(starts) - 1
    atoms = list(map(occurrences.__getitem__, order[starts].tolist()))
    if not set(map(type, atoms)) <= {str, _NONE}:
        return None
    same = _same_atoms(atoms)
    if same is not None:
        atom_at = same[atom_at]
        regroup = _radix_order(atom_at, len(atoms).bit_length())
        order = order[regroup]
        atom_at = atom_at[regroup]
    return order, atom_at, atoms


def _same_atoms(objects: list[object]) -> np.ndarray | None:
    """For each object the number of the first equal one, or None if no two are equal."""
    import numpy as np
    count = len(objects)
    low = np.fromiter(map(hash, objects), np.int64, count) & 0xFFFFFFFF
    by_hash = _radix_order(low, 32)
    low = low[by_hash]
    tied = low[1:] == low[:-1]
    if not tied.any():
        return None
    place = np.arange(count)
    run_start = np.maximum.accumulate(np.where(np.concatenate(([True], ~tied)), place, 0))
    later = by_hash[1:][tied]
    leader = by_hash[run_start[1:][tied]]
    pick = objects.__getitem__
    equal = np.fromiter(map(eq, map(pick, later.tolist()), map(pick, leader.tolist())), bool, len(later))
    same = place.copy()
    same[later[equal]] = leader[equal]
    first: dict[object, int] = {}
    for i in later[~equal].tolist():   # a clash of hash bits, not equal to the first of the run
        same[i] = first.setdefault(objects[i], i)
    return same if (same != place).any() else None


def _radix_order(keys: np.ndarray, bits: int) -> np.ndarray:
    """A stable permutation sorting non-negative int `keys` below 2**bits, in linear time:
    numpy sorts 8- and 16-bit keys by radix, so the keys go 16 bits at a time."""
    import numpy as np
    order = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    for shift in range(16, bits, 16):
        digit = (keys[order] >> shift) & 0xFFFF
        order = order[np.argsort(digit.astype(np.uint8 if bits - shift <= 8 else np.uint16), kind="stable")]
    return order


def _propagate(watchers: np.ndarray, first_watcher: np.ndarray, head_of: np.ndarray,
               pending: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit propagation a level at a time: the atoms made true by one level tell their clauses
    together, and the clauses they complete make the next level. Returns the true atoms and the
    violated constraints, as 0/1 columns. `pending` is used up."""
    import numpy as np
    n, atoms = len(head_of), len(first_watcher) - 1
    true = np.zeros(atoms, np.uint8)
    broken = np.zeros(n, np.uint8)
    fact = pending == 0
    broken[fact & (head_of < 0)] = 1
    true[head_of[fact & (head_of >= 0)]] = 1
    level = np.flatnonzero(true)
    slot = np.empty(atoms, np.int64)   # scratch to keep one copy of each atom of a level
    # A long thin derivation (a chain) would pay numpy's cost per call at every level; while the
    # atoms left to tell are few, a plain loop tells them one by one, over memoryviews of the
    # same columns, and hands what is left back as a level once it has grown.
    watchers_v: memoryview[int] = watchers.data
    first_v: memoryview[int] = first_watcher.data
    head_v: memoryview[int] = head_of.data
    pending_v: memoryview[int] = pending.data
    true_v: memoryview[int] = true.data
    broken_v: memoryview[int] = broken.data
    while len(level):
        if len(level) < _SMALL_LEVEL:
            work: list[int] = level.tolist()
            pop = work.pop
            push = work.append
            while work and len(work) < _SMALL_LEVEL:
                a = pop()
                for ci in watchers_v[first_v[a]:first_v[a + 1]]:
                    unmet = pending_v[ci] - 1
                    pending_v[ci] = unmet
                    if not unmet:
                        head = head_v[ci]
                        if head < 0:
                            broken_v[ci] = 1
                        elif not true_v[head]:
                            true_v[head] = 1
                            push(head)
            level = np.array(work, np.int64)
            continue
        begin = first_watcher[level]
        count = first_watcher[level + 1] - begin
        end = np.cumsum(count)
        told = watchers[np.arange(int(end[-1])) + np.repeat(begin - end + count, count)]
        np.subtract.at(pending, told, 1)
        done = told[pending[told] == 0]   # a clause told twice this level shows up twice
        heads = head_of[done]
        broken[done[heads < 0]] = 1
        heads = heads[heads >= 0]
        heads = heads[true[heads] == 0]
        true[heads] = 1
        mark = np.arange(len(heads))
        slot[heads] = mark
        level = heads[slot[heads] == mark]
    return true, broken
