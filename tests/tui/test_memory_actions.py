"""Rows of the Memory pane act: Enter explains a fact, Delete forgets a row (pressed twice), c copies the id."""

from __future__ import annotations

import pytest

from sym.core.logic.parser import parse_atom
from sym.core.memory.working import item_id
from sym.repl.tui.item_table import ItemTable
from tests.tui.conftest import SIZE, idle, transcript_text, type_turn

pytestmark = pytest.mark.asyncio


async def test_enter_explains_delete_twice_forgets_and_c_copies(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "parent_of(ann, ben).")
        await type_turn(pilot, "likes(ann, tea).")
        await idle(pilot)
        facts = app.query_one("#facts", ItemTable)
        iid = item_id(parse_atom("parent_of(ann, ben)"))
        facts.focus()
        facts.move_cursor(row=facts.keys.index(iid))
        await pilot.press("enter")
        await idle(pilot)
        assert "/why parent_of(ann, ben)" in transcript_text(app)

        facts.focus()
        facts.move_cursor(row=facts.keys.index(iid))
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == iid

        await pilot.press("delete")
        await idle(pilot)
        assert iid in app.shell.memory.items                  # asked first
        await pilot.press("delete")
        await idle(pilot)
        assert iid not in app.shell.memory.items and app.shell.memory.counts()["fact"] == 1


async def test_the_filter_box_shows_matching_rows_and_says_how_many(make_app):
    from textual.widgets import Input

    app = make_app()
    assert app.shell.execute("/fact " + " ".join(f"n({i})." for i in range(50)) + " likes(ann, tea).")[1].ok
    async with app.run_test(size=SIZE) as pilot:
        await idle(pilot)
        facts = app.query_one("#facts", ItemTable)
        assert len(facts.keys) == 51
        facts.focus()
        await pilot.press("slash")
        box = app.query_one("#mem-filter", Input)
        assert app.focused is box
        await pilot.press(*"tea")
        await pilot.pause()
        assert [facts.rows[k][0] for k in facts.keys] == ["likes(ann, tea)."]
        assert box.border_subtitle.startswith("showing 1 of 51 facts")
        await pilot.press("enter")                               # back to the table, on the one row
        await pilot.press("enter")
        await idle(pilot)
        assert "/why likes(ann, tea)" in transcript_text(app)
        box.value = ""
        await pilot.pause()
        assert len(facts.keys) == 51
