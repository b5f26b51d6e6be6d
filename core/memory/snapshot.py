"""A local snapshot of a workspace's items (SQLite beside the Chroma files) for fast start-up.

Chroma stays the store of record; reading 100k items back through it takes seconds, reading
them here a fraction of that. The snapshot is written on the same path as the store and
trusted only while its item count matches the store's; otherwise it is rebuilt from Chroma.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.memory.store import Record

_SCHEMA = """CREATE TABLE IF NOT EXISTS items (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, text TEXT NOT NULL, nl TEXT NOT NULL,
    source TEXT NOT NULL, created_at REAL NOT NULL)"""


class Snapshot:
    def __init__(self, path: Path):
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(self.path, check_same_thread=False)  # one shell thread at a time uses it
            self._db.execute(_SCHEMA)
        return self._db

    def count(self) -> int:
        try:
            return self._conn().execute("SELECT COUNT(*) FROM items").fetchone()[0]
        except sqlite3.DatabaseError:
            return -1   # unreadable: never trusted, rebuilt from the store

    def records(self) -> list[Record]:
        rows = self._conn().execute("SELECT id, kind, text, nl, source, created_at FROM items "
                                    "ORDER BY created_at, id").fetchall()
        return [Record(i, text, {"kind": kind, "nl": nl, "source": source, "created_at": at})
                for i, kind, text, nl, source, at in rows]

    def add(self, items) -> None:
        with self._conn() as db:
            db.executemany("INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?)",
                           [(it.id, it.kind, it.text, it.nl, it.source, float(it.created_at)) for it in items])

    def remove(self, ids) -> None:
        with self._conn() as db:
            db.executemany("DELETE FROM items WHERE id = ?", [(i,) for i in ids])

    def replace_all(self, items) -> None:
        try:
            with self._conn() as db:
                db.execute("DELETE FROM items")
        except sqlite3.DatabaseError:  # a damaged snapshot is simply started again
            self.close()
            self.path.unlink(missing_ok=True)
        self.add(items)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
