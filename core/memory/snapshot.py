"""The store of record of an embedded workspace: its items, documents and schema in SQLite (WAL).

Every command's changes are one transaction here, written before the command returns, so a
crash (kill -9 included) leaves all of a batch or none of it. Rows waiting to be embedded and
written to Chroma (or deleted there) sit in `pending`, written in the same transaction; the
background writer (core.memory.backlog) drains them. Nothing here imports chromadb.

Document passages also have a keyword index here, `docs_fts` (SQLite FTS5, BM25 ranking; FTS5
ships with Python's sqlite3, so it costs no new dependency): core.memory.keywords keeps it, in
the same transaction as the passages. Where this sqlite3 lacks FTS5, `fts` is False and keyword
ranking falls back to core.memory.retrieval's own BM25.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from operator import attrgetter
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sym.core.errors import DiskFull, disk_full
from sym.core.memory import keywords
from sym.core.memory.store import Record

FORMAT = "2"     # meta "format": the snapshot holds everything (items, docs, schema); Chroma follows it
_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, text TEXT NOT NULL, nl TEXT NOT NULL,
    source TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    kind TEXT NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL, meta TEXT NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS pending (kind TEXT NOT NULL, id TEXT NOT NULL, op TEXT NOT NULL, PRIMARY KEY (kind, id));
"""
CHUNK = 5_000    # rows per executemany at most: progress (and so cancel) is checked between chunks
STEP_SECONDS = 0.05  # what one chunk written with progress should take (cancel is seen within about that)
MIN_STEP = 100       # rows in the first chunk written with progress, and in any

Progress = Callable[[int, int], object]   # (rows done, rows in all); it may raise to cancel
_Row = TypeVar("_Row")


