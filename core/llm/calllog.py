"""The call log: every model call in SQLite under the data dir, and the temperature-0 cache.

One row per call (time, model, purpose, options, messages, format, tools, output, tool calls,
tokens, latency, error, cached flag, session). A request's key is the sha256 of the canonical JSON
of (model, messages, format, options, and tools when given); the cache answers a key from its
latest good row.
The log must never break a call: if the database cannot be written, logging stops quietly, and
text that UTF-8 cannot encode (a lone surrogate in a reply or an error) is made valid first.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from sym.core.home import data_dir
from sym.core.text import valid_text

SCHEMA_VERSION = 2
_MIGRATIONS = {
    1: """
    CREATE TABLE calls (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts REAL NOT NULL,
        key TEXT NOT NULL,
        model TEXT NOT NULL,
        purpose TEXT NOT NULL,
        host TEXT,
        options TEXT,
        messages TEXT NOT NULL,
        format TEXT,
        output TEXT,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        seconds REAL NOT NULL DEFAULT 0,
        error TEXT,
        reason TEXT,
        cached INTEGER NOT NULL DEFAULT 0,
        session TEXT
    );
    CREATE INDEX calls_key ON calls(key);
    CREATE INDEX calls_session ON calls(session);
    """,
    2: """
    ALTER TABLE calls ADD COLUMN tools TEXT;
    ALTER TABLE calls ADD COLUMN tool_calls TEXT;
    """,
}
COLUMNS = ("id", "ts", "key", "model", "purpose", "host", "options", "messages", "format", "output",
           "prompt_tokens", "completion_tokens", "seconds", "error", "reason", "cached", "session", "tools",
           "tool_calls")
_JSON_COLUMNS = ("options", "messages", "format", "tools", "tool_calls")


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)


def request_key(model: str, messages: list[Any], format: object, options: dict[str, Any] | None,
                tools: list[Any] | None = None) -> str:
    """The cache key of a request: all of model, messages, format and options, and the tools
    offered when there are any (a request without them keeps the key it always had)."""
    body: dict[str, Any] = {"model": model, "messages": messages, "format": format, "options": options or {}}
    if tools:
        body["tools"] = tools
    return hashlib.sha256(canonical(body).encode()).hexdigest()


def default_path() -> Path:
    return data_dir() / "llm" / "calls.sqlite"


class CallLog:
    """The SQLite call log. One connection behind a lock, so `chat_many`'s threads may share it."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._broken = False

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=10.0, check_same_thread=False, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA busy_timeout=10000")
                version = db.execute("PRAGMA user_version").fetchone()[0]
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    try:
                        db.executescript(f"BEGIN; {_MIGRATIONS[step]} PRAGMA user_version={step}; COMMIT;")
                    except sqlite3.Error:   # another process may have just taken this step
                        if db.in_transaction:
                            db.execute("ROLLBACK")
                        if db.execute("PRAGMA user_version").fetchone()[0] < step:
                            raise
                self._db = db
            except (sqlite3.Error, OSError):
                self._broken = True   # a log we cannot open must not stop the call
        return self._db

    def lookup(self, key: str) -> dict[str, Any] | None:
        """The latest successful call with this key, or None."""
        with self._lock:
            db = self._connect()
            if db is None:
                return None
            try:
                row = db.execute(f"SELECT {', '.join(COLUMNS)} FROM calls WHERE key = ? AND error IS NULL "
                                 "AND output IS NOT NULL ORDER BY id DESC LIMIT 1", (key,)).fetchone()
            except sqlite3.Error:
                return None
        return self._row(row) if row else None

    def record(self, *, key: str, model: str, purpose: str, messages: list[Any], options: dict[str, Any] | None,
               format: object = None, output: str | None = None, prompt_tokens: int = 0, completion_tokens: int = 0,
               seconds: float = 0.0, error: str | None = None, reason: str | None = None, cached: bool = False,
               session: str | None = None, host: str | None = None, tools: list[Any] | None = None,
               tool_calls: list[dict[str, Any]] | None = None) -> int | None:
        """Append one call; returns its row id (None when the log cannot be written). `tool_calls`
        (neutral form: id, name, arguments) is what the reply asked for, kept for the cache."""
        values = tuple(valid_text(v, line_ends=False) if isinstance(v, str) else v for v in (
            time.time(), key, model, purpose, host, canonical(options or {}), canonical(messages),
            None if format is None else canonical(format), output, prompt_tokens, completion_tokens,
            seconds, error, reason, int(cached), session, None if not tools else canonical(tools),
            None if tool_calls is None else canonical(tool_calls)))
        with self._lock:
            db = self._connect()
            if db is None:
                return None
            try:
                cur = db.execute(f"INSERT INTO calls ({', '.join(COLUMNS[1:])}) VALUES "
                                 f"({', '.join('?' * (len(COLUMNS) - 1))})", values)
                return cur.lastrowid
            except (sqlite3.Error, UnicodeError, OverflowError):   # never the call's failure
                return None

    def recent(self, n: int = 20) -> list[dict[str, Any]]:
        """The last `n` calls, oldest first."""
        with self._lock:
            db = self._connect()
            if db is None:
                return []
            try:
                rows = db.execute(f"SELECT {', '.join(COLUMNS)} FROM calls ORDER BY id DESC LIMIT ?",
                                  (max(0, min(n, 1 << 62)),)).fetchall()   # SQLite integers are 64-bit
            except sqlite3.Error:
                return []
        return [self._row(r) for r in reversed(rows)]

    def totals(self, session: str | None = None) -> dict[str, Any]:
        """Calls, cached calls, errors and tokens — for one session, or the whole log."""
        where, args = ("WHERE session = ?", (session,)) if session is not None else ("", ())
        with self._lock:
            db = self._connect()
            row = None
            if db is not None:
                try:
                    row = db.execute("SELECT COUNT(*), COALESCE(SUM(cached), 0), COALESCE(SUM(error IS NOT NULL), 0), "
                                     "COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0) "
                                     f"FROM calls {where}", args).fetchone()
                except sqlite3.Error:
                    row = None
        calls, cached, errors, prompt, completion = row or (0, 0, 0, 0, 0)
        return {"calls": calls - errors, "cached": cached, "errors": errors, "failed": errors,
                "prompt_tokens": prompt, "completion_tokens": completion}

    def usage(self, session: str) -> dict[str, Any]:
        """What one session's calls used: calls answered (cached ones included), cached, failed,
        tokens, and seconds, a cached call counted at the seconds its request first took (a
        bench item run again does not read 0 s)."""
        with self._lock:
            db = self._connect()
            row = None
            if db is not None:
                try:
                    row = db.execute(
                        "SELECT COUNT(*), COALESCE(SUM(cached), 0), COALESCE(SUM(error IS NOT NULL), 0), "
                        "COALESCE(SUM(prompt_tokens + completion_tokens), 0), COALESCE(SUM(CASE WHEN c.cached THEN "
                        "COALESCE((SELECT o.seconds FROM calls o WHERE o.key = c.key AND o.cached = 0 AND o.error IS "
                        "NULL ORDER BY o.id DESC LIMIT 1), 0) ELSE c.seconds END), 0) FROM calls c WHERE c.session = ?",
                        (session,)).fetchone()
                except sqlite3.Error:
                    row = None
        calls, cached, failed, tokens, seconds = row or (0, 0, 0, 0, 0.0)
        return {"calls": calls - failed, "cached": cached, "failed": failed, "tokens": tokens,
                "seconds": float(seconds)}

    def tagged(self, run: str | None = None, item: str | None = None, n: int = 20) -> list[dict[str, Any]]:
        """The last `n` calls (oldest first) of sessions tagged RUN/ITEM (a bench's calls: `sym
        logs --run RUN --item ITEM`); either may be left out."""
        where, args = [], []
        if run is not None:
            where.append("(session = ? OR substr(session, 1, ?) = ?)")
            args += [run, len(run) + 1, run + "/"]
        if item is not None:
            where.append("substr(session, -?) = ?")
            args += [len(item) + 1, "/" + item]
        with self._lock:
            db = self._connect()
            if db is None:
                return []
            try:
                rows = db.execute(f"SELECT {', '.join(COLUMNS)} FROM calls WHERE {' AND '.join(where) or '1'} "
                                  "ORDER BY id DESC LIMIT ?", (*args, max(0, min(n, 1 << 62)))).fetchall()
            except sqlite3.Error:
                return []
        return [self._row(r) for r in reversed(rows)]

    def summary(self, session: str | None = None) -> str:
        """One line of `totals`: answered calls (to the model / from the cache), failed calls, tokens."""
        t = self.totals(session)
        return (f"{t['calls']} call{'s' if t['calls'] != 1 else ''} answered ({t['calls'] - t['cached']} by the model, "
                f"{t['cached']} from the cache), {t['failed']} failed; "
                f"tokens: {t['prompt_tokens']} in, {t['completion_tokens']} out")

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    @staticmethod
    def _row(row: tuple[Any, ...]) -> dict[str, Any]:
        out = dict(zip(COLUMNS, row))
        for name in _JSON_COLUMNS:
            if out.get(name) is not None:
                try:
                    out[name] = json.loads(out[name])
                except ValueError:
                    pass
        out["cached"] = bool(out["cached"])
        return out
