"""Documents in a workspace: load (cut, store with offsets, embed later), list, find, preview,
remove, and search (keyword and meaning, fused: core.memory.retrieval).

Reloading a file stores only what changed: a passage's id comes from its text, so unchanged
passages keep theirs (and their vectors), new ones are added and gone ones removed, in one
transaction of the workspace's store. Removing a document takes all of its passages or none.
Each change emits DocumentsChanged with the documents held after it.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sym.core.errors import Cancelled, DiskFull, UserError
from sym.core.events import DocumentsChanged, Emit, ignore
from sym.core.files import DEFAULT_LIMIT_MB
from sym.core.memory.documents import load_document, passage_ids
from sym.core.memory.retrieval import RankedHit, best_snippet, hybrid_search, matches, query_terms, stem, with_similarity
from sym.core.memory.store import BackendUnavailable, ChromaStore, Hit, Record

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


@dataclass(frozen=True)
class Loaded:
    """What loading a file did: its document, and how many passages it had before (0: new),
    kept unchanged, added (new or changed) and removed."""

    info: DocumentInfo
    before: int
    kept: int
    added: int
    removed: int

    @property
    def unchanged(self) -> bool:
        return self.before > 0 and not self.added and not self.removed


def require_store(store: ChromaStore | LocalStore | None) -> ChromaStore | LocalStore:
    if store is None:
        raise UserError("this memory is not stored in a workspace", hint="run sym with a workspace (the default)")
    return store


def load(store: ChromaStore | LocalStore | None, path: Path, *, progress: Callable[[int, int], object] | None = None,
         limit_mb: float = DEFAULT_LIMIT_MB, emit: Emit = ignore) -> Loaded:
    """Store a document's passages, replacing only what changed since it was last loaded, and
    emit DocumentsChanged. Only a regular file of at most `limit_mb` MB is read (a FIFO or device
    is a UserError); a bad file changes nothing."""
    store = require_store(store)
    loaded = _store(store, path, progress, limit_mb)
    emit(DocumentsChanged(store.workspace, tuple(documents(store))))
    return loaded


def load_many(store: ChromaStore | LocalStore | None, paths: Sequence[Path | tuple[Path, str]], *,
              progress: Callable[[str, int, int], Callable[[int, int], object]] | None = None,
              limit_mb: float = DEFAULT_LIMIT_MB, emit: Emit = ignore) -> tuple[list[Loaded], list[tuple[Path, str]]]:
    """Load each of PATHS (or (path, document name) pairs), as one transaction: (what was loaded,
    (path, why) of each file that could not be read). `progress(name, i, n)` gives the callback
    for file i of n; a callback that raises (a cancel) stops it all and keeps nothing."""
    store = require_store(store)
    done: list[Loaded] = []
    skipped: list[tuple[Path, str]] = []
    with _unit(store):
        for number, entry in enumerate(paths, start=1):
            path, name = entry if isinstance(entry, tuple) else (entry, entry.name)
            step = progress(name, number, len(paths)) if progress is not None else None
            if step is not None:
                step(0, 1)                 # a cancel between files stops here
            try:
                with _unit(store):        # a file that fails leaves nothing of itself behind
                    done.append(_store(store, path, step, limit_mb, name))
            except (Cancelled, DiskFull, BackendUnavailable):
                raise                      # the store failed, not this file: stop, keep nothing
            except UserError as err:
                skipped.append((path, err.message))
    if done:
        emit(DocumentsChanged(store.workspace, tuple(documents(store))))
    return done, skipped


def _store(store: ChromaStore | LocalStore, path: Path, progress: Callable[[int, int], object] | None,
           limit_mb: float, name: str | None = None) -> Loaded:
    doc = load_document(path, limit_mb=limit_mb, progress=progress, name=name)
    total = len(doc.passages)
    step = progress if progress is not None else (lambda done, total: None)
    step(0, total)                      # a cancel between cutting and storing stops here
    before = {r.id: r for r in passages(store, doc.id)}
    ids = passage_ids(doc.id, doc.passages, progress=lambda done, total: step(0, total))
    step(0, total)
    now = time.time()
    records = []
    for n, (iid, p) in enumerate(zip(ids, doc.passages), start=1):
        records.append(Record(iid, p.text, {"doc_id": doc.id, "name": doc.name, "path": doc.path, "index": p.index,
                                            "start": p.start, "end": p.end, "byte_start": p.byte_start,
                                            "byte_end": p.byte_end, "heading": p.heading, "chars": doc.chars,
                                            "digest": doc.digest, "loaded_at": now}))
        if not n % 5_000:
            step(0, total)
    snapshot = getattr(store, "snapshot", None)
    kept = [r for r in records if r.id in before] if snapshot is not None else []
    fresh = [r for r in records if r.id not in before] if snapshot is not None else records
    wanted = {r.id for r in records}
    stale = [i for i in before if i not in wanted]
    with _unit(store):          # new passages, moved ones and the removal of gone ones: one transaction
        store.add("docs", fresh, progress=progress)
        if kept and snapshot is not None:
            snapshot.update_meta("docs", kept)     # same text, same vector: only where it sits changed
        if stale:
            store.delete("docs", stale)
    unchanged = len(records) - len(wanted - before.keys())
    return Loaded(DocumentInfo(doc.id, doc.name, doc.path, len(records), doc.chars, now), len(before),
                  unchanged, len(records) - unchanged, len(stale))


def _unit(store: ChromaStore | LocalStore) -> AbstractContextManager[object]:
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


def find(store: ChromaStore | LocalStore | None, ref: str) -> DocumentInfo:
    """A loaded document by name, id, path, or the end of its path (`guide/intro.md`); a name
    two documents share is refused with their paths."""
    ref = ref.strip()
    held = documents(store)
    if not ref:
        raise UserError("name a document", hint="/docs lists them")
    matchers: list[Callable[[DocumentInfo], bool]] = [
        lambda d: d.id == ref or d.path == ref, lambda d: d.name == ref,
        lambda d: d.path.endswith("/" + ref.lstrip("/")), lambda d: d.name.lower() == ref.lower()]
    for match in matchers:
        found = [d for d in held if match(d)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            paths = ", ".join(d.path for d in found[:3]) + (" …" if len(found) > 3 else "")
            raise UserError(f"{len(found)} loaded documents are named {ref!r} ({paths})",
                            hint="name one by more of its path, or by its id (/docs lists them)")
    names = [d.name for d in held]
    close = difflib.get_close_matches(ref, names, n=1)
    hint = f"did you mean {close[0]}?" if close else ("/docs lists them" if names else "none is loaded (/load FILE)")
    raise UserError(f"no loaded document {ref!r}", hint=hint)


def passages(store: ChromaStore | LocalStore, doc_id: str) -> list[Record]:
    """A document's passages in document order."""
    snapshot = getattr(store, "snapshot", None)
    if snapshot is not None:
        return list(snapshot.document_records(doc_id))
    return sorted((r for r in store.all("docs") if r.meta.get("doc_id") == doc_id),
                  key=lambda r: int(r.meta.get("index", 0)))


