"""Long results: the transcript shows a head and a "… N more lines" line; that line opens a pager
with the whole text (a Log, which draws only the lines on screen, so a million lines page fine)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Log, Static

HEAD_LINES = 200      # what the transcript shows of a result; the rest is one keypress away


class PagerScreen(ModalScreen[None]):
    """The whole text of one result; Esc or q closes it."""

    DEFAULT_CSS = """
    PagerScreen { align: center middle; }
    PagerScreen > Log { width: 100%; height: 100%; border: round $accent; }
    """
    BINDINGS = [Binding("escape", "dismiss", "Close"), Binding("q", "dismiss", "Close")]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        log = Log(auto_scroll=False)
        log.border_title = self.title_text
        log.border_subtitle = "Esc or q closes"
        yield log

    def on_mount(self) -> None:
        log = self.query_one(Log)
        log.write_lines(self.lines)
        log.scroll_home(animate=False)
        log.focus()

    def action_dismiss(self) -> None:     # type: ignore[override]
        self.dismiss(None)


class More(Static, can_focus=True):
    """ "… N more lines": Enter or a click opens the whole result in a pager."""

    DEFAULT_CSS = """
    More { color: $accent; text-style: italic; }
    More:focus { text-style: bold italic reverse; }
    """
    BINDINGS = [Binding("enter", "open", "Page through the whole result")]

    def __init__(self, title: str, lines: list[str], hidden: int) -> None:
        super().__init__(Text(f"… {hidden:,} more lines: Enter here or click to page through all {len(lines):,}"),
                         classes="more")
        self.title_text = title
        self.lines = lines

    def action_open(self) -> None:
        self.app.push_screen(PagerScreen(self.title_text, self.lines))

    def on_click(self) -> None:
        self.action_open()


def head(body: str, limit: int = HEAD_LINES) -> tuple[str, list[str] | None]:
    """(what the transcript shows, every line when that is only the head; None when it is all)."""
    if body.count("\n") < limit:
        return body, None
    lines = body.split("\n")
    return "\n".join(lines[:limit]), lines
