"""The Models tab: the latest Z3 model / counter-model / unsat core, Horn minimal model and program.

One section per kind, replaced when a newer ModelShown event arrives; nothing here reasons.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

_ORDER = ("z3.model", "z3.counter-model", "z3.core", "horn.model", "program")


class ModelsPane(VerticalScroll):
    DEFAULT_CSS = """
    ModelsPane { height: 1fr; padding: 0 1; }
    ModelsPane > .title { text-style: bold; color: $accent; margin-top: 1; }
    ModelsPane > .empty { color: $text-muted; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown: dict[str, tuple[Static, Static]] = {}

    def compose(self):
        yield Static("nothing yet: /prove, /check and /explore show their models here", classes="empty")

    def show(self, kind: str, title: str, text: str) -> None:
        for empty in self.query(".empty"):
            empty.remove()
        if kind in self.shown:
            head, body = self.shown[kind]
            head.update(Text(title))
            body.update(Text(text))
            return
        head, body = Static(Text(title), classes="title"), Static(Text(text), classes="body")
        later = [self.shown[k][0] for k in _ORDER[_ORDER.index(kind) + 1:] if k in self.shown] \
            if kind in _ORDER else []
        if later:
            self.mount(head, body, before=later[0])
        else:
            self.mount(head, body)
        self.shown[kind] = (head, body)
