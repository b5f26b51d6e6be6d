"""Nothing typed is dropped: turns typed while a job runs queue in order (and say so), text not
yet sent stays in the input, a pasted script is read as --batch reads it, Ctrl+C cancels."""

from __future__ import annotations

import threading

import pytest
from textual import events

from sym.core.events import LLMToken
from sym.repl.registry import Command
from sym.repl.results import Message
from tests.tui.conftest import SIZE, idle, transcript_text, type_turn, until

pytestmark = pytest.mark.asyncio


def gated(app) -> tuple[threading.Event, threading.Event]:
    """A /wait command that runs until `gate` is set (or the job is cancelled)."""
    started, gate = threading.Event(), threading.Event()

    def wait(ctx, arg, run):
        ctx.emit(LLMToken("waiting "))
        started.set()
        while not gate.wait(0.01):
            run.check()
        return Message("went on")
    app.shell.registry.add(Command("/wait", wait, group="test"))
    return started, gate


def facts(app) -> list[str]:
    return [it.text for it in app.shell.memory.items.values()]


async def test_turns_typed_while_a_job_runs_all_run_in_order(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        started, gate = gated(app)
        await type_turn(pilot, "/wait")
        await until(pilot, started.is_set)
        for line in ["a(1).", "a(2).", "a(3)."]:          # typed ahead, Enter after each
            await pilot.press(*line, "enter")
        await pilot.press(*"a(4")                          # not sent yet: stays in the input
        assert app.queue == ["a(1).", "a(2).", "a(3)."] and facts(app) == []
        assert [line for line in transcript_text(app).splitlines() if line.startswith("queued")] == \
            ["queued: a(1).", "queued: a(2).", "queued: a(3)."]
        gate.set()
        await idle(pilot)
        assert facts(app) == ["a(1).", "a(2).", "a(3)."]
        assert app.entry.value == "a(4"
        await pilot.press(*").", "enter")
        await idle(pilot)
        assert facts(app)[-1] == "a(4)."


async def test_a_pasted_script_is_read_as_batch_reads_it(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.entry.focus()
        app.entry.post_message(events.Paste("color(sky, blue).\r\ncolor(grass,\r\n  green).\r\n/listing color\r\n"
                                            "/math expand (x + 1)**2\r\n"))
        await pilot.pause()
        await idle(pilot)
        assert facts(app) == ["color(sky, blue).", "color(grass, green)."]
        inputs = [str(w.render()) for w in app.transcript.children if "input" in w.classes]
        assert inputs == ["» color(sky, blue).\n  color(grass,\n    green).", "» /listing color",
                          "» /math expand (x + 1)**2"]
        assert transcript_text(app).splitlines()[-1] == "x**2 + 2*x + 1"


async def test_a_large_paste_is_one_turn_echoed_as_a_summary(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.entry.focus()
        app.entry.post_message(events.Paste("".join(f"n({i}).\n" for i in range(200))))
        await pilot.pause()
        await idle(pilot)
        assert len(facts(app)) == 200
        [echo] = [str(w.render()) for w in app.transcript.children if "input" in w.classes]
        assert echo.splitlines()[-1].strip() == "… 194 more lines (200 in all)"


async def test_ctrl_c_cancels_the_job_then_clears_the_input_then_quits_when_pressed_twice(make_app):
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        started, gate = gated(app)
        await type_turn(pilot, "/wait")
        await until(pilot, started.is_set)
        await pilot.press("ctrl+c")
        await idle(pilot)
        assert "cancelled" in transcript_text(app).splitlines()[-1]
        assert not list(app._notifications)                 # not the framework's "quit?" toast
        await pilot.press(*"p(a")
        await pilot.press("ctrl+c")
        assert app.entry.value == "" and app.is_running
        await pilot.press("ctrl+c")
        assert app.is_running and transcript_text(app).splitlines()[-1] == "Ctrl+C again (or Ctrl+Q) quits"
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not app.is_running)
