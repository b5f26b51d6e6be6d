"""Fixtures for the TUI tests: an app driving a real in-process Shell, a way to await its work,
and SVG snapshots compared with files under tests/tui/snapshots (SYM_UPDATE_SNAPSHOTS=1 rewrites them)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from repl.dispatcher import Shell
from repl.tui.app import SymApp
from repl.tui.bridge import Bus
from repl.tui.history import History

SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZE = (120, 34)


@pytest.fixture
def make_app(sym_home):
    """An app on a fresh in-process shell; the Ollama ping is off so nothing on screen varies."""
    def make(**kwargs) -> SymApp:
        bus = Bus()
        shell = Shell(emit=bus)
        return SymApp(shell, bus=bus, ping_every=None, history=History(sym_home / "history"), **kwargs)
    return make


async def until(pilot, condition, timeout: float = 10.0) -> None:
    """Let the app run until `condition()` holds (fails the test after `timeout` seconds)."""
    import time

    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.02)


async def idle(pilot) -> None:
    """Wait until no command is running and nothing is queued."""
    app = pilot.app
    await until(pilot, lambda: app.job is None and not app.queue)
    await pilot.pause()
    # tables size their columns on idle: under load a screenshot could come first
    await until(pilot, lambda: not any(getattr(t, "_require_update_dimensions", False) or getattr(t, "_new_rows", None)
                                       for t in app.query("DataTable")))
    await pilot.pause()


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


def _normalise(svg: str) -> str:
    # the class prefix is a hash of the content: stable, but strip it so one changed cell
    # shows up as a readable diff rather than every line changing
    return re.sub(r"terminal-\d+", "terminal", svg)


@pytest.fixture
def snapshot(tmp_path):
    """Compare the app's screen with a stored SVG (SYM_UPDATE_SNAPSHOTS=1 stores it)."""
    def check(app, name: str) -> None:
        for entry in app.query("Input"):
            entry.cursor_blink = False
        svg = _normalise(app.export_screenshot(title="sym"))
        path = SNAPSHOTS / f"{name}.svg"
        if os.environ.get("SYM_UPDATE_SNAPSHOTS"):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
            return
        assert path.exists(), f"no snapshot {path.name}: run with SYM_UPDATE_SNAPSHOTS=1 to create it"
        expected = path.read_text(encoding="utf-8")
        if svg != expected:
            failed = tmp_path / path.name
            failed.write_text(svg, encoding="utf-8")
            raise AssertionError(f"screen differs from {path.name}; see {failed}")
    return check
