"""The TUI learns what changed from events alone: documents, schema, settings and workspaces reach
its panes as Textual messages, the bus never makes the shell wait, and no command is known by name."""

from __future__ import annotations

import ast
import threading
import time
from pathlib import Path

import pytest
from textual.widgets import DataTable

from sym.core.events import Warning
from tests.tui.conftest import SIZE, idle, transcript_text, type_turn, until

pytestmark = pytest.mark.asyncio
TUI = Path(__file__).resolve().parents[2] / "repl" / "tui"


@pytest.fixture
def stored_app(sym_home):
    """An app on a persistent workspace (documents and workspaces need one)."""
    from sym.repl.dispatcher import MemoryOptions, open_shell
    from sym.repl.tui.app import SymApp
    from sym.repl.tui.bridge import Bus
    from sym.repl.tui.history import History

    bus = Bus()
    app = SymApp(open_shell(MemoryOptions("events", background=False), emit=bus, record=False), bus=bus,
                 ping_every=None, history=History(None))
    yield app
    app.close_shell()


def cells(app, table: str) -> list[list[str]]:
    found = app.query_one(f"#{table}", DataTable)
    return [[str(c) for c in found.get_row_at(i)] for i in range(found.row_count)]


async def test_a_loaded_document_appears_in_the_docs_table(stored_app, tmp_path):
    app = stored_app
    doc = tmp_path / "notes.md"
    doc.write_text("Anne is kind.\n\nBob is tall.\n", encoding="utf-8")
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, f"/load {doc}")
        await idle(pilot)
        assert cells(app, "docs") == [["notes.md", "1", str(doc)]]


async def test_a_schema_template_and_a_merge_update_the_schema_table(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "located_in(rome, italy).")
        await type_turn(pilot, '/schema template located_in/2 "{0} is in {1}"')
        await idle(pilot)
        assert cells(app, "schema") == [["located_in/2", "1", "{0} is in {1}"]]
        await type_turn(pilot, "/set schema_merge off")
        await type_turn(pilot, "located_at(paris, france).")
        await idle(pilot)
        assert [row[0] for row in cells(app, "schema")] == ["located_at/2", "located_in/2"]
        await type_turn(pilot, "/schema merge located_at/2 located_in/2")
        await idle(pilot)
        assert cells(app, "schema") == [["located_in/2", "2", "{0} is in {1}"]]


async def test_set_shows_the_new_model_in_the_status_line(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "/set model qwen2.5:7b")
        await idle(pilot)
        assert app.status.model == "qwen2.5:7b"
        assert "qwen2.5:7b" in str(app.status.line_text())


async def test_switching_workspaces_shows_the_other_ones_memory(stored_app):
    app = stored_app
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "p(a).")
        await type_turn(pilot, "/workspace other")
        await idle(pilot)
        assert app.status.workspace == "other" and app.status.facts == 0
        assert app.query_one("#facts", DataTable).row_count == 0
        await type_turn(pilot, "q(b).")
        await type_turn(pilot, "/workspace events")
        await idle(pilot)
        assert app.status.workspace == "events" and app.status.facts == 1
        assert [row[1] for row in cells(app, "facts")] == ["p(a)."]


async def test_a_bulk_add_counts_every_item_and_pages_its_rows(make_app, tmp_path):
    from sym.repl.tui.memory_pane import PAGE

    facts = tmp_path / "many.pl"
    facts.write_text("".join(f"n({i}).\n" for i in range(3 * PAGE)), encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, f"/consult {facts}")
        await idle(pilot)
        assert app.status.facts == 3 * PAGE
        table = app.query_one("#facts", DataTable)
        assert table.row_count == PAGE             # a screenful and more; the rest as it is scrolled
        table.focus()
        table.move_cursor(row=PAGE - 1)
        await until(pilot, lambda: table.row_count > PAGE)
        await type_turn(pilot, "/forget n(0).")
        await idle(pilot)
        assert app.status.facts == 3 * PAGE - 1


async def test_an_event_emitted_while_the_ui_is_busy_returns_at_once(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        took: list[float] = []
        started = threading.Event()

        def emit() -> None:
            started.wait(5)
            t = time.monotonic()
            app.bus(Warning("from the shell's thread"))
            took.append(time.monotonic() - t)

        thread = threading.Thread(target=emit)
        thread.start()
        started.set()
        time.sleep(0.5)                # the UI thread is busy: it handles nothing meanwhile
        thread.join(5)
        assert took and took[0] < 0.1
        await until(pilot, lambda: "warning: from the shell's thread" in transcript_text(app))


async def test_the_tui_names_no_command():
    """Commands reach the app as events; only the keys' own inputs (KEY_TURNS) name one."""
    from sym.repl.registry import builtin_registry

    names = set(builtin_registry().names())
    found = []
    for path in sorted(TUI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed = {id(node) for stmt in tree.body if isinstance(stmt, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == "KEY_TURNS" for t in stmt.targets)
                   for node in ast.walk(stmt)}
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("/") \
                    and id(node) not in allowed | docstrings and node.value.split()[0] in names:
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not found, found
