"""Esc stops real runaway jobs in the TUI: a /math job in its worker process, an /infer over a
huge cross product, a /consult of 200,000 facts and a /load of a long text end as "cancelled"
within a bound against hanging (not a benchmark: benchmarks/cancel_bench.py measures), the input
line comes back, nothing of a half-written /consult or /load stays, and the next command runs."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from tests.tui.conftest import SIZE, idle, transcript_text, type_turn, until

pytestmark = pytest.mark.asyncio

STOPPED_WITHIN = 20.0     # seconds from Esc to the job's end: a bound against hanging ("cancelling…" forever), not a speed
# /consult and /load write the snapshot's one transaction in the foreground (Chroma follows in the
# background), so a cancelled write is a rollback: the same bound applies.
WRITE_STOPPED_WITHIN = STOPPED_WITHIN


async def press_escape_and_wait(pilot, within: float = STOPPED_WITHIN) -> float:
    """Esc on the running job; the seconds until it has ended (fails past `within`)."""
    app = pilot.app
    assert app.job is not None
    pressed = time.monotonic()
    await pilot.press("escape")
    assert app.entry.disabled is False                 # the input comes back at once
    await until(pilot, lambda: app.job is None, timeout=within)
    return time.monotonic() - pressed


def ended_cancelled(app) -> None:
    lines = transcript_text(app).splitlines()
    assert "cancelling…" in lines
    assert "cancelled" in lines[-1], lines[-3:]
    assert not list(app._notifications)      # said once, in the transcript
    last = app.transcript.children[-1]
    assert last.has_class("note") and not last.has_class("error")   # told calmly, not as an error


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
    n = 500             # 125 million triples: the cap below stops it first, seconds in on any machine
    for pred in "abc":
        assert app.shell.execute("/fact " + " ".join(f"{pred}({i})." for i in range(n)))[1].ok
    assert app.shell.execute("/rule t(X, Y, Z) :- a(X), b(Y), c(Z).")[1].ok
    assert app.shell.execute("/set max_facts 50000000")[1].ok   # Esc, not the cap, must be what stops it
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await type_turn(pilot, "/infer")
        await until(pilot, lambda: app.job is not None, settle=False)
        await asyncio.sleep(0.3)     # not pilot.pause: waiting for the screen to settle can outlast the job
        assert app.job is not None
        await press_escape_and_wait(pilot)
        ended_cancelled(app)
        assert not app.shell.memory.engine.complete        # it did not run to the end
        await type_turn(pilot, "p(a).")                     # the shell takes input again
        await idle(pilot)
        assert any(it.text == "p(a)." for it in app.shell.memory.items.values())


# -- /consult and /load write to a real workspace: all or nothing ------------------------------

@pytest.fixture
def stored_app(sym_home):
    """An app on a new persistent workspace (embedded Chroma, the default embedder)."""
    from sym.repl.dispatcher import MemoryOptions, open_shell
    from sym.repl.tui.app import SymApp
    from sym.repl.tui.bridge import Bus
    from sym.repl.tui.history import History

    bus = Bus()
    app = SymApp(open_shell(MemoryOptions("cancel"), emit=bus, record=False), bus=bus, ping_every=None,
                 history=History(None))
    yield app
    app.close_shell()


def stored(shell) -> tuple:
    """What the workspace holds, in memory and in its store."""
    from sym.core.memory import library

    store = shell.memory.store
    return (shell.memory.counts(), len(shell.memory.items), store.count("facts"), store.count("docs"),
            [d.name for d in library.documents(store)])


def written(app, task: str) -> int:
    """How many records the status line says the running job has written so far."""
    found = re.fullmatch(rf"{task}.* (\d+)/\d+", str(app.status.job))
    return int(found.group(1)) if found else 0


async def test_escape_stops_a_big_consult_and_keeps_nothing_of_it(stored_app, tmp_path):
    app = stored_app
    big = tmp_path / "BIG.pl"
    big.write_text("".join(f"edge(n{i}, n{i + 1}).\n" for i in range(200_000)), encoding="utf-8")
    assert app.shell.execute("p(a).")[1].ok
    before = stored(app.shell)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.run_turn(f"/consult {big}")   # not typed: Pilot waits for every widget, which a busy shell makes slow
        await until(pilot, lambda: written(app, "storing") > 0, timeout=120, settle=False)   # its transaction is being written
        assert app.job is not None
        await press_escape_and_wait(pilot, WRITE_STOPPED_WITHIN)
        ended_cancelled(app)
        assert not app.shell.ctx.cancel.is_set()
        assert stored(app.shell) == before                   # the transaction was rolled back
        await type_turn(pilot, "?- edge(n1, n2).")
        await idle(pilot)
        assert "unknown predicate edge/2" in transcript_text(app).splitlines()[-1]   # not even its schema stayed
        await type_turn(pilot, "q(b).")
        await idle(pilot)
        assert app.shell.memory.counts()["fact"] == before[0]["fact"] + 1
        assert app.shell.memory.store.count("facts") == before[2] + 1


async def test_escape_stops_a_big_load_and_keeps_nothing_of_it(stored_app, tmp_path):
    app = stored_app
    small, big = tmp_path / "small.txt", tmp_path / "BIG.txt"
    small.write_text("Anne is kind.\n\nBob is tall.\n", encoding="utf-8")
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
    big.write_text("".join(" ".join(f"{words[(i + j) % 10]}{(i * j) % 89}" for j in range(80)) + f" part {i}.\n\n"
                           for i in range(40_000)), encoding="utf-8")   # ~40,000 chunks: some seconds to cut
    assert app.shell.execute(f"/load {small}")[1].ok
    before = stored(app.shell)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.run_turn(f"/load {big}")   # not typed: Pilot waits for every widget, which a busy shell makes slow
        await until(pilot, lambda: written(app, "loading") > 0, timeout=120, settle=False)   # it is being cut into chunks
        assert app.job is not None
        await press_escape_and_wait(pilot, WRITE_STOPPED_WITHIN)
        ended_cancelled(app)
        assert not app.shell.ctx.cancel.is_set()
        assert stored(app.shell) == before and before[3:] == (1, ["small.txt"])
        await type_turn(pilot, f"/load {small}")                 # the next command runs (a reload: same chunk count)
        await idle(pilot)
        assert transcript_text(app).splitlines()[-1].startswith("reloaded (replacing 1 chunk) small.txt")
        assert stored(app.shell) == before
