"""y/n on a memory change a model proposed in a chat turn: asked from the shell's thread (the
job waits), answered by a key on the UI thread; Esc cancels the job and so declines."""

from __future__ import annotations

import threading
from typing import Any

WAIT = 0.05        # seconds between looks at the cancel flag while the question is open


class Approvals:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.pending: tuple[threading.Event, dict[str, bool]] | None = None

    def ask(self, line: str) -> bool:
        """On the shell's thread: show the question and wait for y or n (False once cancelled)."""
        done, box = threading.Event(), {}
        self.app.call_from_thread(self._show, line, done, box)
        cancel = self.app.shell.ctx.cancel
        while not done.wait(WAIT):
            if cancel.is_set():
                self.app.call_from_thread(self._drop, done)
                return False      # the turn's next cancel check stops it
        return box.get("allowed", False)

    def _show(self, line: str, done: threading.Event, box: dict[str, bool]) -> None:
        self.pending = (done, box)
        self.app.transcript.add_note(f"→ {line}\n  the model wants to change memory: allow? y/n")

    def _drop(self, done: threading.Event) -> None:
        if self.pending is not None and self.pending[0] is done:
            self.pending = None

    def answer(self, allowed: bool) -> bool:
        """On the UI thread: answer the open question (False when none is open)."""
        if self.pending is None:
            return False
        done, box = self.pending
        self.pending = None
        box["allowed"] = allowed
        self.app.transcript.add_note("allowed" if allowed else "declined")
        done.set()
        return True
