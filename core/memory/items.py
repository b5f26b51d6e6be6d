"""What an item is: one asserted fact, rule or constraint with its id, and how a bulk add or an
open makes 100k of them at the speed of the data.

A plain ground fact (`parent_of(p5, p1).`: bare lower-case atoms and integers) has its canonical
text written here without the general printer (core.memory.persist reads it back through the
parser's own fast path); anything else goes through `clause_text`. An item made in bulk skips the frozen
dataclass's `__init__` (one `object.__setattr__` per field) and holds the same fields.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sym.core.logic.terms import RESERVED, Atom, Rule, clause_text

SOFT = "soft:"   # source prefix of soft rules ("soft:tell", "soft:llm")


@dataclass(frozen=True)
class Item:
    """One asserted fact, rule or constraint."""

    id: str
    kind: str                 # fact | rule | constraint
    clause: Atom | Rule
    nl: str = ""
    source: str = "typed"     # typed, FILE:LINE, tell, llm, …
    created_at: float = field(default_factory=time.time)

    @cached_property
    def text(self) -> str:
        return clause_text(self.clause)

    @property
    def soft(self) -> bool:
        """A soft rule: kept with its NL form and premises, applied by the LLM, never by the engine."""
        return self.source.startswith(SOFT)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "text": self.text, "nl": self.nl,
                "source": self.source, "created_at": self.created_at}


_new = object.__new__


def made(iid: str, kind: str, clause: Atom | Rule, nl: str, source: str, created_at: float, text: str) -> Item:
    """`Item(iid, kind, clause, nl, source, created_at)` with its text known, built without the
    frozen `__init__`: equal to the one `Item(...)` makes, field for field."""
    item = _new(Item)
    item.__dict__.update(id=iid, kind=kind, clause=clause, nl=nl, source=source, created_at=created_at, text=text)
    return item


def item_id(clause: Atom | Rule, text: str | None = None) -> str:
    """A stable id from the clause's canonical text (`text` if known): same clause, same id, in every session."""
    kind = "f" if isinstance(clause, Atom) else ("c" if clause.head is None else "r")
    # 12 hex digits (48 bits): ids stay short to type (a unique prefix is enough) while a
    # collision between two different clauses is unlikely below ~10^7 items per workspace
    return kind + hashlib.sha1((clause_text(clause) if text is None else text).encode()).hexdigest()[:12]


_NAME = re.compile(r"[a-z][A-Za-z0-9_]*\Z")                       # an atom the printer leaves bare (ASCII)
_NAMES = re.compile(r"[a-z][A-Za-z0-9_]*(?:, [a-z][A-Za-z0-9_]*)*\Z")
_bare: dict[str, bool] = {}                                      # predicate name -> printed bare


def _bare_name(name: str) -> bool:
    known = _bare.get(name)
    if known is None:
        known = _bare[name] = _NAME.match(name) is not None and name not in RESERVED
        if len(_bare) > 65_536:
            _bare.clear()
    return known


def text_of(clause: Atom | Rule) -> str:
    """`clause_text(clause)`: for a plain ground fact written directly, for anything else printed."""
    if type(clause) is Atom:
        pred, args, neg = clause
        if not neg and args and _bare_name(pred):
            inner: str | None
            try:
                inner = ", ".join(args)          # every argument a string
            except TypeError:
                inner = _with_numbers(args)
            else:
                if (_NAMES.match(inner) is None or inner.count(",") != len(args) - 1
                        or not RESERVED.isdisjoint(args)):
                    inner = None
            if inner is not None:
                return f"{pred}({inner})."
    return clause_text(clause)


def _with_numbers(args: tuple[Any, ...]) -> str | None:
    """The arguments printed, where each is a bare atom or an integer; else None."""
    parts = []
    for a in args:
        kind = type(a)
        if kind is int:
            if not -10 ** 18 < a < 10 ** 18:
                return None          # (Python refuses to print integers of over 4,300 digits)
            parts.append(repr(a))
        elif kind is str and _NAME.match(a) is not None and a not in RESERVED:
            parts.append(a)
        else:
            return None
    return ", ".join(parts)
