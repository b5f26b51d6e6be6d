"""The store of an embedded workspace: records in SQLite at once, their vectors in Chroma after.

`LocalStore` answers the calls the rest of sym makes of a store (add, delete, all, count,
search, embedder) from the snapshot (core.memory.snapshot), the store of record; Chroma is
opened only when something is searched or the background writer (core.memory.backlog) has
rows to embed. A Chroma that cannot be opened is one line naming `sym repair`.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.events import Emit, ignore
from sym.core.logic.terms import Query
from sym.core.memory.backlog import Backlog
from sym.core.memory.persist import row_record
from sym.core.memory.snapshot import Snapshot, queue_everything
from sym.core.memory.snapshot import connect as connect_snapshot
from sym.core.memory.store import KINDS, ChromaStore, Hit, Record, connect

if TYPE_CHECKING:
    from threading import Event

    from sym.core.logic.terms import Atom, Rule
    from sym.core.memory.embedders import Embedder
    from sym.core.memory.snapshot import Progress
    from sym.core.memory.working import Item


class VectorStoreBroken(UserError):
    """Chroma cannot be opened or written; the items themselves are safe in the snapshot."""


def broken(workspace: str, reason: str) -> VectorStoreBroken:
    reason = reason.strip().splitlines()[0] if reason.strip() else "unknown error"
    return VectorStoreBroken(f"workspace {workspace}: the vector store cannot be opened ({reason[:160]}); "
                             f"run: sym repair {workspace}")


class LocalStore:
    def __init__(self, workspace: str, snapshot: Snapshot, chroma_dir: Path, embedder: Embedder, *, emit: Emit = ignore,
                 background: bool = True) -> None:
        self.workspace, self.snapshot, self.chroma_dir = workspace, snapshot, chroma_dir
        self.embedder = embedder
        self.emit = emit
        self.background = background           # embed after every commit (else only when a search waits)
        # the memory's parsed clause of an item id (saves a parse)
        self.clause_of: Callable[[str], Atom | Rule | None] = lambda iid: None
        self._vectors: ChromaStore | None = None
        self._opening = threading.Lock()       # the background writer and a search may open Chroma together
        self.backlog = Backlog(self)
        snapshot.on_commit = self._committed

    def _committed(self) -> None:
        if self.background:
            self.backlog.wake()

    # -- Chroma, opened on first use ------------------------------------------------

    @property
    def vectors(self) -> ChromaStore:
        """The workspace's ChromaStore (imports chromadb the first time)."""
        with self._opening:
            return self._vectors or self._open_vectors()

    def _open_vectors(self) -> ChromaStore:
        if self._vectors is None:
            try:
                client = connect(path=self.chroma_dir)
                vectors = ChromaStore(client, self.workspace, self.embedder)
                for kind in KINDS:
                    self._check_collection(vectors, kind)
            except VectorStoreBroken:
                raise
            except Exception as err:    # noqa: BLE001 - chromadb raises many kinds on damaged files
                raise broken(self.workspace, getattr(err, "message", None) or str(err) or type(err).__name__) from None
            self._vectors = vectors
        return self._vectors

    def _check_collection(self, vectors: ChromaStore, kind: str) -> None:
        """A collection built with another embedder (a reindex cut short) is dropped and its
        records queued again."""
        try:
            vectors.collection(kind)
        except UserError as err:
            if "was built with embedder" not in err.message:
                raise
            vectors.client.delete_collection(vectors.name(kind))
            vectors._collections.pop(kind, None)
            db = connect_snapshot(self.snapshot.path)     # this may run on the background writer's thread
            try:
                db.execute("BEGIN IMMEDIATE")
                queue_everything(db)
                db.execute("COMMIT")
            finally:
                db.close()
            vectors.collection(kind)

    # -- transactions -----------------------------------------------------------------

    def unit(self) -> AbstractContextManager[sqlite3.Connection]:
        return self.snapshot.unit()

    def command(self) -> AbstractContextManager[None]:
        return self.snapshot.command()

    # -- items (facts, rules, constraints) ----------------------------------------------

    def put_items(self, items: list[Item], progress: Progress | None = None) -> None:
        self.snapshot.add_items(items, progress)

    def drop_items(self, items: list[Item]) -> None:
        self.snapshot.remove_items(items)

    def item_records(self) -> list[Record]:
        return self.snapshot.item_records()

    def item_rows(self) -> list[tuple[str, str, str, str, str, float]]:
        return self.snapshot.item_rows()

    # -- the store interface the rest of sym uses ---------------------------------------

    def add(self, kind: str, records: list[Record], texts_to_embed: list[str] | None = None,
            progress: Progress | None = None, vectors: list[list[float]] | None = None) -> None:
        """Store records of kind docs or schema (embedded later, in the background)."""
        if kind in ("facts", "rules"):
            raise ValueError("facts and rules are stored through WorkingMemory.add")
        self.snapshot.put_records(kind, records, progress)

    def delete(self, kind: str, ids: Iterable[str]) -> None:
        ids = list(ids)
        if kind in ("facts", "rules"):
            rows = self.snapshot._conn().execute(
                f"SELECT id, kind FROM items WHERE id IN ({','.join('?' * len(ids))})", ids).fetchall() if ids else []
            self.snapshot.remove_items([_Row(i, k) for i, k in rows])
        elif ids:
            self.snapshot.delete_records(kind, ids)

    def all(self, kind: str) -> list[Record]:
        if kind in ("facts", "rules"):
            want: Callable[[str], bool] = (lambda k: k == "fact") if kind == "facts" else (lambda k: k != "fact")
            return [r for r in self.snapshot.item_records() if want(r.meta["kind"])]
        return self.snapshot.records(kind)

    def count(self, kind: str) -> int:
        return self.snapshot.count(kind)

    def filled(self, kind: str) -> bool:
        return self.count(kind) > 0

    def recorded_embedder(self) -> str | None:
        return self.snapshot.meta("embedder")

    # -- search ---------------------------------------------------------------------

    def coverage(self) -> tuple[int, int]:
        """(records embedded, records in all): how far Chroma has caught up."""
        total = self.snapshot.count() + self.snapshot._conn().execute("SELECT COUNT(*) FROM records").fetchone()[0]
        return max(0, total - self.snapshot.backlog()), total

    def wait(self, seconds: float | None, *, cancel: Event | None = None, progress: Progress | None = None) -> int:
        """Wait for the background writer to catch up: at most `seconds` (None: until done),
        stopping early on `cancel` (a threading.Event). Returns the rows still pending."""
        left = self.snapshot.backlog()
        if not left:
            return 0
        self.backlog.wake()
        start, first = time.monotonic(), left
        while left:
            if self.backlog.error:
                raise VectorStoreBroken(self.backlog.error) if "sym repair" in self.backlog.error \
                    else UserError(self.backlog.error)
            if cancel is not None and cancel.is_set():
                break
            if seconds is not None and time.monotonic() - start >= seconds:
                break
            if progress is not None:
                progress(first - left, first)
            time.sleep(0.05)
            left = self.snapshot.backlog()
        if progress is not None and not left:
            progress(first, first)
        return left

    def search(self, text: str, kinds: Iterable[str], k: int = 5, *, wait: float | None = 2.0, cancel: Event | None = None,
               progress: Progress | None = None, ids_only: Collection[str] = ()) -> list[Hit]:
        """Nearest records by meaning, from what is embedded so far (after waiting up to `wait`
        seconds for the background writer); records deleted since are never returned. Passages
        and schema records come with their text and metadata from the snapshot (the store of
        record), or, for a kind in `ids_only`, without them."""
        kinds = [kind for kind in kinds if self.filled(kind)]
        if not kinds:
            return []
        self.wait(wait, cancel=cancel, progress=progress)
        pending_deletes = self.snapshot._conn().execute("SELECT COUNT(*) FROM pending WHERE op = 'delete'").fetchone()[0]
        try:
            hits = self.vectors.search(text, kinds, k + min(pending_deletes, 1000),
                                       ids_only=[kind for kind in kinds if kind not in ("facts", "rules")])
        except UserError:
            raise
        except Exception as err:   # noqa: BLE001 - a damaged index fails on the first query
            raise broken(self.workspace, str(err)) from None
        stored = self._stored(hits, ids_only)
        out = []
        for h in hits:
            record = stored.get((h.kind, h.id))
            if record is None:
                continue
            out.append(h if h.kind in ("facts", "rules") or h.kind in ids_only else
                       Hit(h.kind, h.id, record.text, record.meta, h.score))
        return out[:k]

    def _stored(self, hits: list[Hit], ids_only: Collection[str]) -> dict[tuple[str, str], Record]:
        """The hits still stored, by (kind, id): a record where the snapshot's text is wanted, else
        an empty one (facts and rules are read from Chroma, whose text is their clause's)."""
        db = self.snapshot._conn()
        out: dict[tuple[str, str], Record] = {}
        for kind in dict.fromkeys(h.kind for h in hits):
            ids = [h.id for h in hits if h.kind == kind]
            if kind in ("facts", "rules") or kind in ids_only:
                table, where, args = ("items", "", ids) if kind in ("facts", "rules") else \
                    ("records", "kind = ? AND ", [kind, *ids])
                rows = db.execute(f"SELECT id FROM {table} WHERE {where}id IN ({','.join('?' * len(ids))})", args)
                out.update(((kind, i), Record(i, "", {})) for (i,) in rows)
            else:
                out.update(((kind, i), r) for i, r in self.snapshot.records_by_id(kind, ids).items())
        return out

    # -- for the background writer ----------------------------------------------------

    def records_to_embed(self, db: sqlite3.Connection, kind: str, ids: list[str]) -> tuple[list[Record], list[str], list[str]]:
        """(records, texts to embed, ids no longer stored) for pending upserts of one kind."""
        marks = ",".join("?" * len(ids))
        records, texts = [], []
        if kind in ("facts", "rules"):
            from sym.core.logic.parser import parse_one  # the grammar: only a search reads rows back

            rows = db.execute(f"SELECT id, kind, text, nl, source, created_at FROM items WHERE id IN ({marks})",
                              ids).fetchall()
            for iid, ikind, text, nl, source, at in rows:
                clause = self.clause_of(iid) or parse_one(text)
                assert not isinstance(clause, Query)   # stored items are facts and rules
                record, words = row_record(iid, ikind, text, nl, source, at, clause)
                records.append(record)
                texts.append(words)
        else:
            rows = db.execute(f"SELECT id, text, meta FROM records WHERE kind = ? AND id IN ({marks})",
                              [kind, *ids]).fetchall()
            for iid, text, meta in rows:
                records.append(Record(iid, text, json.loads(meta)))
                texts.append("schema of the workspace" if kind == "schema" else text)
        found = {r.id for r in records}
        return records, texts, [i for i in ids if i not in found]

    # -- reindex, repair, close ----------------------------------------------------------

    def reindex(self, embedder: Embedder) -> int:
        """Switch to another embedder: every record is queued to be embedded again (in the
        background); returns how many. The embedder is tried first, so one that fails changes nothing."""
        embedder.embed(["a probe of the embedder"])
        self.backlog.stop()
        try:
            with self.snapshot.unit() as db:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (embedder.name,))
                count = self.snapshot.queue_everything()
            self.embedder = embedder
            if self._vectors is not None:
                self._vectors.drop()
            self._vectors = None          # reopened with the new embedder; a stale collection is dropped then
        finally:
            self.backlog.restart()
        return count

    def rebuild_vectors(self) -> int:
        """Start the vector store again from the snapshot (`sym repair`): the old Chroma files are
        moved aside, every record is queued; returns how many."""
        self.backlog.stop()
        self._vectors = None
        if self.chroma_dir.exists():
            aside = self.chroma_dir.with_name(f"chroma.broken-{time.strftime('%Y%m%d-%H%M%S')}")
            shutil.move(str(self.chroma_dir), str(aside))
        count = self.snapshot.queue_everything()
        self.backlog.restart()
        return count

    def close(self, wait: float = 0.0) -> None:
        """Stop the background writer (after up to `wait` seconds of catching up) and close."""
        try:
            if wait > 0 and self.snapshot.backlog():
                self.wait(wait)
        except UserError:
            pass
        self.backlog.stop()
        self.snapshot.close()


class _Row:
    def __init__(self, iid: str, kind: str) -> None:
        self.id, self.kind = iid, kind
