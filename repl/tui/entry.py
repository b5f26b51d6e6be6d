"""The input line: slash-command suggestions from the registry, history, `\"\"\"` blocks, pasted turns.

It only turns keystrokes into whole turns (`Entry.Turn` messages), by the rules every front-end
shares (repl.assemble: blocks, clauses across lines, comments); a multi-line paste is one turn.
Running them is the app's job.
"""

from __future__ import annotations

from textual.actions import SkipAction
from textual.binding import Binding
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Input

from sym.repl.assemble import Assembler
from sym.repl.tui.history import History


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
        Binding("pageup", "page(-1)", "Scroll the transcript up", show=False),
        Binding("pagedown", "page(1)", "Scroll the transcript down", show=False),
        Binding("escape", "abandon", "Leave an unfinished block", show=False),
        Binding("ctrl+r", "search_history", "Search the history", show=False),
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
        self.assembler = Assembler()     # lines of an open block or clause
        self._search: tuple[str, int] | None = None    # (what Ctrl+R looks for, index of the last hit)

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
        """Tab takes the suggestion; with none it does nothing (focus stays here: the keys that
        follow are typed, not sent to a pane)."""
        if self._suggestion and self._suggestion != self.value:
            self.value = self._suggestion
            self.cursor_position = len(self.value)

    def action_search_history(self) -> None:
        """Ctrl+R: the newest earlier input containing what is typed; again: the one before it.
        Typing anything starts a new search; the placeholder says what was looked for."""
        query, before = self._search if self._search and self.value == self.history.entries[self._search[1]] \
            .replace("\n", " ") else (self.value, None)
        found = self.history.search(query, before) if query.strip() else None
        if found is None:
            self.placeholder = f"no earlier input contains {query!r}" if query.strip() else "type some words, then Ctrl+R"
            self.app.bell()
            return
        at, entry = found
        self._search = (query, at)
        self.value = entry.replace("\n", " ")
        self.cursor_position = len(self.value)
        self.placeholder = f"Ctrl+R again: an older input with {query!r}"

    def action_page(self, direction: int) -> None:
        """PageUp / PageDown scroll the transcript while typing goes on here."""
        from sym.repl.tui.transcript import Transcript

        for transcript in self.screen.query(Transcript):
            if direction < 0:
                transcript.scroll_page_up(animate=False)
            else:
                transcript.scroll_page_down(animate=False)

    def action_abandon(self) -> None:
        """Esc leaves an unfinished triple-quoted block or clause (its lines are dropped, as the
        placeholder said); with nothing pending, Esc goes on to the app (cancel the running job)."""
        if not (self.assembler.in_block or self.assembler.pending):
            raise SkipAction()
        self.assembler.reset()
        self.value = ""
        self._show_pending()

    async def action_submit(self) -> None:
        line, self.value = self.value, ""
        for item in self.assembler.feed(line):
            self._emit(item.text)
        self._show_pending()

    def _emit(self, text: str) -> None:
        if text:
            self.history.add(text)
            self.post_message(self.Turn(text))

    def _show_pending(self) -> None:
        asm, waiting = self.assembler, self.assembler.open_lines
        self.placeholder = (f'… line {waiting + 1} (end with """)' if asm.in_block else
                            f"… line {waiting + 1} (end the clause with .)" if asm.pending else
                            "a fact, a rule, ?- a query, or /help")

    def _on_paste(self, event) -> None:
        """A multi-line paste is one turn (whatever is already typed comes first). Terminals end
        pasted lines with CR, some with CRLF: all read as line ends. A one-line paste is left to
        Input's own handler, which Textual calls after this one (calling it here too pasted twice)."""
        text = (event.text or "").replace("\r\n", "\n").replace("\r", "\n")
        if "\n" in text.strip():
            whole = (self.value + text).strip()
            self.value = ""
            event.stop()
            event.prevent_default()
            self.assembler.reset()
            self._emit(whole)
            self._show_pending()

