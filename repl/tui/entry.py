"""The input line: completions from the registry (ghost text and a menu), history, `\"\"\"` blocks, pasted turns.

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
from sym.repl.route import route
from sym.repl.tui.completion import BlockLines, CompletionMenu, replace_word
from sym.repl.tui.history import History


class RegistrySuggester(Suggester):
    """Ghost-text completion: `/lo` → `/load`, then the command's own completer for its argument."""

    def __init__(self, complete) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.complete = complete          # (text) -> list of completions of the last word

    async def get_suggestion(self, value: str) -> str | None:
        found = safe_complete(self.complete, value)
        return replace_word(value, found[0]) if found else None


def safe_complete(complete, value: str) -> list[str]:
    """What `complete` offers for `value` (a /command or a `?-` query), [] for anything else."""
    if not value.startswith(("/", "?-")):
        return []
    try:
        return complete(value)
    except Exception:  # a plugin's completer failing must not break typing
        return []


class Entry(Input):
    """An Input that emits complete turns; ↑/↓ walk the history (or the open completion menu), Tab
    accepts the suggestion or cycles through the menu's candidates."""

    BINDINGS = [
        Binding("up", "history_back", "Previous input", show=False),
        Binding("down", "history_forward", "Next input", show=False),
        Binding("tab", "accept_suggestion", "Complete", show=False),
        Binding("shift+tab", "cycle(-1)", "Previous completion", show=False),
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
        # inside a """ block a line is text, never a command: nothing to complete
        complete_here = lambda text: [] if self.assembler.in_block else complete(text)  # noqa: E731
        # coming back from a pane (Esc, a click) keeps the half-typed text: selected, the next key would replace it
        super().__init__(placeholder="a fact, a rule, ?- a query, or /help", suggester=RegistrySuggester(complete_here),
                         select_on_focus=False, **kwargs)
        self.history = history
        self.assembler = Assembler()     # lines of an open block or clause
        self._search: tuple[str, int] | None = None    # (what Ctrl+R looks for, index of the last hit)
        self.complete = complete_here
        self.menu = CompletionMenu(id="completion")
        self.block_lines = BlockLines(id="block-lines")
        self._typed: list[str] = []      # the lines of the open block or clause, as typed
        self._filling = False            # the value is being set from the menu: do not offer again

    async def on_mount(self) -> None:
        await self.parent.mount(self.block_lines, self.menu, before=self)

    def watch_value(self, value: str) -> None:
        if self._filling or not self.is_mounted:
            return
        if self.menu.is_attached:
            self.menu.offer(value, safe_complete(self.complete, value))

    def _fill(self, text: str, *, keep_menu: bool = False) -> None:
        """Put `text` in the input without offering completions for it (a history entry, a candidate)."""
        if not keep_menu:
            self.menu.close()
        self._filling = True
        try:
            self.value = text
            self.cursor_position = len(text)
        finally:
            self._filling = False

    def action_cycle(self, step: int) -> None:
        """Tab / Shift+Tab with the menu open: the next / previous candidate into the input."""
        if not self.menu.is_open:
            if step < 0:
                raise SkipAction()      # Shift+Tab without a menu: focus moves back, as elsewhere
            return
        self._fill(replace_word(self.menu.base, self.menu.move(step)), keep_menu=True)

    def take(self, chosen: str) -> None:
        """A candidate picked (Enter on it, or a click): into the input, the menu closed."""
        text = replace_word(self.menu.base, chosen)
        self._fill(text + ("" if text.endswith(("/", "=")) else " "))
        self.focus()

    def action_history_back(self) -> None:
        if self.menu.is_open:
            self.menu.move(-1)
            return
        entry = self.history.back(self.value)
        if entry is not None:
            self._fill(entry.replace("\n", " "))

    def action_history_forward(self) -> None:
        if self.menu.is_open:
            self.menu.move(1)
            return
        entry = self.history.forward()
        if entry is not None:
            self._fill(entry.replace("\n", " "))

    def action_accept_suggestion(self) -> None:
        """Tab takes the suggestion; with none it does nothing (focus stays here: the keys that
        follow are typed, not sent to a pane). With the menu open it cycles through the candidates."""
        if self.menu.is_open:
            self.action_cycle(1)
            return
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
        self._fill(entry.replace("\n", " "))
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
        placeholder said); with nothing pending, Esc goes on to the app (cancel the running job).
        An open completion menu closes first."""
        if self.menu.is_open:
            self.menu.close()
            return
        if not (self.assembler.in_block or self.assembler.pending):
            raise SkipAction()
        self.assembler.reset()
        self.value = ""
        self._show_pending()

    async def action_submit(self) -> None:
        chosen = self.menu.chosen
        if chosen is not None:        # Enter on a menu item takes it; the next Enter runs the turn
            self.take(chosen)
            return
        self.menu.close()
        line, self.value = self.value, ""
        self._typed.append(line)
        for item in self.assembler.feed(line):
            self._emit(item.text)
        self._show_pending()

    def _emit(self, text: str) -> None:
        if text:
            self.history.add(text)
            self.post_message(self.Turn(text))

    def _show_pending(self) -> None:
        asm, waiting = self.assembler, self.assembler.open_lines
        if not (asm.in_block or asm.pending):
            self._typed = []
        self.block_lines.show_lines(self._typed[-waiting:] if waiting else [])
        self.placeholder = (f'… line {waiting + 1} (end with """)' if asm.in_block else
                            f"… line {waiting + 1} (end the clause with .)" if asm.pending else
                            "a fact, a rule, ?- a query, or /help")

    async def _on_key(self, event) -> None:
        """Enter ends the line at once (a chat turn's question whether the model may change memory
        is a modal of its own, repl/tui/approval.py: no key typed here answers it)."""
        if event.key == "enter":
            # ends the line here, in key order: as a binding, Enter's action would run only once the
            # key had bubbled up to the app, after the keys typed next (a fast typist's or a
            # terminal's "a(1).⏎a(2).⏎" would become one line "a(1).a(2).")
            event.stop()
            event.prevent_default()
            await self.action_submit()
            return
        await super()._on_key(event)

    def _on_paste(self, event) -> None:
        """A multi-line paste is read as `--batch` reads a script (repl/assemble.py): clauses
        across lines, each /command and English line a turn of its own; consecutive clauses go
        as one turn (one program, all or nothing, one echo). Whatever is typed already comes
        first; an unfinished clause stays pending. Terminals end pasted lines with CR, some with
        CRLF: all read as line ends. A one-line paste is left to Input's own handler, which
        Textual calls after this one (calling it here too pasted twice)."""
        text = (event.text or "").replace("\r\n", "\n").replace("\r", "\n")
        if "\n" not in text.strip():
            return
        event.stop()
        event.prevent_default()
        lines = (self.value + text).split("\n")
        self.value = ""
        clauses: list[str] = []
        for line in lines:
            for item in self.assembler.feed(line):
                if not route(item.text)[0]:          # logic text: gathered into one program
                    clauses.append(item.text)
                    continue
                if clauses:
                    self._emit("\n".join(clauses))
                    clauses = []
                self._emit(item.text)
        if clauses:
            self._emit("\n".join(clauses))
        self._show_pending()
