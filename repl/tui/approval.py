"""Approval of a memory change a model proposed in a chat turn: asked from the shell's thread (the
job waits), answered on the UI thread in a modal that shows the command line whole.

Only a deliberate answer counts: `y` (or `yes`) then Enter allows, `n` (or `no`) then Enter
declines, or a click on Allow / Decline (the buttons take no focus, so no Enter lands on them).
Keys typed before the question opened stay in the input line; keys typed while it is open that
are not an answer go back to the input line, in order (an Enter there ends that line, queued as
a turn); Esc cancels the job and so declines.
"""

from __future__ import annotations

import threading
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

WAIT = 0.05        # seconds between looks at the cancel flag while the question is open
ANSWERS = {"y": True, "yes": True, "n": False, "no": False}
HOW = "y then Enter allows · n then Enter declines · Esc cancels the turn"


class Approvals:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.pending: tuple[threading.Event, dict[str, bool]] | None = None
        self.screen: ApprovalScreen | None = None

    def ask(self, line: str) -> bool:
        """On the shell's thread: show the question and wait for the answer (False once cancelled)."""
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
        self.app.transcript.add_note(f"→ {line}\n  the model wants to change memory: allow? ({HOW})")
        self.screen = ApprovalScreen(line)
        self.app.push_screen(self.screen, callback=self._answered)

    def _answered(self, allowed: bool | None) -> None:
        self.screen = None
        if allowed is None:       # Esc: the job is cancelled (ask sees it)
            return
        self.answer(allowed)

    def _drop(self, done: threading.Event) -> None:
        if self.pending is not None and self.pending[0] is done:
            self.pending = None
            screen, self.screen = self.screen, None
            if screen is not None and screen.is_current:
                screen.dismiss(None)

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


class _Choice(Button, can_focus=False):
    """A button only a click presses: a typed-ahead Enter never lands on it."""


class ApprovalScreen(ModalScreen[bool | None]):
    """The question over the app: what will run, and an answer line for y / n then Enter."""

    DEFAULT_CSS = """
    ApprovalScreen { align: center middle; }
    #approval { width: 90%; max-width: 110; height: auto; max-height: 90%; border: thick $warning;
                background: $surface; padding: 0 1; }
    #approval-scroll { height: auto; max-height: 16; margin: 1 0; }
    #approval-line { background: $boost; padding: 0 1; }
    #approval-answer { margin-bottom: 1; }
    #approval-buttons { height: auto; align-horizontal: right; }
    #approval-buttons Button { margin-left: 2; }
    """
    BINDINGS = [Binding("escape", "cancel_turn", "Cancel the turn", show=False)]

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line
        self.typed = ""             # the answer so far
        self.gave_back = False      # some keys went back to the input line

    def compose(self):
        with Vertical(id="approval"):
            yield Static("The model wants to change memory. It would run:")
            with VerticalScroll(id="approval-scroll"):
                yield Static(Text(self.line), id="approval-line")
            yield Static(self._prompt(), id="approval-answer")
            with Horizontal(id="approval-buttons"):
                yield _Choice("Allow", id="allow", variant="warning")
                yield _Choice("Decline", id="decline")

    def _prompt(self) -> Text:
        said = Text.assemble(("allow? ", "bold"), (self.typed or "", "reverse"), "▏  ", (HOW, "dim"))
        if self.gave_back:
            said.append("\n(what you typed that was not y or n went back to the input line)", style="dim")
        return said

    def _show(self) -> None:
        for answer in self.query("#approval-answer"):     # none yet when keys come before compose
            if isinstance(answer, Static):
                answer.update(self._prompt())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "allow")

    def action_cancel_turn(self) -> None:
        self.app.action_cancel_job()
        self.dismiss(None)

    async def on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            answer = ANSWERS.get(self.typed.strip().lower())
            if answer is not None:
                self.dismiss(answer)
                return
            self._give_back()
            entry = self.app.entry          # a line typed ahead ends there, as the Enter meant
            if entry.value or entry.assembler.pending or entry.assembler.in_block:
                await entry.action_submit()
            return
        if event.key == "backspace":
            self.typed = self.typed[:-1]
        elif event.is_printable and event.character:
            self.typed += event.character
            if not any(a.startswith(self.typed.lower()) for a in ANSWERS):
                self._give_back()           # not an answer: it was meant for the input line
        else:
            return                          # other keys (F1, Ctrl+C, …) go on to the app
        event.stop()
        event.prevent_default()
        self._show()

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text is never an answer: it goes to the input line."""
        event.stop()
        self.app.entry.post_message(events.Paste(event.text))
        self.gave_back = True
        self._show()

    def _give_back(self) -> None:
        if self.typed:
            entry = self.app.entry
            entry.insert_text_at_cursor(self.typed)
            self.typed, self.gave_back = "", True
        self._show()
