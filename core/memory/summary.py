"""What a workspace holds and when, read from its snapshot without opening it (/workspaces)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from sym.core.memory.snapshot import FORMAT, _count


@dataclass(frozen=True)
class Summary:
    """What a workspace holds and when, read from its snapshot without opening it."""

    facts: int
    rules: int
    constraints: int
    documents: int | None       # None: not counted (a server's workspace)
    created: float | None       # None: not known (an old workspace with no items)
    changed: float | None


def summary(path: Path) -> Summary | None:
    """The counts and dates of the snapshot at `path`, read-only: no lock is taken and nothing is
    written, so a workspace another shell holds can be listed. None when there is no readable,
    current snapshot (a workspace never opened by this version, or a damaged file)."""
    if not path.is_file():
        return None
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)) as db:
            meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('format', 'created', 'changed')"))
            if meta.get("format") != FORMAT:
                return None
            kinds = dict(db.execute("SELECT kind, COUNT(*) FROM items GROUP BY kind").fetchall())
            documents = _count(db, "SELECT COUNT(DISTINCT json_extract(meta, '$.doc_id')) FROM records "
                                   "WHERE kind = 'docs'")
            first, last = db.execute("SELECT MIN(created_at), MAX(created_at) FROM items").fetchone()
    except sqlite3.Error:
        return None
    created = _number(meta.get("created"), first)
    return Summary(int(kinds.get("fact", 0)), int(kinds.get("rule", 0)), int(kinds.get("constraint", 0)), documents,
                   created, _number(meta.get("changed"), last, created))


def _number(*values: object) -> float | None:
    """The first of `values` that reads as a number."""
    for value in values:
        if isinstance(value, (int, float, str)):
            try:
                return float(value)
            except ValueError:
                continue
    return None
