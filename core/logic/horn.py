"""Propositional Horn programs and their least model, built in linear time (Dowling–Gallier).

This room turns clauses over opaque atoms into the set of atoms they force, checks integrity
constraints, and reports violations; it must not parse text, unify terms, or do any work that
grows faster than the total size of the clauses.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

__all__ = ["Clause", "HornModel", "Inconsistent", "minimal_model"]

_BARE_ATOM = re.compile(r"[a-z][A-Za-z0-9_]*")


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
    propagation keeps, per clause, the number of distinct body atoms not yet true, and per
    atom the clauses whose body holds it, so every clause is touched once per body atom.
    A violated constraint raises `Inconsistent`, unless `partial` is set, in which case the
    result carries the violations and `consistent` is False.
    """
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
    for c in clauses:
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

    model = frozenset(true)
    if not violated:
        return HornModel(model)
    violated.sort()
    broken = tuple(constraints[i] for i in violated)
    if not partial:
        raise Inconsistent(broken, model)
    return HornModel(model, broken)
