"""The layout at 80×24 and wider: the job's state stays in the status line, the side pane starts
hidden when narrow, F1 opens a help screen, and an error is said once (in the transcript)."""

from __future__ import annotations

import pytest

from sym.repl.tui.help_screen import HelpScreen
from sym.repl.tui.status import StatusLine
from tests.tui.conftest import idle, transcript_text, type_turn

NARROW, WIDE = (80, 24), (160, 45)
pytestmark = pytest.mark.asyncio


def shown(static) -> str:
    """A Static's text as drawn at its width."""
    import io

    from rich.console import Console

    console = Console(width=static.content_region.width, file=io.StringIO(), record=True)
    console.print(static.content)
    return console.export_text()


async def test_the_job_state_survives_any_width():
    status = StatusLine()
    status.show(model="some-very-long-model-name:70b-instruct-q4", ollama=True, workspace="a-long-workspace-name",
                facts=123456, rules=7890, embedding="embedding 1,000/20,000")
    for width in (200, 120, 80, 60, 40, 24):
        assert "idle" in str(status.line_text(width)) and status.line_text(width).cell_len <= width
    status.show(job="/infer 3")
    assert "running /infer 3" in str(status.line_text(78))
    assert str(status.line_text(20)).startswith("running /infer")
    status.show(cancelling=True)
    assert "cancelling /infer 3" in str(status.line_text(78))
    assert "F1 help" in str(status.line_text(200)) and "F1 help" not in str(status.line_text(78))


async def test_at_80_columns_the_side_pane_starts_hidden_and_f9_shows_it(make_app):
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        side = app.query_one("#side")
        assert side.display is False
        assert "idle" in str(app.status.render())
        await pilot.press("f9")
        await pilot.pause()
        assert side.display is True and side.size.width >= 30
        await pilot.press("f9")
        assert side.display is False


async def test_at_160_columns_the_side_pane_is_shown(make_app):
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert app.query_one("#side").display is True
        assert "F1 help" in str(app.status.render())


async def test_a_proof_fits_the_transcript_at_80_columns(make_app):
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await type_turn(pilot, "parent_of(ann, ben).")
        await type_turn(pilot, "ancestor(X, Y) :- parent_of(X, Y).")
        await type_turn(pilot, "/why ancestor(ann, ben)")
        await idle(pilot)
        tree = app.transcript.query_one("Tree")
        assert tree.virtual_size.width <= tree.scrollable_content_region.width


async def test_f1_opens_the_help_screen_and_esc_f1_or_q_close_it(make_app):
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        for close in ("escape", "f1", "q"):
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            text = shown(app.screen.query_one("#help-commands"))
            assert "/why FACT" in text and "Show how FACT was derived" in text
            assert "Esc" in shown(app.screen.query_one("#help-keys"))
            await pilot.press(close)
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)
        assert app.job is None and "» /help" not in transcript_text(app)   # nothing was run


async def test_the_help_screen_scrolls(make_app):
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        scroll = app.screen.query_one("#help")
        assert scroll.max_scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y


async def test_an_error_is_said_once_in_the_transcript_not_as_a_toast(make_app):
    app = make_app()
    async with app.run_test(size=NARROW, notifications=True) as pilot:
        await type_turn(pilot, "q(b). r(.")
        await idle(pilot)
        assert "error:" in transcript_text(app).splitlines()[-1]
        assert not list(app._notifications)
