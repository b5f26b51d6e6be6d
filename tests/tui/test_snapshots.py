"""Screens at a fixed size and theme, compared with stored SVGs under __snapshots__/ by
pytest-textual-snapshot (`pytest tests/tui --snapshot-update` rewrites them; a failure writes
snapshot_report.html with both pictures). Nothing on screen depends on time: the Ollama ping
is off and no clock is shown."""

from __future__ import annotations

from sym.core.events import LLMCall, ModelShown, TraceNode
from sym.repl.registry import Command
from sym.repl.results import Message
from tests.tui.conftest import SIZE, idle, type_turn, until


async def _start(pilot) -> None:
    app = pilot.app
    app.theme = "textual-dark"
    app.animation_level = "none"  # the tab underline slides otherwise
    await type_turn(pilot, "parent_of(ann, ben).")
    await type_turn(pilot, "ancestor(X, Y) :- parent_of(X, Y).")
    await idle(pilot)


async def _still(pilot) -> None:
    """No blinking cursor in the picture."""
    for entry in pilot.app.screen.query("Input"):
        entry.cursor_blink = False
    await pilot.pause()


def test_main_layout(make_app, snap_compare):
    async def run_before(pilot):
        await _start(pilot)
        await type_turn(pilot, "?- ancestor(ann, Who).")
        await idle(pilot)
        await _still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_memory_rules_tab_with_a_selected_row(make_app, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await _start(pilot)
        app.query_one("#memory-tabs").active = "mem-rules"
        await pilot.pause()
        rules = app.query_one("#rules")
        rules.focus()
        rules.move_cursor(row=0)
        await _still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_trace_tab_after_a_traced_command(make_app, snap_compare):
    def traced(ctx, arg, run):
        run = ctx.new_run("ask")
        ctx.emit(TraceNode(run, "g", None, "ask.goal", "ancestor(ann, ben)?"))
        ctx.emit(TraceNode(run, "s1", "g", "ask.step", "step 1: grounding", status="ok"))
        ctx.emit(LLMCall(1, "llama3.1:8b", "ask.rule", 200, 40, 1.25))
        ctx.emit(TraceNode(run, "g", None, "ask.goal", "ancestor(ann, ben)?", status="proved"))
        return Message("proved.")

    async def run_before(pilot):
        app = pilot.app
        await _start(pilot)
        app.shell.registry.add(Command("/traced", traced, group="test"))
        await type_turn(pilot, "/traced")
        await idle(pilot)
        app.query_one("#tabs").active = "tab-trace"
        await _still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_models_tab_after_a_model_is_shown(make_app, snap_compare):
    def shown(ctx, arg, run):
        ctx.emit(ModelShown("horn.model", "Horn minimal model", "'rain'\n'wet grass'"))
        ctx.emit(ModelShown("z3.counter-model", "counter-model", "p = False\nq = True"))
        return Message("unknown.")

    async def run_before(pilot):
        app = pilot.app
        await _start(pilot)
        app.shell.registry.add(Command("/shown", shown, group="test"))
        await type_turn(pilot, "/shown")
        await idle(pilot)
        app.query_one("#tabs").active = "tab-models"
        await _still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_command_palette(make_app, snap_compare):
    async def run_before(pilot):
        from textual.command import CommandList

        app = pilot.app
        await _start(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"/why")
        await until(pilot, lambda: app.screen.query(CommandList) and app.screen.query_one(CommandList).option_count)
        await pilot.pause(0.3)
        await _still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def _main_layout_at(size):
    def test(make_app, snap_compare):
        async def run_before(pilot):
            await _start(pilot)
            await type_turn(pilot, "?- ancestor(ann, Who).")
            await idle(pilot)
            await _still(pilot)

        assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    return test


# the side pane starts hidden below 100 columns; the status line keeps the job's state in view
test_main_layout_80x24 = _main_layout_at((80, 24))
test_main_layout_160x45 = _main_layout_at((160, 45))


def _help_screen_at(size):
    def test(make_app, snap_compare):
        async def run_before(pilot):
            await _start(pilot)
            await pilot.press("f1")
            await pilot.pause()
            await _still(pilot)

        assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    return test


test_help_screen_80x24 = _help_screen_at((80, 24))
test_help_screen_160x45 = _help_screen_at((160, 45))
