"""The status line (model, whether the model server answers, workspace, counts, running job) and
the server ping.

The ping is a plain HTTP GET of the backend's liveness URL (core.llm.liveness_url: the same host
resolution the backend uses) with a short timeout, run by the app in a worker thread; no model
client is imported for it.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


def ping(url: str, timeout: float = 1.5) -> bool:
    """True when the server answers a GET of `url` (core.llm.liveness_url)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return 200 <= reply.status < 300
    except (OSError, ValueError, urllib.error.URLError):
        return False


class StatusLine(Static):
    DEFAULT_CSS = "StatusLine { dock: bottom; height: 1; background: $panel; color: $text; padding: 0 1; }"

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.model = "?"
        self.ollama: bool | None = None
        self.workspace = "…"
        self.facts = 0
        self.rules = 0
        self.job = ""
        self.embedding = ""    # the background writer's progress or failure (empty when caught up)
        self._shown: Text | None = None

    def show(self, **fields) -> None:
        for key, value in fields.items():
            setattr(self, key, value)
        line = self.line_text()
        if line != self._shown:
            self._shown = line
            # one docked line whatever it says: repaint it without a layout of the whole screen
            # (a bulk add's progress and counts would otherwise cost one each)
            self.update(line, layout=False)

    def line_text(self) -> Text:
        state = {None: ("not checked", "dim"), True: ("up", "green"), False: ("down", "red")}[self.ollama]
        job = ("running " + self.job[:40], "bold yellow") if self.job else ("idle", "dim")
        return Text.assemble(
            (self.model, "bold"), " · ollama ", state, f" · workspace {self.workspace} · "
            f"{self.facts} facts, {self.rules} rules · ", *((self.embedding, "yellow"), " · ") * bool(self.embedding),
            job, ("   F1 help · Ctrl+P commands · Esc cancel", "dim"))
