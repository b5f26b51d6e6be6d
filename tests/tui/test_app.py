"""The TUI driven through its input line with Pilot: real commands, real Shell, panes asserted."""

from __future__ import annotations

import threading

import pytest
from textual import events
from textual.widgets import Markdown, Tree

from sym.core.events import LLMCall, LLMToken, ModelShown, TraceNode
from sym.core.logic.parser import parse_atom
from sym.core.memory.working import item_id
from sym.repl.registry import Command
from sym.repl.results import Message
from sym.repl.tui.item_table import ItemTable
from tests.tui.conftest import SIZE, _walk, idle, palette_prompts, transcript_text, type_turn, until

pytestmark = pytest.mark.asyncio


def add_command(app, name, handler):
    """A test-only command on this app's registry (streams and traces without a model)."""
    app.shell.registry.add(Command(name, handler, group="test"))


async def test_a_typed_fact_appears_in_memory(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "parent_of(ann, ben).")
        await idle(pilot)
        facts = app.query_one("#facts", ItemTable)
        iid = item_id(parse_atom("parent_of(ann, ben)"))
        assert iid in facts.rows
        assert str(facts.get_row(iid)[1]) == "parent_of(ann, ben)."
        assert "added fact" in transcript_text(app)
        assert app.status.facts == 1
        facts.focus()
        facts.move_cursor(row=0)
        await pilot.pause()
        detail = str(app.query_one("#detail").render())
        assert "source: typed" in detail and "provenance: asserted" in detail


async def test_forgetting_a_fact_removes_its_row(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "p(a).")
        await type_turn(pilot, "/forget p(a).")
        await idle(pilot)
        assert app.query_one("#facts", ItemTable).row_count == 0
        assert app.shell.memory.items == {}


async def test_why_shows_a_proof_tree(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "parent_of(ann, ben).")
        await type_turn(pilot, "ancestor(X, Y) :- parent_of(X, Y).")
        await type_turn(pilot, "/why ancestor(ann, ben)")
        await idle(pilot)
        trees = [w for w in app.transcript.children if isinstance(w, Tree)]
        assert len(trees) == 1
        root = trees[0].root.children[0]
        assert str(root.label).startswith("ancestor(ann, ben)  [rule r")
        assert [str(c.label).split("  ")[0] for c in root.children] == ["parent_of(ann, ben)"]
        assert "rules used:" in transcript_text(app)


async def test_an_error_is_said_once_and_changes_nothing(make_app):
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await type_turn(pilot, "p(a).")
        await idle(pilot)
        before = dict(app.shell.memory.items)
        await type_turn(pilot, "q(b). r(.")   # ends like a clause, so it is one turn (and a bad one)
        await idle(pilot)
        assert app.shell.memory.items == before
        assert app.query_one("#facts", ItemTable).row_count == 1
        assert not list(app._notifications)     # in the transcript only, not again as a toast
        assert "error:" in transcript_text(app).splitlines()[-1]
        assert app.entry.disabled is False


async def test_streamed_text_appears_incrementally(make_app):
    gate = threading.Event()

    def drip(ctx, arg, run):
        ctx.emit(LLMToken("Socrates is **mortal**"))
        gate.wait(10)
        ctx.emit(LLMToken(", because all men are."))
        return Message("done")

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        add_command(app, "/drip", drip)
        await type_turn(pilot, "/drip")
        await until(pilot, lambda: "mortal" in app.transcript.streamed)
        assert "because" not in app.transcript.streamed
        assert app.job is not None and app.entry.disabled is False  # the job still runs; the input stays open
        gate.set()
        await idle(pilot)
        [md] = app.transcript.query(Markdown)
        assert md.source == "Socrates is **mortal**, because all men are."
        assert transcript_text(app).splitlines()[-1] == "done"


