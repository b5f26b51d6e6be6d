"""Fixtures for the TUI tests: an app driving a real in-process Shell and a way to await its work.
Screenshots are compared by pytest-textual-snapshot's `snap_compare` (see test_snapshots.py)."""

from __future__ import annotations

import pytest

from sym.repl.dispatcher import Shell
from sym.repl.tui.app import SymApp
from sym.repl.tui.bridge import Bus
from sym.repl.tui.history import History

SIZE = (120, 34)


@pytest.fixture
def make_app(sym_home):
    """An app on a fresh in-process shell; the Ollama ping is off so nothing on screen varies."""
    def make(**kwargs) -> SymApp:
        bus = Bus()
        shell = Shell(emit=bus)
        return SymApp(shell, bus=bus, ping_every=None, history=History(sym_home / "history"), **kwargs)
    return make


@pytest.fixture
def llm_app(make_app, ollama_server):
    """An app whose shell talks to the scripted Ollama-protocol server."""
    def make():
        app = make_app()
        app.shell.ctx.settings.ollama_host = ollama_server.url
        return app
    return make


async def palette_prompts(pilot, typed: str) -> list[str]:
    """Open the Ctrl+P palette, type `typed`, and return the prompts it offers."""
    from textual.command import CommandList

    app = pilot.app
    await pilot.press("ctrl+p")
    await pilot.press(*typed)
    await until(pilot, lambda: app.screen.query(CommandList) and app.screen.query_one(CommandList).option_count)
    await pilot.pause(0.2)
    options = app.screen.query_one(CommandList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def until(pilot, condition, timeout: float = 60.0, *, settle: bool = True, what=None) -> None:
    """Let the app run until `condition()` holds (fails the test after `timeout` seconds, saying
    `what()` when given). With `settle=False` it only yields to the app between checks instead of
    waiting for every widget to catch up, which takes a while when the shell's thread is busy (to
    catch a job midway)."""
    import asyncio
    import time

    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the app" + (f": {what()}" if what else ""))
        await (pilot.pause(0.02) if settle else asyncio.sleep(0.01))


async def idle(pilot) -> None:
    """Wait until no command is running and nothing is queued."""
    app = pilot.app
    await until(pilot, lambda: app.job is None and not app.queue)
    await pilot.pause()
    # tables size their columns on idle, item tables catch up once per batch: under load a
    # screenshot could come first
    await until(pilot, lambda: not any(getattr(t, "_require_update_dimensions", False) or getattr(t, "_new_rows", None)
                                       or getattr(t, "_pending", False) for t in app.query("DataTable, ItemTable")))
    # a proof tree in the transcript takes its height once its lines are built (Textual builds them on
    # the tree's idle or first render; twice in CI neither came within 60 s, so they are built here)
    await until(pilot, lambda: all(_tree_ready(t) for t in app.transcript.query("Tree")),
                what=lambda: [(str(t.root.label), t._tree_lines_cached is not None, t.size)
                              for t in app.transcript.query("Tree")])
    await pilot.pause()


def _tree_ready(tree) -> bool:
    """Whether a Tree's lines are built and it has its height; builds them and asks for a layout if not."""
    if tree._tree_lines_cached is None or tree.size.height == 0:
        _ = tree._tree_lines                  # the property builds the lines
        tree.refresh(layout=True)
    return tree._tree_lines_cached is not None and tree.size.height > 0


async def type_turn(pilot, text: str) -> None:
    """Type `text` into the input line and press Enter."""
    entry = pilot.app.entry
    entry.focus()
    entry.value = text
    entry.cursor_position = len(text)
    await pilot.press("enter")


def transcript_text(app) -> str:
    parts = []
    for w in app.transcript.children:
        if hasattr(w, "source"):  # Markdown
            parts.append(w.source)
        elif hasattr(w, "root") and hasattr(w.root, "children"):  # Tree
            parts.append("\n".join(str(n.label) for n in _walk(w.root)))
        else:
            parts.append(str(w.render()))
    return "\n".join(parts)


def _walk(node):
    for child in node.children:
        yield child
        yield from _walk(child)

