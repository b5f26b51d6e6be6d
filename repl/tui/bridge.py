"""The event bus between a shell (whose commands run in worker threads) and the UI thread.

The shell is opened with a `Bus` as its emit; the app subscribes once it runs. Events from
a worker thread reach the app through `App.call_from_thread`, so they are shown in order
and before the command's result. Nothing here imports textual.
"""

from __future__ import annotations

import threading
import time
from typing import Callable


class Bus:
    """An Emit that forwards events to one handler on the app's thread."""

    def __init__(self) -> None:
        self.app = None
        self.handler: Callable[[object], object] | None = None
        self._last_progress = 0.0

    def attach(self, app, handler: Callable[[object], object]) -> None:
        self.app, self.handler = app, handler

    def __call__(self, event: object) -> None:
        app, handler = self.app, self.handler
        if app is None or handler is None:
            return
        from core.events import Progress   # loaded by the shell long before its first event

        if isinstance(event, Progress) and event.done < event.total:
            now = time.monotonic()
            if now - self._last_progress < 0.1:  # a bulk load emits thousands; ten a second is plenty
                return
            self._last_progress = now
        if getattr(app, "_thread_id", None) == threading.get_ident():
            result = handler(event)
            if hasattr(result, "__await__"):
                app.call_later(_awaiter(result))
            return
        try:
            app.call_from_thread(handler, event)
        except RuntimeError:  # the app has stopped: nobody is left to show it
            pass


def _awaiter(awaitable):
    async def run() -> None:
        await awaitable
    return run
