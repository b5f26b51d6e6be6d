"""The side pane's tabs (Memory, Trace, Models), built apart from the app so that their
widgets (tables, tabs, trees) load and mount after the first frame has been painted.

Only layout lives here; the panes themselves show what events and memory tell them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import TabbedContent, TabPane

from sym.repl.tui.memory_pane import MemoryPane
from sym.repl.tui.models_pane import ModelsPane
from sym.repl.tui.trace_pane import TracePane


class SidePanes(Vertical):
    DEFAULT_CSS = """
    SidePanes { height: 1fr; }
    SidePanes > TabbedContent { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with TabbedContent(id="tabs"):
            with TabPane("Memory", id="tab-memory"):
                yield MemoryPane(id="memory")
            with TabPane("Trace", id="tab-trace"):
                yield TracePane(id="trace")
            with TabPane("Models", id="tab-models"):
                yield ModelsPane(id="models")
