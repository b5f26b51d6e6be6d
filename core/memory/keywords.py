"""The keyword index of a workspace's passages: `docs_fts` (SQLite FTS5, BM25 ranking) in its snapshot.

It is written in the same transaction as the passages (core.memory.snapshot calls in here), so it
can never disagree with them; one missing or out of step with them (a workspace from before it, or
one an older sym changed) is made again from the stored passages. Where this sqlite3 lacks FTS5,
`fts_available()` is False and nothing here is used.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from functools import cache

from sym.core.memory.store import Record

FTS_VERSION = "2"    # meta "fts": the keyword index of passages is built (its columns: this version)
IN_LIST = 5_000      # ids in one `IN (…)` list at most (well under SQLite's limit on parameters)
_FTS = ("CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING "
        "fts5(text, title, name, tokenize = 'porter unicode61 remove_diacritics 2')")
# A passage's row in the keyword index has its record's rowid. Its title is its heading path and
# its first line, which in reference text names what the passage defines ("object.__hash__(self)").
_FTS_FILL = ("INSERT INTO docs_fts (rowid, text, title, name) SELECT rowid, text, "
             "COALESCE(json_extract(meta, '$.heading'), '') || ' ' || "
             "substr(text, 1, instr(text || char(10), char(10)) - 1), COALESCE(json_extract(meta, '$.name'), '') "
             "FROM records WHERE kind = 'docs'")
FTS_WEIGHTS = (1.0, 0.6, 0.3)   # bm25 weights of text, title and name


@cache
def fts_available() -> bool:
    """Whether this Python's sqlite3 has FTS5 (it has in the official builds; some distributions
    leave it out)."""
    try:
        with closing(sqlite3.connect(":memory:")) as db:
            db.execute("CREATE VIRTUAL TABLE probe USING fts5(text)")
        return True
    except sqlite3.Error:
        return False


def ready(db: sqlite3.Connection) -> bool:
    """Make the keyword index of passages (FTS5) if it is missing or out of step with the stored
    passages (a workspace from before it, or changed by an older sym), filling it from them.
    False when this sqlite3 has no FTS5."""
    if not fts_available():
        return False
    version = db.execute("SELECT value FROM meta WHERE key = 'fts'").fetchone()
    if version is not None and version[0] == FTS_VERSION:
        stored = db.execute("SELECT COUNT(*), TOTAL(rowid) FROM records WHERE kind = 'docs'").fetchone()
        try:
            if tuple(stored) == tuple(db.execute("SELECT COUNT(*), TOTAL(rowid) FROM docs_fts").fetchone()):
                return True
        except sqlite3.OperationalError:    # the table was dropped: made again below
            pass
    db.execute("BEGIN IMMEDIATE")
    try:
        rebuild(db)
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return True


def rebuild(db: sqlite3.Connection) -> None:
    """The keyword index made again from the stored passages (inside a transaction)."""
    db.execute("DROP TABLE IF EXISTS docs_fts")     # its columns may be another version's
    db.execute(_FTS)
    db.execute("DELETE FROM docs_fts")
    db.execute(_FTS_FILL)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('fts', ?)", (FTS_VERSION,))


def unindex(db: sqlite3.Connection, ids: Sequence[str]) -> None:
    """Take these passages out of the index (before their records change or go)."""
    for part in _parts(ids):
        db.execute(f"DELETE FROM docs_fts WHERE rowid IN (SELECT rowid FROM records WHERE kind = 'docs' "
                   f"AND id IN ({','.join('?' * len(part))}))", part)


def index(db: sqlite3.Connection, ids: Sequence[str]) -> None:
    """Put these stored passages into the index (after their records are written)."""
    for part in _parts(ids):
        db.execute(f"{_FTS_FILL} AND id IN ({','.join('?' * len(part))})", part)


def search(db: sqlite3.Connection, match: str, limit: int) -> list[tuple[Record, float]]:
    """Passages matching an FTS5 query, best first, with their BM25 score (higher is better); a bad
    query is sqlite3.OperationalError."""
    rows = db.execute(
        "SELECT r.id, r.text, r.meta, bm25(docs_fts, ?, ?, ?) AS rank FROM docs_fts "
        "JOIN records AS r ON r.rowid = docs_fts.rowid WHERE docs_fts MATCH ? ORDER BY rank LIMIT ?",
        (*FTS_WEIGHTS, match, limit)).fetchall()
    return [(Record(i, text, json.loads(meta)), -float(rank)) for i, text, meta, rank in rows]


def _parts(ids: Sequence[str]) -> list[list[str]]:
    """`ids` in parts of IN_LIST at most, one for each `IN (…)` statement."""
    return [list(ids[start:start + IN_LIST]) for start in range(0, len(ids), IN_LIST)]
