"""A long result: its head in the transcript, the whole text in a pager one keypress away."""

from __future__ import annotations

import pytest
from textual.widgets import Log

from sym.repl.tui.pager import HEAD_LINES, More, PagerScreen
from tests.tui.conftest import SIZE, idle, type_turn

pytestmark = pytest.mark.asyncio


async def test_a_long_listing_shows_its_head_and_pages_through_all(make_app):
    app = make_app()
    n = 1000
    assert app.shell.execute("/fact " + " ".join(f"n({i})." for i in range(n)))[1].ok
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "/listing n")
        await idle(pilot)
        (more,) = app.transcript.query(More)
        shown = [w for w in app.transcript.children if "result" in w.classes][-1]
        assert str(shown.render()).count("\n") == HEAD_LINES - 1
        assert f"{len(more.lines) - HEAD_LINES:,} more lines" in str(more.render())
        assert any(line.endswith("n(999).") for line in more.lines)
        more.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PagerScreen)
        assert app.screen.query_one(Log).line_count == len(more.lines)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PagerScreen)


async def test_a_short_result_is_shown_whole(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "p(a).")
        await idle(pilot)
        await type_turn(pilot, "/listing")
        await idle(pilot)
        assert not app.transcript.query(More)
