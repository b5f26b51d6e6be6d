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