async def test_escape_cancels_a_slow_stream_and_unlocks_the_input(make_app):
    started = threading.Event()

    def slow(ctx, arg, run):
        for i in range(5000):
            ctx.emit(LLMToken(f"t{i} "))
            started.set()
            if ctx.cancel.wait(0.01):
                break
        run.check()
        ctx.memory.add([(parse_atom("never(stored)"), "test")])  # not reached once cancelled
        return Message("finished")

    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        add_command(app, "/slow", slow)
        await type_turn(pilot, "/slow")
        await until(pilot, lambda: started.is_set() and app.transcript.streamed)
        assert app.job is not None
        await pilot.press("escape")
        assert app.entry.disabled is False
        assert app.shell.ctx.cancel.is_set() or app.job is None
        await idle(pilot)
        assert app.shell.memory.items == {}
        assert "cancelled" in transcript_text(app).splitlines()[-1]
        assert not list(app._notifications)
        await type_turn(pilot, "p(a).")     # the shell takes input again
        await idle(pilot)
        assert len(app.shell.memory.items) == 1


async def test_trace_and_models_panes_follow_events(make_app):
    def traced(ctx, arg, run):
        run = ctx.new_run("ask")
        ctx.emit(TraceNode(run, "g", None, "ask.goal", "is ann an ancestor of ben?"))
        ctx.emit(TraceNode(run, "s1", "g", "ask.step", "step 1", status="ok"))
        ctx.emit(LLMCall(7, "llama3.1:8b", "ask.rule", 120, 30, 0.5))
        ctx.emit(TraceNode(run, "g", None, "ask.goal", "is ann an ancestor of ben?", status="proved"))
        ctx.emit(ModelShown("z3.model", "model of the knowledge base", "worker = alice\nwearing = true"))
        return Message("traced")

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        add_command(app, "/traced", traced)
        await type_turn(pilot, "/traced")
        await idle(pilot)
        trace = app.query_one("#trace", Tree)
        [run] = trace.root.children
        assert str(run.label) == "/traced  · answering"        # the input that started it, not "ask-1"
        [goal] = run.children[:1]
        assert str(goal.label) == "question is ann an ancestor of ben?  [proved]"
        assert "step 1" in str(goal.children[0].label)
        assert any(str(n.label).startswith("model judging rule instances · llama3.1:8b") for n in run.children)
        assert not any("ask." in str(n.label) for n in _walk(trace.root))     # no internal event names
        models = app.query_one("#models")
        assert "z3.model" in models.shown
        assert "worker = alice" in str(models.shown["z3.model"][1].render())


