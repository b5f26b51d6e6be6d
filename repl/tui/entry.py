"""The input line: slash-command suggestions from the registry, history, `\"\"\"` blocks, pasted turns.

It only turns keystrokes into whole turns (`Entry.Turn` messages); running them is the app's job.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Input

from repl.tui.history import History


class RegistrySuggester(Suggester):
    """Ghost-text completion: `/lo` → `/load`, then the command's own completer for its argument."""

    def __init__(self, complete) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.complete = complete          # (text) -> list of completions of the last word

    async def get_suggestion(self, value: str) -> str | None:
        if not value.startswith("/"):
            return None
        try:
            found = self.complete(value)
        except Exception:  # a plugin's completer failing must not break typing
            return None
        if not found:
            return None
        if " " not in value:
            return found[0]
        head, _, rest = value.partition(" ")
        stem = rest.rsplit(" ", 1)[0] + " " if " " in rest else ""
        return f"{head} {stem}{found[0]}"


class Entry(Input):
    """An Input that emits complete turns; ↑/↓ walk the history, Tab accepts the suggestion."""

    BINDINGS = [
        Binding("up", "history_back", "Previous input", show=False),
        Binding("down", "history_forward", "Next input", show=False),
        Binding("tab", "accept_suggestion", "Complete", show=False),
    ]

    class Turn(Message):
        """One whole input to run (several lines for a block or a paste)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, history: History, complete, **kwargs) -> None:
        super().__init__(placeholder="a fact, a rule, ?- a query, or /help", suggester=RegistrySuggester(complete),
                         **kwargs)
        self.history = history
        self.pending: list[str] = []     # lines of an open \"\"\" block
        self.in_block = False

    def action_history_back(self) -> None:
        entry = self.history.back(self.value)
        if entry is not None:
            self.value = entry.replace("\n", " ")
            self.cursor_position = len(self.value)

    def action_history_forward(self) -> None:
        entry = self.history.forward()
        if entry is not None:
            self.value = entry.replace("\n", " ")
            self.cursor_position = len(self.value)

    def action_accept_suggestion(self) -> None:
        if self._suggestion and self._suggestion != self.value:
            self.value = self._suggestion
            self.cursor_position = len(self.value)
        elif not self.value:
            self.screen.focus_next()

    async def action_submit(self) -> None:
        line, self.value = self.value, ""
        stripped = line.strip()
        if self.in_block:
            self.pending.append(line)
            if '"""' in stripped:
                self._emit_pending()
            self._show_pending()
            return
        if not self.pending and stripped.count('"""') % 2 == 1:
            self.in_block = True
            self.pending = [line]
            self._show_pending()
            return
        if not stripped:
            return
        self.pending = [line]
        self._emit_pending()
        self._show_pending()

    def _emit_pending(self) -> None:
        text = "\n".join(self.pending).replace('"""', "").strip()
        self.pending, self.in_block = [], False
        if text:
            self.history.add(text)
            self.post_message(self.Turn(text))

    def _show_pending(self) -> None:
        waiting = len(self.pending)
        self.placeholder = (f'… line {waiting + 1} (end with """)' if self.in_block else
                            "a fact, a rule, ?- a query, or /help")

    def _on_paste(self, event) -> None:
        """A multi-line paste is one turn (whatever is already typed comes first)."""
        if event.text and "\n" in event.text.strip():
            text = (self.value + event.text).strip()
            self.value = ""
            event.stop()
            event.prevent_default()
            self.pending, self.in_block = [text], False
            self._emit_pending()
            return
        super()._on_paste(event)

