"""What the app's own keys do: cancel, interrupt, quit, help, save, and the side pane's keys (F2 Memory,
F3 Trace, F4 Models: show that tab and put the focus in it; F2 again steps through the Memory
pane's Facts, Rules, Schema and Docs). Esc brings the focus back to the input line.

A mixin of `SymApp` (repl/tui/app.py): it runs nothing itself but the inputs in KEY_TURNS, which it
hands to the app's `run_turn` like any typed input. The F1 screen (help_screen.py) lists these keys.
"""

from __future__ import annotations

import time

from textual.binding import Binding

# what Ctrl+S types for the user: inputs like any other, never looked at again
KEY_TURNS = {"save": "/save tui-%Y%m%d-%H%M%S"}
QUIT_WITHIN = 2.0      # seconds: a second Ctrl+C with nothing to stop quits

# the side pane's tabs by key: (tab id, the widget that takes the focus there)
PANE_KEYS = {"memory": ("tab-memory", "#memory-tabs"), "trace": ("tab-trace", "#trace"),
             "models": ("tab-models", "#models")}
MEMORY_TABS = ("mem-facts", "mem-rules", "mem-schema", "mem-docs")
MEMORY_TABLES = {"mem-facts": "#facts", "mem-rules": "#rules", "mem-schema": "#schema", "mem-docs": "#docs"}

# what the status line says while a side pane has the focus (F1 has them all)
PANE_HINTS = {"memory": "Memory: ↑↓ rows · Enter explain · Delete forget · / filter · F2 next table · Esc input",
              "trace": "Trace: ↑↓ steps · Enter read in full · Space fold · Esc input",
              "models": "Models: ↑↓ scroll · Esc input"}

BINDINGS = [
    Binding("escape", "cancel_job", "Cancel job", show=False),
    Binding("ctrl+c", "interrupt", "Cancel the job, or clear the input; twice: quit", show=False, priority=True),
    Binding("f1", "help", "Help", show=False),
    Binding("f2", "pane('memory')", "Memory pane (again: next of Facts, Rules, Schema, Docs)", show=False),
    Binding("f3", "pane('trace')", "Trace pane", show=False),
    Binding("f4", "pane('models')", "Models pane", show=False),
    Binding("f9", "toggle_side", "Side pane", show=False),
    Binding("ctrl+s", "save", "Save session", show=False),
]


class KeyActions:
    """The actions BINDINGS name, on the app (self is a SymApp)."""

    def action_cancel_job(self) -> None:
        """Esc: ask the running job to stop (reasoners check ctx.cancel) and give the input back;
        with no job, it only brings the focus back to the input (from a pane or a table)."""
        if self.job is None or self.shell is None:
            if not self.entry.disabled:
                self.entry.focus()
            return
        self.shell.ctx.cancel.set()
        if not self.cancelling:
            self.cancelling = True
            self.status.show(cancelling=True)
            self.transcript.add_note("cancelling…")
        self.entry.disabled = False
        self.entry.focus()

    def action_help(self) -> None:
        """F1: the keys and the registry's commands on a screen of their own (Esc, F1 or q closes)."""
        from sym.repl.tui.help_screen import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.shell.registry if self.shell is not None else None))

    def action_toggle_side(self) -> None:
        side = self.query_one("#side")
        side.display = not side.display

    def action_pane(self, name: str) -> None:
        """F2/F3/F4: show the side pane (also where it starts hidden), open its tab `name` and focus
        it; F2 pressed in the Memory pane already goes on to its next table."""
        from textual.css.query import NoMatches

        try:
            tabs = self.query_one("#tabs")
        except NoMatches:      # the panes are still being built (the workspace opens)
            return
        tab, target = PANE_KEYS[name]
        self.query_one("#side").display = True
        if name == "memory":
            inner = self.query_one("#memory-tabs")
            if tabs.active == tab and self._in_side():
                inner.active = MEMORY_TABS[(MEMORY_TABS.index(inner.active) + 1) % len(MEMORY_TABS)] \
                    if inner.active in MEMORY_TABS else MEMORY_TABS[0]
            target = MEMORY_TABLES.get(inner.active, "#facts")
        tabs.active = tab
        self.query_one(target).focus()

    def _in_side(self) -> bool:
        focused = self.focused
        side = self.query_one("#side")
        return focused is not None and (focused is side or side in focused.ancestors)

    def on_descendant_focus(self, event) -> None:
        """The status line names the keys of the pane the focus is in (none: the general hints)."""
        pane = next((w.id for w in (event.widget, *event.widget.ancestors) if w.id in PANE_HINTS), None)
        self.status.show(pane_keys=PANE_HINTS.get(pane, ""))

    def action_save(self) -> None:
        self.run_turn(time.strftime(KEY_TURNS["save"]))

    async def action_interrupt(self) -> None:
        """Ctrl+C: cancel the running job; idle, clear the input; with nothing to clear, a second
        Ctrl+C within QUIT_WITHIN seconds quits (as Ctrl+Q does)."""
        if self.job is not None:
            self.action_cancel_job()
            return
        entry = self.entry
        if entry.value or entry.assembler.pending or entry.assembler.in_block:
            entry.value = ""
            entry.assembler.reset()
            entry._show_pending()
            return
        now = time.monotonic()
        if now - self._interrupted < QUIT_WITHIN:
            await self.action_quit()
            return
        self._interrupted = now
        self.transcript.add_note("Ctrl+C again (or Ctrl+Q) quits")

    async def action_quit(self) -> None:
        if self.shell is not None and self.job is not None:
            self.shell.ctx.cancel.set()
        self.exit(return_code=0)
