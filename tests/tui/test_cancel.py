"""Esc stops real runaway jobs in the TUI: a /math job in its worker process and an /infer over a
huge cross product end as "cancelled" within a few seconds (a bound against hanging, not a
benchmark), the input line comes back, and the next command runs."""

from __future__ import annotations

import time

import pytest

from tests.tui.conftest import SIZE, idle, transcript_text, type_turn, until

pytestmark = pytest.mark.asyncio

STOPPED_WITHIN = 5.0      # seconds from Esc to the job's end: generous; "cancelling…" forever failed it


async def press_escape_and_wait(pilot) -> float:
    """Esc on the running job; the seconds until it has ended (fails past STOPPED_WITHIN)."""
    app = pilot.app
    assert app.job is not None and app.entry.disabled
    pressed = time.monotonic()
    await pilot.press("escape")
    assert app.entry.disabled is False                 # the input comes back at once
    await until(pilot, lambda: app.job is None, timeout=STOPPED_WITHIN)
    return time.monotonic() - pressed


def ended_cancelled(app) -> None:
    lines = transcript_text(app).splitlines()
    assert "cancelling…" in lines
    assert "cancelled" in lines[-1], lines[-3:]
    assert list(app._notifications)[-1].title == "cancelled"


async def test_escape_stops_a_runaway_math_job(make_app):
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.shell.ctx.settings.math_timeout = 600         # only Esc can end it in time
        await type_turn(pilot, "/math expand (x+y+z+w)**999")
        await until(pilot, lambda: app.job is not None)
        await pilot.pause(1.0)                             # the worker is busy expanding by now
        assert app.job is not None
        await press_escape_and_wait(pilot)
        ended_cancelled(app)
        assert not app.shell.ctx.cancel.is_set()          # cleared: the next job starts afresh
        await type_turn(pilot, "/math expand (x + 1)**2")
        await idle(pilot)
        assert transcript_text(app).splitlines()[-1] == "x**2 + 2*x + 1"


async def test_escape_stops_inference_over_a_huge_cross_product(make_app):
    app = make_app()
    n = 3000                                               # 9,000,000 pairs if it ran to the end
    for pred in "ab":
        assert app.shell.execute("/fact " + " ".join(f"{pred}({i})." for i in range(n)))[1].ok
    assert app.shell.execute("/rule pair(X, Y) :- a(X), b(Y).")[1].ok
    assert app.shell.execute("/set max_facts 100000000")[1].ok   # the cap must not be what stops it
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await type_turn(pilot, "/infer")
        await until(pilot, lambda: app.job is not None)
        await pilot.pause(0.3)
        assert app.job is not None
        await press_escape_and_wait(pilot)
        ended_cancelled(app)
        assert not app.shell.memory.engine.complete        # it did not run to the end
        await type_turn(pilot, "p(a).")                     # the shell takes input again
        await idle(pilot)
        assert any(it.text == "p(a)." for it in app.shell.memory.items.values())
