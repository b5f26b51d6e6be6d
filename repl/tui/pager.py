"""Long results: the transcript shows a head and a "… N more lines" line; that line opens a pager
with the whole text (a Log, which draws only the lines on screen, so a million lines page fine)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Log, Static

HEAD_LINES = 200      # what the transcript shows of a result; the rest is one keypress away


class PagerScreen(ModalScreen[None]):
    """The whole text of one result; Esc or q closes it. With `wrap`, long lines wrap (a short text,
    such as a trace line, drawn as a whole rather than line by line)."""

    DEFAULT_CSS = """
    PagerScreen { align: center middle; }
    PagerScreen > Log, PagerScreen > VerticalScroll { width: 100%; height: 100%; border: round $accent; }
    """
    BINDINGS = [Binding("escape", "dismiss", "Close"), Binding("q", "dismiss", "Close")]

    def __init__(self, title: str, lines: list[str], *, wrap: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.wrap = wrap

    def compose(self) -> ComposeResult:
        if self.wrap:
            view = VerticalScroll(Static(Text("\n".join(self.lines)), id="pager-text"), id="pager")
        else:
            view = Log(auto_scroll=False, id="pager")
        view.border_title = self.title_text
        view.border_subtitle = "Esc or q closes"
        yield view

    def on_mount(self) -> None:
        view = self.query_one("#pager")
        if isinstance(view, Log):
            view.write_lines(self.lines)
        view.scroll_home(animate=False)
        view.focus()

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
