"""The TUI learns what changed from events alone: documents, schema, settings and workspaces reach
its panes as Textual messages, the bus never makes the shell wait, and no command is known by name."""

from __future__ import annotations

import ast
import threading
import time
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widgets import DataTable, TabbedContent

from sym.core.events import Warning
from sym.repl.tui.item_table import ItemTable
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


async def cells(pilot, table: str) -> list[list[str]]:
    """The rows of the Memory tab's `table`, its tab opened first (as a user would: a hidden table
    is filled when it is opened)."""
    app = pilot.app
    app.query_one("#memory-tabs", TabbedContent).active = f"mem-{table}"
    await pilot.pause()
    found = app.query_one(f"#{table}")   # a DataTable, or an ItemTable for facts and rules
    return [[str(c) for c in found.get_row_at(i)] for i in range(found.row_count)]


def on_screen(table: ItemTable) -> list[str]:
    """The table's lines as drawn now (its header first)."""
    view = table.scrollable_content_region
    return [strip.text for strip in table.render_lines(Region(0, 0, view.width, view.height))]


def detail(app) -> str:
    return str(app.query_one("#detail").render())


async def test_a_loaded_document_appears_in_the_docs_table(stored_app, tmp_path):
    app = stored_app
    doc = tmp_path / "notes.md"
    doc.write_text("Anne is kind.\n\nBob is tall.\n", encoding="utf-8")
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, f"/load {doc}")
        await idle(pilot)
        assert await cells(pilot, "docs") == [["notes.md", "1", str(doc)]]


async def test_a_schema_template_and_a_merge_update_the_schema_table(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "located_in(rome, italy).")
        await type_turn(pilot, '/schema template located_in/2 "{0} is in {1}"')
        await idle(pilot)
        assert await cells(pilot, "schema") == [["located_in/2", "1", "{0} is in {1}"]]
        await type_turn(pilot, "/set schema_merge off")
        await type_turn(pilot, "located_at(paris, france).")
        await idle(pilot)
        assert [row[0] for row in await cells(pilot, "schema")] == ["located_at/2", "located_in/2"]
        await type_turn(pilot, "/schema merge located_at/2 located_in/2 --yes")
        await idle(pilot)
        assert await cells(pilot, "schema") == [["located_in/2", "2", "{0} is in {1}"]]


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
        assert app.query_one("#facts").row_count == 0
        await type_turn(pilot, "q(b).")
        await type_turn(pilot, "/workspace events")
        await idle(pilot)
        assert app.status.workspace == "events" and app.status.facts == 1
        assert [row[1] for row in await cells(pilot, "facts")] == ["p(a)."]


async def test_a_hidden_schema_table_is_filled_when_its_tab_is_opened(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "located_in(rome, italy).")
        await idle(pilot)
        assert app.query_one("#schema", DataTable).row_count == 0     # out of sight: nothing drawn yet
        assert await cells(pilot, "schema") == [["located_in/2", "1", ""]]


async def test_a_bulk_consult_shows_every_row_and_scrolls_to_the_last(make_app, tmp_path):
    facts = tmp_path / "many.pl"
    facts.write_text("".join(f"n({i}).\n" for i in range(5000)), encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, f"/consult {facts}")
        await idle(pilot)
        table = app.query_one("#facts", ItemTable)
        assert app.status.facts == 5000 and table.row_count == 5000
        lines = on_screen(table)
        assert lines[0].split() == ["id", "fact", "source"]
        assert [line.split()[1] for line in lines[1:4]] == ["n(0).", "n(1).", "n(2)."]
        assert ": n(0)." in detail(app)                        # the cursor is on the first row
        assert table.max_scroll_y == 5000 + 1 - table.scrollable_content_region.height

        table.focus()
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == 4999 and table.scroll_y == table.max_scroll_y
        assert on_screen(table)[-1].split()[1] == "n(4999)."
        assert ": n(4999)." in detail(app) and "source: " in detail(app)
        await pilot.press("up")
        await pilot.pause()
        assert ": n(4998)." in detail(app)

        await type_turn(pilot, "/forget n(4999).")
        await type_turn(pilot, "m(new).")
        await idle(pilot)
        assert app.status.facts == 5000 and table.row_count == 5000
        assert table.get_row_at(-2)[1] == "n(4998)." and table.get_row_at(-1)[1] == "m(new)."
        assert on_screen(table)[-1].split()[1] == "m(new)."     # the view stayed at the end


async def test_clicking_a_row_selects_it(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for fact in ("p(a).", "p(b).", "p(c)."):
            await type_turn(pilot, fact)
        await idle(pilot)
        await pilot.click("#facts", offset=(3, 3))              # the header, then rows 0, 1, 2
        await pilot.pause()
        assert app.query_one("#facts", ItemTable).cursor_row == 2
        assert ": p(c)." in detail(app)


async def test_rows_added_while_the_memory_pane_is_hidden_show_when_it_is_opened(make_app, tmp_path):
    facts = tmp_path / "some.pl"
    facts.write_text("".join(f"n({i}).\n" for i in range(300)), encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.query_one("#tabs", TabbedContent).active = "tab-trace"
        await type_turn(pilot, f"/consult {facts}")
        await idle(pilot)
        app.query_one("#tabs", TabbedContent).active = "tab-memory"
        await pilot.pause()
        table = app.query_one("#facts", ItemTable)
        assert table.row_count == 300 and table.max_scroll_y > 0
        assert on_screen(table)[1].split()[1] == "n(0)."


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
    from sym.repl.commands import builtin_registry

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
