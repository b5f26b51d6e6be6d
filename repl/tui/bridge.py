"""The event bus between a shell (whose commands run on their own thread) and the UI thread.

The shell is opened with a `Bus` as its emit; the app attaches once it runs. Emitting never
waits for the UI: an event is queued and, when the queue was empty, the app is woken with one
message (`attach`'s `wake`, which posts a Textual message). The app then takes everything
queued at once (`drain`), in order, so a bulk add of thousands of items costs the UI one
message per batch, not one round trip per item. Nothing here imports textual.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class Bus:
    """An Emit that queues events for the app and wakes it without blocking the emitter."""

    def __init__(self) -> None:
        self.wake: Callable[[], object] | None = None
        self._queue: deque = deque()
        self._lock = threading.Lock()
        self._woken = False             # a wake-up is on its way: later events join its batch
        self._last_progress = 0.0

    def attach(self, wake: Callable[[], object]) -> None:
        """Start delivering: `wake()` is called (from any thread) when events wait to be drained."""
        self.wake = wake

    def __call__(self, event: object) -> None:
        if self.wake is None:
            return
        from sym.core.events import Progress  # loaded by the shell long before its first event

        if isinstance(event, Progress) and event.done < event.total:
            now = time.monotonic()
            if now - self._last_progress < 0.1:  # a bulk load emits thousands; ten a second is plenty
                return
            self._last_progress = now
        with self._lock:
            self._queue.append(event)
            if self._woken:
                return
            self._woken = True
        if self.wake() is False:          # the app has stopped: nobody is left to show them
            self.wake = None
            self.drain()

    def drain(self) -> list:
        """Every event queued so far, oldest first; the next event wakes the app again."""
        with self._lock:
            events = list(self._queue)
            self._queue.clear()
            self._woken = False
        return events

    @property
    def idle(self) -> bool:
        """Nothing waits to be drained."""
        return not self._queue