async def test_slash_commands_are_suggested_and_tab_completes(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.entry.focus()
        for key in "/lo":
            await pilot.press(key)
        await until(pilot, lambda: app.entry._suggestion == "/load")
        await pilot.press("tab")
        assert app.entry.value == "/load"


async def test_history_recalls_and_persists(make_app, sym_home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "p(a).")
        await type_turn(pilot, "/show")
        await idle(pilot)
        app.entry.focus()
        await pilot.press("up")
        assert app.entry.value == "/show"
        await pilot.press("up")
        assert app.entry.value == "p(a)."
        await pilot.press("down", "down")
        assert app.entry.value == ""
    text = (sym_home / "history").read_text()
    assert "+p(a).\n" in text and "+/show\n" in text


async def test_a_triple_quoted_block_and_a_paste_are_one_turn_each(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for line in ['"""', "p(a).", "q(X) :- p(X).", '"""']:
            await type_turn(pilot, line)
        await idle(pilot)
        assert app.shell.memory.counts() == {"fact": 1, "rule": 1, "constraint": 0}
        inputs = [w for w in app.transcript.children if "input" in w.classes]
        assert len(inputs) == 1
        app.entry.focus()
        app.entry.post_message(events.Paste("r(b).\ns(c)."))
        await pilot.pause()
        await idle(pilot)
        assert app.shell.memory.counts()["fact"] == 3
        assert len([w for w in app.transcript.children if "input" in w.classes]) == 2


async def test_palette_offers_registry_commands(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        prompts = await palette_prompts(pilot, "forget")
        assert any("/forget" in p for p in prompts)
        await pilot.press("enter")
        await pilot.pause()
        assert app.entry.value == "/forget "


async def test_f9_toggles_the_side_pane_and_f1_opens_help(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f9")
        assert app.query_one("#side").display is False
        await pilot.press("f9")
        assert app.query_one("#side").display is True
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"    # more in test_layout.py


async def test_ctrl_s_saves_the_session(sym_home):
    from sym.repl.dispatcher import MemoryOptions, open_shell
    from sym.repl.tui.app import SymApp
    from sym.repl.tui.bridge import Bus
    from sym.repl.tui.history import History

    bus = Bus()
    shell = open_shell(MemoryOptions(persistent=False), emit=bus)
    app = SymApp(shell, bus=bus, ping_every=None, history=History(None))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await type_turn(pilot, "p(a).")
            await pilot.press("ctrl+s")
            await idle(pilot)
            assert "session saved as tui-" in transcript_text(app)
            assert shell.ctx.session.path.name.startswith("tui-")
    finally:
        app.close_shell()


async def test_the_app_opens_its_workspace_after_the_first_paint(sym_home):
    from sym.repl.dispatcher import MemoryOptions
    from sym.repl.tui.app import SymApp
    from sym.repl.tui.history import append_history

    append_history(sym_home / "history", "/show")          # from an earlier session
    app = SymApp(options=MemoryOptions("tuitest"), ping_every=None)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.shell is not None and not app.entry.disabled, timeout=30)
        assert app.shell.ctx.streams is True
        await type_turn(pilot, "p(a).")
        await idle(pilot)
        assert app.status.workspace == "tuitest" and app.status.facts == 1
        assert app.query_one("#facts", ItemTable).row_count == 1
        app.entry.focus()
        await pilot.press("up", "up")
        assert app.entry.value == "/show"
    app.close_shell()
    assert (sym_home / "history").read_text().count("+p(a).") == 1


async def test_the_status_line_pings_ollama_without_blocking(make_app):
    app = make_app()
    app.ping_every = 60
    app.shell.ctx.settings.ollama_host = "http://127.0.0.1:9"   # nothing listens on the discard port
    async with app.run_test(size=SIZE) as pilot:
        app.ping_ollama()
        await until(pilot, lambda: app.status.ollama is False)
        assert "ollama down" in str(app.status.render()).replace(" · ", " ")


async def test_cancelled_is_not_left_set_for_the_next_command(make_app):
    def checks_cancel(ctx, arg, run):
        run.check()
        return Message("ok")

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        add_command(app, "/quick", checks_cancel)
        app.shell.ctx.cancel.set()          # left over from an earlier Esc that nothing checked
        await type_turn(pilot, "/quick")
        await idle(pilot)
        assert transcript_text(app).splitlines()[-1] == "ok"


PAINT_PATH = """
import sys
from sym.repl.tui.app import SymApp
from sym.repl.tui.history import History

class Painted(SymApp):
    def on_ready(self, event):
        event.prevent_default()      # stop at the first frame: no side panes, no workspace
        print(" ".join(sorted(sys.modules)), flush=True)
        self.exit(return_code=0)

Painted(ping_every=None, history=History(None)).run(headless=True, size=(120, 35))
"""


async def test_the_first_frame_loads_no_memory_results_or_side_panes(sym_home):
    """What the first paint must not wait for (benchmarks/startup_bench.py measures how long it takes)."""
    import asyncio
    import subprocess
    import sys

    from tests.conftest import ROOT

    proc = await asyncio.to_thread(subprocess.run, [sys.executable, "-c", PAINT_PATH], cwd=ROOT,
                                   capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    loaded = set(proc.stdout.split())
    assert "sym.repl.tui.app" in loaded and "textual.app" in loaded
    for heavy in ("chromadb", "sym.core.memory", "sym.core.memory.working", "sym.core.logic.parser", "sym.core.settings",
                  "sym.repl.dispatcher", "sym.repl.results", "sym.repl.render", "sym.repl.tui.palette", "sym.repl.tui.side",
                  "sym.repl.tui.memory_pane", "sym.repl.tui.item_table", "textual.widgets._markdown",
                  "textual.widgets._data_table", "textual.widgets._tabbed_content", "urllib.request"):
        assert heavy not in loaded, f"{heavy} is on the first-paint path"
