"""The background writer: drains a workspace's `pending` rows (core.memory.snapshot) into Chroma.

One daemon thread per open workspace embeds and upserts (or deletes) small batches, removing
each batch's rows from `pending` once Chroma holds it, and checks its stop flag between
batches, so closing or cancelling waits for one small batch at most. A restart finds what
was left in `pending` and goes on. It never changes items: the snapshot is the store of record.
"""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.events import EmbeddingProgress, Warning
from sym.core.memory.snapshot import connect

if TYPE_CHECKING:
    import sqlite3

    from sym.core.memory.local import LocalStore

BATCH = 256
_RUNNING: weakref.WeakSet[Backlog] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    """At exit, let each writer finish its batch in flight: a thread cut off inside a Chroma
    write can damage the vector store as a kill -9 can."""
    for backlog in list(_RUNNING):
        backlog.stop(timeout=30.0)


class Backlog:
    def __init__(self, local: LocalStore) -> None:
        self.local = local              # the core.memory.local.LocalStore whose rows are drained
        self.error = ""                 # the last failure, shown until a batch goes through again
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._busy = threading.Lock()   # held while a batch is in flight
        self._thread: threading.Thread | None = None
        self._last_emit = 0.0
        self._warned = ""

    def wake(self) -> None:
        """There is work (a command committed some): start the thread, or rouse it."""
        self._wake.set()
        if self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._run, name=f"sym-embed-{self.local.workspace}",
                                            daemon=True)
            _RUNNING.add(self)
            self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop after the batch in flight (what is left stays pending for the next start)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._thread = None
        _RUNNING.discard(self)

    def restart(self) -> None:
        self._stop.clear()
        self.wake()

    def _run(self) -> None:
        db = connect(self.local.snapshot.path)
        try:
            while not self._stop.is_set():
                self._wake.wait()
                self._wake.clear()
                while not self._stop.is_set():
                    try:
                        if not self.step(db):
                            break
                    except UserError as err:   # Chroma cannot be opened, the embedder failed: say so, wait
                        self.error = err.message
                        self._report(db, force=True)
                        break
                    except Exception as err:   # noqa: BLE001 - a background thread must not die silently
                        self.error = f"the vector store failed: {type(err).__name__}: {err}".splitlines()[0]
                        self._report(db, force=True)
                        break
        finally:
            db.close()

    def step(self, db: sqlite3.Connection, limit: int = BATCH) -> int:
        """Write one batch of pending rows to Chroma; returns how many rows it took (0: none left)."""
        with self._busy:
            rows = db.execute("SELECT rowid, kind, id, op FROM pending ORDER BY rowid LIMIT ?", (limit,)).fetchall()
            if not rows:
                self._report(db, force=True)
                return 0
            vectors = self.local.vectors        # opens Chroma on first use (UserError with the repair line)
            upserts: dict[str, list[str]] = {}
            deletes: dict[str, list[str]] = {}
            for _, kind, iid, op in rows:
                (upserts if op == "upsert" else deletes).setdefault(kind, []).append(iid)
            for kind, ids in upserts.items():
                records, texts, gone = self.local.records_to_embed(db, kind, ids)
                if records:
                    vectors.add(kind, records, texts)
                if gone:
                    deletes.setdefault(kind, []).extend(gone)
            for kind, ids in deletes.items():
                vectors.delete(kind, ids)
            db.execute("BEGIN IMMEDIATE")
            db.executemany("DELETE FROM pending WHERE rowid = ?", [(r[0],) for r in rows])
            db.execute("COMMIT")
            self.error = ""
        self._report(db)
        return len(rows)

    def _report(self, db: sqlite3.Connection, force: bool = False) -> None:
        if self.error and self.error != self._warned:    # once per failure, as one line
            self._warned = self.error
            self.local.emit(Warning(self.error))
        now = time.monotonic()
        if not force and now - self._last_emit < 0.25:
            return
        self._last_emit = now
        try:
            pending = db.execute("SELECT COUNT(*) FROM pending").fetchone()[0]
            total = (db.execute("SELECT COUNT(*) FROM items").fetchone()[0]
                     + db.execute("SELECT COUNT(*) FROM records").fetchone()[0])
        except Exception:   # noqa: BLE001 - progress is a courtesy
            return
        self.local.emit(EmbeddingProgress(self.local.workspace, pending, total, self.error))
