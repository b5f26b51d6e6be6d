"""Pastes as terminals send them: CR or CRLF line ends make one turn; a one-line paste goes in once."""

from __future__ import annotations

import pytest
from textual import events

from tests.tui.conftest import SIZE, idle

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("ending", ["\r", "\r\n", "\n"])
async def test_a_multi_line_paste_is_one_turn_whatever_the_line_ends(make_app, ending):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.entry.focus()
        app.entry.post_message(events.Paste(ending.join(["e(a, b).", "e(b, c).", "e(c, d)."]) + ending))
        await pilot.pause()
        await idle(pilot)
        assert app.shell.memory.counts()["fact"] == 3
        assert len([w for w in app.transcript.children if "input" in w.classes]) == 1
        assert app.entry.value == ""


async def test_a_one_line_paste_is_inserted_once(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.entry.focus()
        app.entry.post_message(events.Paste("lone(z)."))
        await pilot.pause()
        assert app.entry.value == "lone(z)."
