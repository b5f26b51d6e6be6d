"""The policy log in SQLite: runs, the rule applications of each run, their outcomes, and
pending suggestions. Opened only once a workspace has policies; `path` None is in-memory.

A run's score is the latest user rating if it has one, else the latest judge score, else
the automatic score from its result (see `score_result`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    run TEXT NOT NULL,            -- the run id shown in the trace, e.g. "ask-3"
    shell TEXT NOT NULL DEFAULT '',
    command TEXT NOT NULL,
    text TEXT NOT NULL DEFAULT '',
    attributes TEXT NOT NULL DEFAULT '{}',
    effective TEXT NOT NULL DEFAULT '{}',   -- steered settings and hints in force for the run
    started REAL NOT NULL,
    seconds REAL,
    ok INTEGER,
    status TEXT
);
CREATE INDEX IF NOT EXISTS runs_run ON runs(run);
CREATE TABLE IF NOT EXISTS applications (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    run TEXT NOT NULL,
    rule TEXT NOT NULL,
    target TEXT NOT NULL,
    changes TEXT NOT NULL,
    overridden TEXT NOT NULL DEFAULT '{}',
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS applications_run ON applications(run_id);
CREATE TABLE IF NOT EXISTS outcomes (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    source TEXT NOT NULL,          -- auto | user | judge
    score REAL,
    detail TEXT NOT NULL DEFAULT '{}',
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS outcomes_run ON outcomes(run_id);
CREATE TABLE IF NOT EXISTS suggestions (
    id TEXT PRIMARY KEY,
    action TEXT NOT NULL,          -- add | replace | disable
    rule TEXT NOT NULL,            -- the rule it derives from
    body TEXT NOT NULL,            -- the proposed rule as JSON
    reason TEXT NOT NULL,
    origin TEXT NOT NULL,          -- stats | llm
    status TEXT NOT NULL DEFAULT 'pending',
    created REAL NOT NULL
);
"""

# status words a result may carry, as automatic scores
STATUS_SCORES = {"proved": 1.0, "refuted": 1.0, "verified": 1.0, "true": 1.0, "false": 1.0, "solved": 1.0,
                 "ok": 1.0, "unknown": 0.5, "unverified": 0.5, "partial": 0.5, "inconsistent": 0.0,
                 "failed": 0.0, "error": 0.0, "timeout": 0.0}
SOURCE_RANK = {"user": 3, "judge": 2, "auto": 1}


def score_result(result: object) -> tuple[float | None, dict[str, Any]]:
    """(automatic score in [0, 1] or None, details) from a command's result object.

    A failed result scores 0; a numeric `score` attribute (0..1) is taken as it is; else a
    `status` word (proved, unknown, …) or a `verified` flag decides; a plain success has no
    automatic score (a rating or the judge gives it one)."""
    detail: dict[str, Any] = {"ok": bool(getattr(result, "ok", True))}
    status = getattr(result, "status", None)
    if isinstance(status, str):
        detail["status"] = status
    for name in ("verified", "model_size"):
        value = getattr(result, name, None)
        if isinstance(value, (bool, int, float)):
            detail[name] = value
    if not detail["ok"]:
        return 0.0, detail
    score = getattr(result, "score", None)
    if isinstance(score, (int, float)) and not isinstance(score, bool):
        return min(1.0, max(0.0, float(score))), detail
    if isinstance(status, str) and status.lower() in STATUS_SCORES:
        return STATUS_SCORES[status.lower()], detail
    if isinstance(detail.get("verified"), bool):
        return (1.0 if detail["verified"] else 0.5), detail
    return None, detail


@dataclass
class RunRecord:
    id: int
    run: str
    command: str
    text: str
    attributes: dict[str, Any]
    effective: dict[str, Any]
    ok: bool | None
    status: str | None
    rules: list[str] = field(default_factory=list)
    changes: dict[str, Any] = field(default_factory=dict)       # merged changes the rules made
    score: float | None = None
    score_source: str | None = None


