"""The help screen (F1): the keys, then every command's usage and summary as the registry has them.

It lists the app's keys and each pane's own, then reads the registry; it runs nothing. Esc, F1 or q closes it.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS = (
    ("Enter", "run the input (a fact, a rule, ?- a query, /command or a sentence); typed while a job "
              "runs, it waits its turn"),
    ("Esc", "cancel the running job and give the input back; in a pane: back to the input"),
    ("y / n, Enter", "when the model asks to change memory (a box shows the command): allow / decline; "
                     "other keys go back to the input"),
    ("Ctrl+C", "cancel the running job; idle: clear the input; twice: quit"),
    ("F1", "this help"),
    ("F2", "Memory pane (pressed there again: next of Facts, Rules, Schema, Docs)"),
    ("F3", "Trace pane"),
    ("F4", "Models pane"),
    ("F9", "hide/show the side pane (hidden at first below 100 columns)"),
    ("Ctrl+P", "command palette"),
    ("Ctrl+S", "save the session"),
    ("Ctrl+Q", "quit"),
    ("↑/↓", "history (in an open completion menu: move through it); Ctrl+R finds an earlier input"),
    ("Tab / Shift+Tab", "complete: cycle through the menu's candidates; Enter or → takes one, Esc closes it"),
    ("PageUp/PageDown", "scroll the transcript (it follows the end again once scrolled back down)"),
    ('"""', "starts and ends a multi-line input"),
)
# each pane's own keys, while it has the focus (F2, F3, F4 put it there)
PANE_KEYS = (
    ("Memory pane (F2)", None),
    ("↑/↓ PageUp/PageDown Home/End", "move through the rows; the box below describes the row"),
    ("Enter", "explain the fact (its proof); on a rule: describe it"),
    ("Delete", "forget the row: press twice (another row cancels)"),
    ("c", "copy the row's id"),
    ("/", "filter facts and rules (Enter in the filter goes back to the table)"),
    ("Tab / Shift+Tab", "move between the filter, the tabs and the table; ←/→ on the tabs switch them"),
    ("Trace pane (F3)", None),
    ("↑/↓", "move through runs and steps"),
    ("Enter", "read the line in full, wrapped, in the pager"),
    ("Space", "fold or unfold the step"),
    ("Models pane (F4)", None),
    ("↑/↓ PageUp/PageDown", "scroll the models shown"),
    ("Pager", None),
    ("Enter on … more lines", "open a long result whole in the pager"),
    ("Esc / q", "close the pager"),
)
GROUPS = ("logic", "memory", "reason", "semantic", "llm", "policy", "session", "shell")


def _table(rows) -> Table:
    """Two columns that wrap (nothing is cut off at 80 columns); a row with no right side is a heading."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", max_width=34, overflow="fold")
    table.add_column(ratio=1)
    for left, right in rows:
        if right is None:
            table.add_row(Text("\n" + left, style="bold underline"), "")
        else:
            table.add_row(Text(left), Text(right))
    return table


def command_rows(registry) -> list[tuple[str, str | None]]:
    """The registry's commands by group (a heading row each), usage and summary."""
    commands = sorted(registry.commands.values() if registry is not None else (),
                      key=lambda c: (GROUPS.index(c.group) if c.group in GROUPS else len(GROUPS), c.group, c.name))
    rows: list[tuple[str, str | None]] = []
    group = None
    for cmd in commands:
        if cmd.group != group:
            group = cmd.group
            rows.append((group, None))
        aliases = f" (also {', '.join(cmd.aliases)})" if cmd.aliases else ""
        rows.append((cmd.usage, cmd.summary + aliases))
    return rows


class HelpScreen(ModalScreen):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 100%; max-width: 120; height: 100%; border: round $primary;
                                  background: $surface; padding: 0 1; }
    HelpScreen .heading { color: $accent; text-style: bold; margin-top: 1; }
    """
    BINDINGS = [Binding("escape,f1,q", "close", "Close", show=False)]

    def __init__(self, registry) -> None:
        super().__init__()
        self.registry = registry

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help") as scroll:
            scroll.border_title = "help — Esc, F1 or q closes"
            yield Static("keys", classes="heading")
            yield Static(_table(KEYS), id="help-keys")
            yield Static("pane keys", classes="heading")
            yield Static(_table(PANE_KEYS), id="help-panes")
            yield Static("commands", classes="heading")
            yield Static(_table(command_rows(self.registry)), id="help-commands")

    def on_mount(self) -> None:
        self.query_one("#help").focus()     # arrows and PageUp/PageDown scroll it

    def action_close(self) -> None:
        self.dismiss()
