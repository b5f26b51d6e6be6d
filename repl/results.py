"""Result objects commands return. They carry data only; `render` turns them into text or JSON.

Every result has a `kind` and a `to_dict()` (the --json form). No result prints anything.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from sym.core.logic.engine import Inference, Violation
from sym.core.logic.provenance import ProofNode
from sym.core.memory.bindings import Bindings
from sym.core.memory.working import Answer, Item
from sym.sessions.bounds import bound_payload, bound_with_columns

LOG_ROWS = 1_000    # an answer with more bindings is logged bounded (see Answered.log_dict)


def _value(v: object) -> object:
    return v if isinstance(v, (int, float)) else str(v)


@dataclass
class Result:
    kind: ClassVar[str] = "result"

    def to_dict(self) -> dict:
        return {}

    def log_dict(self) -> dict:
        """What the session log keeps (and replay compares): the whole `to_dict()` unless a result
        says how to bound itself as it is produced."""
        return self.to_dict()

    def log_payload(self, command: str) -> dict:
        """What the session log writes of this result as the output of `command` (and a replay
        compares): `log_dict()` with the command, bounded (sessions.bounds)."""
        return bound_payload({"command": command, "ok": self.ok, "kind": self.kind, **self.log_dict()})

    @property
    def ok(self) -> bool:
        return True


@dataclass
class Added(Result):
    kind: ClassVar[str] = "added"
    items: list[Item]
    duplicates: int = 0
    source: str | None = None          # file name for /consult
    answers: list[Answer] = field(default_factory=list)  # queries found in a consulted file
    notes: list[str] = field(default_factory=list)       # schema remarks
    warnings: list[str] = field(default_factory=list)    # what the new items made inconsistent
    rows: int | None = None            # a consulted table: the rows it had (bad ones included)
    relation: str | None = None        # … the relation they fill (edge/2)
    loaded: int | None = None          # … the rows loaded straight into a relational backend (no items)

    def to_dict(self) -> dict:
        return {"added": [it.to_dict() for it in self.items], **self._about()}

    def log_payload(self, command: str) -> dict:
        """As `Result.log_payload`; many items are digested from their strings without a dict each
        (the same digest: "added" sorts before every other key)."""
        if len(self.items) >= 1_000 and type(self).log_dict is Result.log_dict and type(self).to_dict is Added.to_dict:
            about = {"command": command, "ok": self.ok, "kind": self.kind, **self._about()}
            items = self.items
            logged = bound_with_columns(about, "added", {
                "id": [it.id for it in items], "kind": [it.kind for it in items], "nl": [it.nl for it in items],
                "source": [it.source for it in items], "text": [it.text for it in items]})
            if logged is not None:
                return logged
        return super().log_payload(command)

    def _about(self) -> dict:
        out: dict = {"duplicates": self.duplicates}
        if self.rows is not None:
            out["rows"], out["relation"] = self.rows, self.relation
        if self.loaded is not None:
            out["loaded"] = self.loaded
        if self.notes:
            out["notes"] = self.notes
        if self.warnings:
            out["warnings"] = self.warnings
        if self.source:
            out["source"] = self.source
        if self.answers:
            out["answers"] = [Answered(a).to_dict() for a in self.answers]
        return out


@dataclass
class Answered(Result):
    kind: ClassVar[str] = "answer"
    answer: Answer
    max_answers: int = 50

    def to_dict(self) -> dict:
        a = self.answer
        out: dict = {"query": str(a.query), "complete": a.complete}
        if a.truth is not None:
            out["truth"] = a.truth
        else:
            out["variables"] = a.variables
            out["bindings"] = [{k: _value(v) for k, v in b.items()} for b in a.bindings]
            out["count"] = len(a.bindings)
        return out

    def log_dict(self) -> dict:
        """Up to LOG_ROWS bindings as `to_dict()` has them; more are logged as the ones shown, the
        count and a sha256 of every row, computed from the engine's rows without a dict each."""
        a = self.answer
        if a.truth is not None or len(a.bindings) <= LOG_ROWS:
            return self.to_dict()
        rows = a.bindings.rows if isinstance(a.bindings, Bindings) else [tuple(b.values()) for b in a.bindings]
        digest = hashlib.sha256()
        marshalled = getattr(rows, "marshalled", None)   # rows kept as columns: their bytes without a tuple each
        for start in range(0, len(rows), 10_000):
            chunk = marshalled(start, start + 10_000) if marshalled is not None else None
            digest.update(chunk if chunk is not None else _row_bytes(rows[start:start + 10_000]))
        shown = [{k: _value(v) for k, v in b.items()} for b in a.bindings[:self.max_answers]]
        return {"query": str(a.query), "complete": a.complete, "variables": a.variables, "bindings": shown,
                "count": len(rows), "rows_sha256": digest.hexdigest()}