class PolicyStore:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path) if path is not None else ":memory:", check_same_thread=False)
        self.db.executescript(SCHEMA)
        self.db.commit()

    def close(self) -> None:
        self.db.close()

    # -- writing -------------------------------------------------------------------------

    def start_run(self, run: str, command: str, text: str, attributes: dict[str, Any], effective: dict[str, Any], *,
                  shell: str = "", started: float | None = None) -> int:
        cur = self.db.execute(
            "INSERT INTO runs(run, shell, command, text, attributes, effective, started) VALUES (?,?,?,?,?,?,?)",
            (run, shell, command, text, json.dumps(attributes, default=str), json.dumps(effective, default=str),
             started if started is not None else time.time()))
        self.db.commit()
        assert cur.lastrowid is not None   # an INSERT sets it
        return int(cur.lastrowid)

    def log_application(self, run_id: int, run: str, rule: str, target: str, changes: dict[str, Any],
                        overridden: dict[str, Any] | None = None) -> None:
        self.db.execute("INSERT INTO applications(run_id, run, rule, target, changes, overridden, at) "
                        "VALUES (?,?,?,?,?,?,?)",
                        (run_id, run, rule, target, json.dumps(changes, default=str),
                         json.dumps(overridden or {}, default=str), time.time()))
        self.db.commit()

    def finish_run(self, run_id: int, *, ok: bool, status: str | None, seconds: float) -> None:
        self.db.execute("UPDATE runs SET ok = ?, status = ?, seconds = ? WHERE id = ?",
                        (int(ok), status, seconds, run_id))
        self.db.commit()

    def add_outcome(self, run_id: int, source: str, score: float | None, detail: dict[str, Any] | None = None) -> None:
        self.db.execute("INSERT INTO outcomes(run_id, source, score, detail, at) VALUES (?,?,?,?,?)",
                        (run_id, source, score, json.dumps(detail or {}, default=str), time.time()))
        self.db.commit()

    # -- reading -------------------------------------------------------------------------

    def last_run(self, *, shell: str | None = None) -> RunRecord | None:
        sql = "SELECT id FROM runs"
        args: tuple[str, ...] = ()
        if shell is not None:
            sql, args = sql + " WHERE shell = ?", (shell,)
        row = self.db.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
        return self.runs(ids=[row[0]])[0] if row else None

    def runs(self, *, ids: list[int] | None = None) -> list[RunRecord]:
        """Every run (or those with `ids`) with its rules, merged changes and effective score."""
        sql = "SELECT id, run, command, text, attributes, effective, ok, status FROM runs"
        args: tuple[Any, ...] = ()
        if ids is not None:
            sql += f" WHERE id IN ({','.join('?' * len(ids))})"
            args = tuple(ids)
        records = {row[0]: RunRecord(row[0], row[1], row[2], row[3], json.loads(row[4]), json.loads(row[5]),
                                     None if row[6] is None else bool(row[6]), row[7])
                   for row in self.db.execute(sql + " ORDER BY id", args)}
        for run_id, rule, changes in self.db.execute("SELECT run_id, rule, changes FROM applications ORDER BY id"):
            rec = records.get(run_id)
            if rec is not None:
                rec.rules.append(rule)
                rec.changes.update(json.loads(changes))
        best: dict[int, tuple[Any, ...]] = {}
        for run_id, source, score, oid in self.db.execute(
                "SELECT run_id, source, score, id FROM outcomes WHERE score IS NOT NULL"):
            key = (SOURCE_RANK.get(source, 0), oid)
            if run_id in records and (run_id not in best or key > best[run_id][0]):
                best[run_id] = (key, score, source)
        for run_id, (_, score, source) in best.items():
            records[run_id].score, records[run_id].score_source = score, source
        return list(records.values())

    # -- suggestions -----------------------------------------------------------------------

    def next_suggestion_id(self) -> str:
        n = self.db.execute("SELECT COUNT(*) FROM suggestions").fetchone()[0]
        return f"s{n + 1}"

    def add_suggestion(self, action: str, rule: str, body: dict[str, Any], reason: str, origin: str) -> str:
        sid = self.next_suggestion_id()
        self.db.execute("INSERT INTO suggestions(id, action, rule, body, reason, origin, created) "
                        "VALUES (?,?,?,?,?,?,?)",
                        (sid, action, rule, json.dumps(body, default=str), reason, origin, time.time()))
        self.db.commit()
        return sid

    def suggestion(self, sid: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT id, action, rule, body, reason, origin, status FROM suggestions WHERE id = ?",
                              (sid,)).fetchone()
        if row is None:
            return None
        return {"id": row[0], "action": row[1], "rule": row[2], "body": json.loads(row[3]), "reason": row[4],
                "origin": row[5], "status": row[6]}

    def pending_suggestions(self) -> list[dict[str, Any]]:
        ids = [r[0] for r in self.db.execute("SELECT id FROM suggestions WHERE status = 'pending' ORDER BY created")]
        return [s for s in (self.suggestion(i) for i in ids) if s is not None]

    def mark_suggestion(self, sid: str, status: str) -> None:
        self.db.execute("UPDATE suggestions SET status = ? WHERE id = ?", (status, sid))
        self.db.commit()