class ItemKey(Protocol):
    """What removing an item needs of it (a core.memory.working.Item, or a bare id and kind)."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...


class StoredItem(ItemKey, Protocol):
    """What writing an item needs of it (a core.memory.working.Item)."""

    @property
    def text(self) -> str: ...
    @property
    def nl(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def created_at(self) -> float: ...


def item_kind(kind: str) -> str:
    """The Chroma collection of an item kind (fact -> facts; rule, constraint -> rules)."""
    return "facts" if kind == "fact" else "rules"


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")    # a command's batch is on disk when the command returns
    db.executescript(_SCHEMA)
    return db


class Snapshot:
    """The SQLite file of one workspace. One shell thread writes through it; the background
    writer uses a connection of its own (`connect(path)`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._depth = 0
        self.on_commit: Callable[[], None] | None = None   # called after a commit that queued work (wakes the background writer)
        self._queued = False
        self._aborted: BaseException | None = None   # what ended a transaction SQLite rolled back itself
        self.fts = False        # the keyword index of passages is there and up to date (known once opened)

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            with self._full():
                db = connect(self.path)
            try:
                with self._full():
                    self.fts = keywords.ready(db)
            except BaseException:
                db.close()
                raise
            self._db = db
        return self._db

    # -- transactions ----------------------------------------------------------------

    @contextmanager
    def unit(self) -> Iterator[sqlite3.Connection]:
        """All or nothing: the outermost unit is one transaction, an inner one a savepoint that
        is rolled back alone when its block raises. A full disk is DiskFull, after the rollback."""
        db = self._conn()
        name = f"u{self._depth}"
        with self._full():
            db.execute("BEGIN IMMEDIATE" if self._depth == 0 else f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield db
        except BaseException as err:
            self._depth -= 1
            if self._depth == 0:
                _rollback(db)
                self._queued = False
            elif db.in_transaction:
                db.execute(f"ROLLBACK TO {name}")
                db.execute(f"RELEASE {name}")
            else:                   # SQLite rolled the whole transaction back itself (a full disk can)
                self._aborted = err
            if isinstance(err, sqlite3.Error) and disk_full(err):
                raise self._disk_full() from None
            raise
        self._depth -= 1
        if self._depth:
            db.execute(f"RELEASE {name}")
        else:
            self._commit(db)

    @contextmanager
    def command(self) -> Iterator[None]:
        """One command's changes as one transaction. What its inner units completed is committed
        even when the command then fails (memory in the process holds just that); a crash
        before the end keeps none of it."""
        if self._depth:
            yield
            return
        db = self._conn()
        with self._full():
            db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield
        finally:
            self._depth = 0
            self._commit(db)

    def _commit(self, db: sqlite3.Connection) -> None:
        """COMMIT; one that fails (in WAL mode a full disk shows here, when the pages are written)
        is rolled back whole, so the file keeps all of the transaction or none of it."""
        aborted, self._aborted = self._aborted, None
        if not db.in_transaction and aborted is not None:     # nothing left to commit: say why
            self._queued = False
            if disk_full(aborted):
                raise self._disk_full()
            raise aborted
        try:
            db.execute("COMMIT")
        except sqlite3.Error as err:
            _rollback(db)
            self._queued = False
            if disk_full(err):
                raise self._disk_full() from None
            raise
        if self._queued:
            self._queued = False
            if self.on_commit is not None:
                self.on_commit()

    def _disk_full(self) -> DiskFull:
        return DiskFull(f"the workspace's store ({self.path.parent.name}/{self.path.name})")

    @contextmanager
    def _full(self) -> Iterator[None]:
        """A full disk met outside a transaction's body (BEGIN, opening the file) is DiskFull."""
        try:
            yield
        except sqlite3.Error as err:
            if disk_full(err):
                raise self._disk_full() from None
            raise

    def _queue(self, db: sqlite3.Connection, kind: str, ids: list[str], op: str) -> None:
        db.executemany("INSERT OR REPLACE INTO pending (kind, id, op) VALUES (?, ?, ?)",
                       [(kind, i, op) for i in ids])
        self._queued = True

    # -- meta ------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self._conn().execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.unit() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def current(self) -> bool:
        """Whether this file is the store of record (else it is missing, old or damaged)."""
        try:
            return self.meta("format") == FORMAT
        except sqlite3.DatabaseError:
            return False

    # -- items -----------------------------------------------------------------------

    def count(self, kind: str | None = None) -> int:
        """Items (all, or of one Chroma kind: facts, rules), or records of kind docs/schema."""
        db = self._conn()
        if kind is None:
            return _count(db, "SELECT COUNT(*) FROM items")
        if kind == "facts":
            return _count(db, "SELECT COUNT(*) FROM items WHERE kind = 'fact'")
        if kind == "rules":
            return _count(db, "SELECT COUNT(*) FROM items WHERE kind != 'fact'")
        return _count(db, "SELECT COUNT(*) FROM records WHERE kind = ?", (kind,))

    def item_rows(self) -> list[tuple[str, str, str, str, str, float]]:
        """Every item as (id, kind, text, nl, source, created_at), oldest first."""
        return self._conn().execute("SELECT id, kind, text, nl, source, created_at FROM items "
                                    "ORDER BY created_at, id").fetchall()

    def item_records(self) -> list[Record]:
        return [Record(i, text, {"kind": kind, "nl": nl, "source": source, "created_at": at})
                for i, kind, text, nl, source, at in self.item_rows()]

    def add_items(self, items: Sequence[StoredItem], progress: Progress | None = None) -> None:
        """Write items and queue them for embedding, as one unit (progress may raise to cancel)."""
        def write(db: sqlite3.Connection, part: Sequence[StoredItem]) -> None:
            db.executemany("INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?)",
                           [(it.id, it.kind, it.text, it.nl, it.source, float(it.created_at)) for it in part])
            for kind in ("facts", "rules"):
                ids = [it.id for it in part if item_kind(it.kind) == kind]
                if ids:
                    self._queue(db, kind, ids, "upsert")
            _stamp(db)

        # in key order: SQLite's B-trees take sorted keys in far fewer page writes (a third less time)
        self._in_chunks(sorted(items, key=attrgetter("id")), write, progress)

    def _in_chunks(self, rows: Sequence[_Row], write: Callable[[sqlite3.Connection, Sequence[_Row]], None],
                   progress: Progress | None = None) -> None:
        """`write(db, part)` for each part of `rows`, all in one unit, with progress (and so cancel)
        between. With progress, parts are sized to take about STEP_SECONDS each (a few hundred rows
        of long passages with their keyword index, thousands of short facts), so a cancel is seen
        quickly on a loaded machine too; without, they are CHUNK rows."""
        with self.unit() as db:
            start, size = 0, (MIN_STEP if progress is not None else CHUNK)
            while start < len(rows):
                if progress is not None:
                    progress(start, len(rows))
                began = time.monotonic()
                write(db, rows[start:start + size])
                start += size
                if progress is not None:
                    took = max(time.monotonic() - began, 1e-4)
                    size = max(MIN_STEP, min(CHUNK, 2 * size, int(size * STEP_SECONDS / took)))
            if progress is not None:
                progress(len(rows), len(rows))

    def remove_items(self, items: Sequence[ItemKey]) -> None:
        with self.unit() as db:
            db.executemany("DELETE FROM items WHERE id = ?", [(it.id,) for it in items])
            for kind in ("facts", "rules"):
                ids = [it.id for it in items if item_kind(it.kind) == kind]
                if ids:
                    self._queue(db, kind, ids, "delete")
            _stamp(db)

    # -- records of other kinds (docs, schema) -----------------------------------------

    def records(self, kind: str) -> list[Record]:
        rows = self._conn().execute("SELECT id, text, meta FROM records WHERE kind = ? ORDER BY rowid",
                                    (kind,)).fetchall()
        return [Record(i, text, json.loads(meta)) for i, text, meta in rows]

    def document_rows(self) -> list[tuple[Any, ...]]:
        """(doc_id, name, path, chunks, chars, loaded_at) per stored document, in first-stored
        order, read from the chunks' metadata alone."""
        db = self._conn()
        out = []
        for doc, chunks, first in db.execute(
                "SELECT json_extract(meta, '$.doc_id') AS doc, COUNT(*), MIN(rowid) FROM records "
                "WHERE kind = 'docs' GROUP BY doc ORDER BY MIN(rowid)").fetchall():
            meta = json.loads(db.execute("SELECT meta FROM records WHERE rowid = ?", (first,)).fetchone()[0])
            out.append((doc, meta.get("name"), meta.get("path"), chunks, meta.get("chars"), meta.get("loaded_at")))
        return out

    def put_records(self, kind: str, records: list[Record], progress: Progress | None = None) -> None:
        self._conn()                     # opened: whether there is a keyword index is known
        indexed = kind == "docs" and self.fts

        def write(db: sqlite3.Connection, part: Sequence[Record]) -> None:
            ids = [r.id for r in part]
            if indexed:
                keywords.unindex(db, ids)
            db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?)",
                           [(kind, r.id, r.text, json.dumps(r.meta, sort_keys=True)) for r in part])
            if indexed:
                keywords.index(db, ids)
            self._queue(db, kind, ids, "upsert")
            _stamp(db)

        self._in_chunks(records, write, progress)

    def update_meta(self, kind: str, records: Sequence[Record]) -> None:
        """New metadata for stored records whose text is unchanged: nothing is embedded again (a
        reloaded document's unchanged passages, whose place in it moved)."""
        with self.unit() as db:
            ids = [r.id for r in records]
            indexed = kind == "docs" and self.fts
            if indexed:
                keywords.unindex(db, ids)
            db.executemany("UPDATE records SET meta = ? WHERE kind = ? AND id = ?",
                           [(json.dumps(r.meta, sort_keys=True), kind, r.id) for r in records])
            if indexed:
                keywords.index(db, ids)
            _stamp(db)

    def delete_records(self, kind: str, ids: list[str]) -> None:
        with self.unit() as db:
            if kind == "docs" and self.fts:
                keywords.unindex(db, ids)
            db.executemany("DELETE FROM records WHERE kind = ? AND id = ?", [(kind, i) for i in ids])
            self._queue(db, kind, ids, "delete")
            _stamp(db)

    def keyword_search(self, match: str, limit: int) -> list[tuple[Record, float]]:
        """Passages matching an FTS5 query, best first, with their BM25 score (higher is better).
        Needs `fts`; a bad query is sqlite3.OperationalError."""
        return keywords.search(self._conn(), match, limit)

    def records_by_id(self, kind: str, ids: Sequence[str]) -> dict[str, Record]:
        """The stored records of these ids (those that are gone are left out)."""
        out: dict[str, Record] = {}
        db = self._conn()
        for start in range(0, len(ids), CHUNK):
            part = list(ids[start:start + CHUNK])
            for i, text, meta in db.execute(f"SELECT id, text, meta FROM records WHERE kind = ? AND id IN "
                                            f"({','.join('?' * len(part))})", [kind, *part]):
                out[i] = Record(i, text, json.loads(meta))
        return out

    def document_records(self, doc_id: str) -> list[Record]:
        """The passages of one document, in document order."""
        rows = self._conn().execute(
            "SELECT id, text, meta FROM records WHERE kind = 'docs' AND json_extract(meta, '$.doc_id') = ? "
            "ORDER BY json_extract(meta, '$.index'), rowid", (doc_id,)).fetchall()
        return [Record(i, text, json.loads(meta)) for i, text, meta in rows]

    # -- the embedding backlog ---------------------------------------------------------

    def backlog(self) -> int:
        """Rows still to be written to (or deleted from) Chroma."""
        return _count(self._conn(), "SELECT COUNT(*) FROM pending")

    def queue_everything(self) -> int:
        """Queue every item and record for (re-)embedding (after a reindex or a repair)."""
        with self.unit() as db:
            self._queued = True
            return queue_everything(db)

    def fill(self, items: list[tuple[Any, ...]], records: dict[str, list[Record]], embedder: str) -> None:
        """Start again from what Chroma holds (a workspace from before this format, or a damaged
        file): everything written, nothing pending, as one transaction."""
        with self.unit() as db:
            for table in ("items", "records", "pending", "meta"):
                db.execute(f"DELETE FROM {table}")
            db.executemany("INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?)", items)
            for kind, recs in records.items():
                db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?)",
                               [(kind, r.id, r.text, json.dumps(r.meta, sort_keys=True)) for r in recs])
            db.execute("INSERT INTO meta VALUES ('embedder', ?)", (embedder,))
            db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
            if self.fts:
                keywords.rebuild(db)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def _rollback(db: sqlite3.Connection) -> None:
    """ROLLBACK where a transaction is still open (SQLite ends some failed ones itself)."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def queue_everything(db: sqlite3.Connection) -> int:
    """Queue every item and record for (re-)embedding, on connection `db` (inside a transaction)."""
    db.execute("INSERT OR REPLACE INTO pending (kind, id, op) SELECT CASE WHEN kind = 'fact' "
               "THEN 'facts' ELSE 'rules' END, id, 'upsert' FROM items")
    db.execute("INSERT OR REPLACE INTO pending (kind, id, op) SELECT kind, id, 'upsert' FROM records")
    return _count(db, "SELECT COUNT(*) FROM pending")


def _stamp(db: sqlite3.Connection) -> None:
    """Meta "changed": when the workspace's content last changed (what /workspaces shows)."""
    db.execute("INSERT OR REPLACE INTO meta VALUES ('changed', ?)", (repr(time.time()),))


def stamp_created(db: sqlite3.Connection) -> None:
    """Meta "created", for a workspace made now (older ones fall back on their first item)."""
    db.execute("INSERT OR REPLACE INTO meta VALUES ('created', ?)", (repr(time.time()),))


def _count(db: sqlite3.Connection, sql: str, params: tuple[object, ...] = ()) -> int:
    """The one number a `SELECT COUNT(*)` answers."""
    return int(db.execute(sql, params).fetchone()[0])


def discard(path: Path) -> None:
    """Remove a damaged snapshot (and its WAL files) so it can be started again."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
