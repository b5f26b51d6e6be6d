"""The watchdog that lets a run's cancel flag and deadline stop a statement inside the database.

The native engine checks its `Budget` between rounds and inside joins; a backend runs one SQL
statement for a long time, so while one runs a thread polls the cancel flag and the deadline and
calls `Executor.interrupt()`; the `Interrupted` the statement raises becomes the native engine's
own stop (Cancelled, TimedOut). Any executor gets this for free.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from sym.core.backends.executor import Interrupted
from sym.core.errors import Cancelled

if TYPE_CHECKING:
    from sym.core.backends.executor import Executor
    from sym.core.logic.pause import Budget

POLL = 0.02   # seconds between two looks at the cancel flag and the deadline


@contextmanager
def guarded(executor: Executor, budget: Budget) -> Iterator[None]:
    """Run the block's statements under the budget's cancel flag and deadline."""
    done = threading.Event()
    why: list[str] = []

    def watch() -> None:
        while not done.wait(POLL):
            if budget.cancel is not None and budget.cancel.is_set():
                why.append("cancel")
            elif budget.deadline is not None and budget.deadline.passed():
                why.append("deadline")
            else:
                continue
            executor.interrupt()
            return

    watcher = threading.Thread(target=watch, name="sym-backend-watch", daemon=True)
    watcher.start()
    try:
        yield
    except Interrupted:
        if why == ["cancel"]:
            if budget.cancel is not None:
                budget.cancel.clear()
            raise Cancelled() from None
        if why == ["deadline"]:
            raise budget.late() from None
        raise Cancelled() from None
    finally:
        done.set()
        watcher.join()