def _row_bytes(rows: Sequence[tuple[object, ...]]) -> bytes:
    """Rows as bytes to digest: marshal's format 2 (no back-references, so equal values give equal
    bytes whatever objects hold them; only ever written, never read) for atoms and numbers, JSON
    for rows holding anything else."""
    try:
        return marshal.dumps(list(rows), 2)
    except ValueError:
        return json.dumps(list(rows), default=str, ensure_ascii=True).encode()


@dataclass
class Inferred(Result):
    kind: ClassVar[str] = "inference"
    inference: Inference

    def to_dict(self) -> dict:
        i = self.inference
        return {"steps": i.steps, "derived": i.derived, "complete": i.complete,
                "violations": [violation_dict(v) for v in i.violations]}


def violation_dict(v: Violation) -> dict:
    return {"constraint": v.constraint_id, "facts": [str(f) for f in v.facts], "text": str(v)}


@dataclass
class Proofs(Result):
    kind: ClassVar[str] = "proof"
    trees: list[ProofNode]
    items: dict[str, Item]             # ids of the asserted facts and rules the trees use
    open_world: bool = False
    passages: dict[str, dict] = field(default_factory=dict)   # item id -> the document passage it was read from

    def to_dict(self) -> dict:
        out = {"proofs": [t.to_dict() for t in self.trees],
               "rules": {i: it.text for i, it in self.items.items() if it.kind != "fact"}}
        return out | ({"passages": self.passages} if self.passages else {})


@dataclass
class Listing(Result):
    kind: ClassVar[str] = "listing"
    items: list[Item]
    derived: list[str] = field(default_factory=list)     # a page of the derived facts
    derived_count: int | None = None    # how many derived facts there are in all (None: the page is all)
    offset: int = 0                     # how many come before the page
    pred: str | None = None             # the predicate listed (for the command that shows the next page)

    @property
    def paged(self) -> bool:
        """Whether the derived facts shown are not all there are."""
        return self.derived_count is not None and (self.offset > 0 or len(self.derived) < self.derived_count)

    def to_dict(self) -> dict:
        out: dict = {"items": [it.to_dict() for it in self.items]}
        if self.derived:
            out["derived"] = self.derived
        if self.paged:
            out["derived_count"], out["offset"] = self.derived_count, self.offset
        return out


@dataclass
class Forgotten(Result):
    kind: ClassVar[str] = "forgotten"
    items: list[Item]

    def to_dict(self) -> dict:
        return {"removed": [it.to_dict() for it in self.items]}


@dataclass
class Table(Result):
    """Rows of (name, value, note) — settings, summaries."""

    kind: ClassVar[str] = "table"
    title: str
    rows: list[tuple[str, object, str]]

    def to_dict(self) -> dict:
        return {"title": self.title, "rows": {name: _value(v) if v is not None else None for name, v, _ in self.rows}}


@dataclass
class HelpText(Result):
    kind: ClassVar[str] = "help"
    entries: list[tuple[str, str, str]]   # (usage, summary, details)
    detailed: bool = False

    def to_dict(self) -> dict:
        return {"commands": [{"usage": u, "summary": s, **({"details": d} if self.detailed else {})}
                             for u, s, d in self.entries]}


@dataclass
class Message(Result):
    kind: ClassVar[str] = "message"
    text: str
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"message": self.text, **self.data}


@dataclass
class Exit(Result):
    kind: ClassVar[str] = "exit"


@dataclass
class Failure(Result):
    kind: ClassVar[str] = "error"
    message: str
    hint: str | None = None
    exit_code: int = 1

    @property
    def ok(self) -> bool:
        return False

    @property
    def cancelled(self) -> bool:
        """The user stopped the job (Esc / Ctrl+C): told as "cancelled", not as an error."""
        return self.exit_code == 130

    def to_dict(self) -> dict:
        out = {"error": self.message}
        if self.hint:
            out["hint"] = self.hint
        return out


@dataclass
class Hits(Result):
    kind: ClassVar[str] = "search"
    query: str
    hits: list  # core.memory.store.Hit
    embedded: tuple | None = None   # (records embedded, records in all) while the vector store catches up

    def to_dict(self) -> dict:
        return {"query": self.query, **({"embedded": list(self.embedded)} if self.embedded else {}), "hits": [
            {"kind": h.kind, "id": h.id, "text": h.text, "score": round(h.score, 4),
             "source": h.meta.get("source") or h.meta.get("name"),
             **({"start": h.meta["start"], "end": h.meta["end"]} if "start" in h.meta else {})}
            for h in self.hits]}