def remove(store: ChromaStore | LocalStore | None, doc: DocumentInfo, *, emit: Emit = ignore) -> list[str]:
    """Remove a document and all its passages (one transaction: all or nothing); returns their ids."""
    store = require_store(store)
    ids = [r.id for r in passages(store, doc.id)]
    with _unit(store):
        store.delete("docs", ids)
    emit(DocumentsChanged(store.workspace, tuple(documents(store))))
    return ids


def source_document(source: str) -> str | None:
    """The document an item's source names: `tell:NAME` (/tell --from), `llm:extract:NAME`
    (/extract --from), either behind `soft:`; None for any other source."""
    for prefix in ("soft:", "llm:"):
        source = source[len(prefix):] if source.startswith(prefix) else source
    for prefix in ("tell:", "extract:"):
        if source.startswith(prefix) and source[len(prefix):].strip():
            return source[len(prefix):]
    return None


def passage_for(store: ChromaStore | LocalStore | None, source: str, sentence: str,
                words: Sequence[str] = ()) -> Record | None:
    """The passage of a loaded document an item was read from: the one holding its sentence (an
    item told from the document keeps it as its NL form), else the one holding the most of WORDS
    (an extracted fact's names), at least one; None when the source names no loaded document or
    no passage fits."""
    name = source_document(source)
    if store is None or name is None:
        return None
    try:
        doc = find(store, name)
    except UserError:
        return None
    held = passages(store, doc.id)
    wanted = " ".join(sentence.split())
    if wanted:
        found = [r for r in held if wanted in " ".join(r.text.split())]
        if found:
            return found[0]
    terms = query_terms(" ".join(words))
    scored = [(len({stem(r.text[s:e]) for s, e in matches(r.text, terms)}), -n, r) for n, r in enumerate(held)]
    best = max(scored, key=lambda x: x[:2], default=None)
    return best[2] if best is not None and best[0] > 0 else None


