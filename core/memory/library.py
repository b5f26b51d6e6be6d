"""Documents in a workspace: load (chunk, embed, store with offsets), list, and search by meaning.

Re-loading a file replaces its chunks: new chunks are written (same ids overwrite) and chunks
left over from a longer earlier version removed, in one transaction of the workspace's store.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.events import DocumentsChanged, Emit, ignore
from sym.core.files import DEFAULT_LIMIT_MB
from sym.core.memory.store import ChromaStore, Hit, Record

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager
    from threading import Event

    from sym.core.memory.local import LocalStore


@dataclass(frozen=True)
class DocumentInfo:
    id: str
    name: str
    path: str
    chunks: int
    chars: int
    loaded_at: float

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "path": self.path, "chunks": self.chunks, "chars": self.chars}


def require_store(store: ChromaStore | LocalStore | None) -> ChromaStore | LocalStore:
    if store is None:
        raise UserError("this memory is not stored in a workspace", hint="run sym with a workspace (the default)")
    return store


def load(store: ChromaStore | LocalStore | None, path: Path, *, progress: Callable[[int, int], object] | None = None,
         limit_mb: float = DEFAULT_LIMIT_MB, emit: Emit = ignore) -> tuple[DocumentInfo, int]:
    """Store a document's chunks; returns its info and how many chunks it had before (0 if new),
    and emits DocumentsChanged once they are stored. Only a regular file of at most `limit_mb` MB
    is read (a FIFO or device is a UserError)."""
    from sym.core.memory.documents import chunk_id, load_document

    store = require_store(store)
    doc = load_document(path, limit_mb=limit_mb, progress=progress)
    before = [r for r in store.all("docs") if r.meta.get("doc_id") == doc.id]
    now = time.time()
    records = [Record(chunk_id(doc.id, c.index), c.text,
                      {"doc_id": doc.id, "name": doc.name, "path": doc.path, "index": c.index,
                       "start": c.start, "end": c.end, "chars": doc.chars, "loaded_at": now})
               for c in doc.chunks]
    stale = [r.id for r in before if r.meta.get("index", 0) >= len(doc.chunks)]
    with _unit(store):          # the new chunks and the removal of stale ones: one transaction
        store.add("docs", records, progress=progress)
        if stale:
            store.delete("docs", stale)
    emit(DocumentsChanged(store.workspace, tuple(documents(store))))
    return DocumentInfo(doc.id, doc.name, doc.path, len(doc.chunks), doc.chars, now), len(before)


def _unit(store: ChromaStore | LocalStore) -> AbstractContextManager[object]:
    from contextlib import nullcontext

    return store.unit() if hasattr(store, "unit") else nullcontext()


def documents(store: ChromaStore | LocalStore | None) -> list[DocumentInfo]:
    """The stored documents, oldest first (an embedded workspace counts its chunks in SQL, never
    reading their text)."""
    if store is None:
        return []
    snapshot = getattr(store, "snapshot", None)
    if snapshot is not None:
        return sorted((DocumentInfo(doc_id or "?", name or "?", path or "?", chunks, int(chars or 0),
                                    float(loaded_at or 0.0))
                       for doc_id, name, path, chunks, chars, loaded_at in snapshot.document_rows()),
                      key=lambda d: d.loaded_at)
    by_doc: dict[str, list[Record]] = {}
    for r in store.all("docs"):
        by_doc.setdefault(r.meta.get("doc_id", "?"), []).append(r)
    out = []
    for doc_id, chunks in by_doc.items():
        m = chunks[0].meta
        out.append(DocumentInfo(doc_id, m.get("name", "?"), m.get("path", "?"), len(chunks), int(m.get("chars", 0)),
                                float(m.get("loaded_at", 0.0))))
    return sorted(out, key=lambda d: d.loaded_at)


KIND_NAMES = {"facts": "facts", "rules": "rules", "docs": "docs", "fact": "facts", "rule": "rules",
              "doc": "docs", "documents": "docs"}


# What reasoning reads (grounding, the truth refiner) must not depend on how far the background
# writer has got — a replay must build the same prompts — so it waits for it, within reason.
SETTLED_WAIT = 60.0


def settled_search(store: ChromaStore | LocalStore | None, text: str, kinds: tuple[str, ...], k: int) -> list[Hit]:
    """`search` after the background writer has embedded what is pending (up to SETTLED_WAIT s)."""
    return search(store, text, kinds=kinds, k=k, wait=SETTLED_WAIT)


def search(store: ChromaStore | LocalStore | None, text: str, *, kinds: tuple[str, ...] = ("facts", "rules", "docs"),
           k: int = 5, wait: float | None = 2.0, cancel: Event | None = None,
           progress: Callable[[int, int], object] | None = None) -> list[Hit]:
    """Hits by meaning. An embedded workspace first waits up to `wait` seconds (None: until
    done, or `cancel` is set) for its background writer to embed what is pending."""
    if not text.strip():
        raise UserError("nothing to search for", hint="/search who is the father of don")
    store = require_store(store)
    if isinstance(store, ChromaStore):
        return store.search(text, kinds, k)
    return store.search(text, kinds, k, wait=wait, cancel=cancel, progress=progress)
