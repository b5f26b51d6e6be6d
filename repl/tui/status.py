"""The status line (model, whether the model server answers, workspace, counts, running job) and
the server ping.

The ping is a plain HTTP GET of the backend's liveness URL (core.llm.backends.liveness_url: the same host
resolution the backend uses) with a short timeout, run by the app in a worker thread; no model
client is imported for it.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from sym.core.words import count


def ping(url: str, timeout: float = 1.5) -> bool:
    """True when the server answers a GET of `url` (core.llm.backends.liveness_url)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return 200 <= reply.status < 300
    except (OSError, ValueError, urllib.error.URLError):
        return False


class StatusLine(Widget):
    """One docked line, drawn for its width: at narrow widths the hints, then the model and server,
    the workspace and the counts are shortened or dropped first, so the job's state stays in view."""

    DEFAULT_CSS = "StatusLine { dock: bottom; height: 1; background: $panel; color: $text; padding: 0 1; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.model = "?"
        self.ollama: bool | None = None
        self.workspace = "…"
        self.facts = 0
        self.rules = 0
        self.job = ""
        self.cancelling = False
        self.embedding = ""    # the background writer's progress or failure (empty when caught up)
        self.pane_keys = ""    # the keys of the side pane that has the focus (in place of the general hints)
        self._shown: Text | None = None

    def show(self, **fields) -> None:
        for key, value in fields.items():
            setattr(self, key, value)
        line = self.line_text()
        if line != self._shown:
            self._shown = line
            # one docked line whatever it says: repaint it without a layout of the whole screen
            # (a bulk add's progress and counts would otherwise cost one each)
            self.refresh()

    def render(self) -> Text:
        return self.line_text()

    def line_text(self, width: int | None = None) -> Text:
        """The line at its most telling that fits `width` cells (the widget's own width by default)."""
        width = width or self.content_region.width or 10**6    # not laid out yet: say everything
        for brevity in range(5):
            line = self._assemble(brevity)
            if line.cell_len <= width:
                return line
        line.truncate(width, overflow="ellipsis")     # the job comes first at the last brevity
        return line

    def _assemble(self, brevity: int) -> Text:
        job = self.job[:40 if brevity < 3 else 20]
        if self.cancelling:
            state = ("cancelling " + job, "bold red")
        else:
            state = ("running " + job, "bold yellow") if job else ("idle", "dim")
        if brevity == 4:      # only what matters while a job runs
            return Text.assemble(state, f" · {self.workspace} · {self.facts}f {self.rules}r")
        server = {None: ("not checked" if brevity < 2 else "?", "dim"), True: ("up", "green"),
                  False: ("down", "red")}[self.ollama]
        model = self.model if brevity < 3 or len(self.model) <= 14 else self.model[:13] + "…"
        workspace = f"workspace {self.workspace}" if brevity < 2 else self.workspace
        counts = f"{count(self.facts, 'fact')}, {count(self.rules, 'rule')}" if brevity < 3 else f"{self.facts}f {self.rules}r"
        embedding = self.embedding if brevity < 3 else self.embedding[:16]
        hints = ("   F1 help · F2/F3/F4 panes · Ctrl+P commands · Esc cancel", "   F1 help · F2/F3/F4 panes", "",
                 "")[min(brevity, 3)]
        if self.pane_keys and brevity < 4:     # narrower: the pane's first keys, then Esc; then its name and Esc
            keys = self.pane_keys.split(" · ")
            keys = keys if brevity < 2 else [*keys[:2], keys[-1]] if brevity == 2 else [keys[0].split(":")[0], keys[-1]]
            hints = "   " + " · ".join(keys)
        return Text.assemble(
            (model, "bold"), " · ollama " if brevity < 3 else " · ", server, f" · {workspace} · {counts} · ",
            *((embedding, "yellow"), " · ") * bool(embedding), state, (hints, "dim"))