def read_from(store: ChromaStore | LocalStore | None, items: Iterable[Any]) -> dict[str, dict[str, str]]:
    """For each of ITEMS (working-memory items: id, source, nl, text) read from a loaded document,
    the passage it came from: {item id: {cite, heading, snippet, passage (its id), document}}, the
    snippet at the item's sentence (or, for an extracted fact, its names) with matched words «marked»."""
    out: dict[str, dict[str, str]] = {}
    for item in items:
        if source_document(item.source) is None:
            continue
        words = [item.text]
        found = passage_for(store, item.source, item.nl, words)
        if found is None:
            continue
        snippet = best_snippet(found.text, query_terms(item.nl or item.text))[0]
        out[item.id] = {"cite": citation(found.meta), "heading": str(found.meta.get("heading") or ""),
                        "snippet": snippet, "passage": found.id, "document": str(found.meta.get("name", ""))}
    return out


def citation(meta: Any) -> str:
    """How a passage is cited: `notes.txt ¶3` (its place in the document, counted from 1)."""
    return f"{meta.get('name', '?')} ¶{int(meta.get('index', 0)) + 1}"


KIND_NAMES = {"facts": "facts", "rules": "rules", "docs": "docs", "fact": "facts", "rule": "rules",
              "doc": "docs", "documents": "docs"}


# What reasoning reads (grounding, the truth refiner) must not depend on how far the background
# writer has got — a replay must build the same prompts — so it waits for it, within reason.
SETTLED_WAIT = 60.0


def settled_search(store: ChromaStore | LocalStore | None, text: str, kinds: tuple[str, ...], k: int) -> list[Hit]:
    """`search` after the background writer has embedded what is pending (up to SETTLED_WAIT s),
    each hit scored by its cosine similarity to TEXT (callers compare it with thresholds)."""
    hits = search(store, text, kinds=kinds, k=k, wait=SETTLED_WAIT, snippets=False)   # read, never shown
    return list(with_similarity(hits, text, require_store(store).embedder))


def search(store: ChromaStore | LocalStore | None, text: str, *, kinds: tuple[str, ...] = ("facts", "rules", "docs"),
           k: int = 5, wait: float | None = 2.0, cancel: Event | None = None,
           progress: Callable[[int, int], object] | None = None, snippets: bool = True) -> list[RankedHit]:
    """The K best records for TEXT: document passages ranked by keyword (BM25) and by meaning,
    fused, facts and rules by meaning. An embedded workspace first waits up to `wait` seconds
    (None: until done, or `cancel` is set) for its background writer to embed what is pending.
    `snippets` False: passages without a snippet (for a caller that reads them, never shows them)."""
    if not text.strip():
        raise UserError("nothing to search for", hint="/search who is the father of don")
    return hybrid_search(require_store(store), text, kinds, k, wait=wait, cancel=cancel, progress=progress,
                         snippets=snippets)
