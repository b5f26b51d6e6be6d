"""Views stay true and keys reach every pane: F2/F3/F4 open and focus the side pane's tabs (F2 again steps
through Memory's tables) and F1 lists each pane's keys; the transcript follows the end unless the user
scrolled up, and a resize keeps what was in view; the detail box follows a Delete-Delete and a workspace
switch; a Trace line opens in full."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from textual import events

from sym.core.events import TraceNode
from sym.core.logic.parser import parse_atom
from sym.core.memory.working import item_id
from sym.repl.registry import Command
from sym.repl.results import Message
from tests.tui.conftest import SIZE, idle, type_turn, until

pytestmark = pytest.mark.asyncio


def fid(text: str) -> str:
    return item_id(parse_atom(text))


def detail(app) -> str:
    return str(app.query_one("#detail").render())


def in_view(app, widget) -> bool:
    """Whether any of `widget` shows in the transcript's viewport."""
    transcript = app.transcript
    top, height = transcript.scroll_y, transcript.scrollable_content_region.height
    region = widget.virtual_region
    return region.y < top + height and region.bottom > top


def text_of(static) -> str:
    """What a Static holding a Rich table shows, as text."""
    console = Console(width=160, record=True, file=io.StringIO())
    console.print(static.content)
    return console.export_text()


def at_top(app):
    """The passage at the top of the transcript's view."""
    top = app.transcript.scroll_y
    return [w for w in app.transcript.children if w.virtual_region.y <= top][-1]


# -- keys -------------------------------------------------------------------------------------------

async def test_f2_f3_f4_focus_each_side_tab_and_esc_goes_back_to_the_half_typed_input(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "p(a).")
        await idle(pilot)
        await pilot.press(*"q(b")                 # half typed: the pane keys leave it alone
        tabs, memory = app.query_one("#tabs"), app.query_one("#memory-tabs")
        await pilot.press("f3")
        assert tabs.active == "tab-trace" and app.focused is app.query_one("#trace")
        assert "Trace: ↑↓ steps · Enter read in full" in str(app.status.line_text())   # the pane's keys, below
        await pilot.press("f4")
        assert tabs.active == "tab-models" and app.focused is app.query_one("#models")
        await pilot.press("f2")
        assert tabs.active == "tab-memory" and app.focused is app.query_one("#facts")
        await pilot.press("down")                  # the focused table takes its keys
        assert fid("p(a)") in detail(app)
        steps = []
        for _ in range(4):                         # F2 again: the next of Facts, Rules, Schema, Docs
            await pilot.press("f2")
            steps.append((memory.active, app.focused.id))
        assert steps == [("mem-rules", "rules"), ("mem-schema", "schema"), ("mem-docs", "docs"),
                         ("mem-facts", "facts")]
        assert "Memory: ↑↓ rows · Enter explain" in str(app.status.line_text())
        await pilot.press("escape")
        assert app.focused is app.entry and app.entry.value == "q(b"
        assert "Memory:" not in str(app.status.line_text()) and "F1 help" in str(app.status.line_text())
        await pilot.press(*").", "enter")
        await idle(pilot)
        assert [it.text for it in app.shell.memory.items.values()] == ["p(a).", "q(b)."]


async def test_f3_shows_the_side_pane_where_it_starts_hidden(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await idle(pilot)
        side = app.query_one("#side")
        assert not side.display
        await pilot.press("f3")
        assert side.display and app.focused is app.query_one("#trace")


async def test_f1_lists_every_panes_keys_and_the_status_line_names_the_pane_keys(make_app):
    app = make_app()
    async with app.run_test(size=(160, 45)) as pilot:
        await idle(pilot)
        assert "F2/F3/F4 panes" in str(app.status.line_text())
        await pilot.press("f1")
        await until(pilot, lambda: app.screen.query("#help-panes"))
        keys, panes = (text_of(app.screen.query_one(f"#help-{part}")) for part in ("keys", "panes"))
    for key in ("F2", "F3", "F4", "Ctrl+C", "Esc"):
        assert f"\n{key} " in "\n" + keys
    for heading in ("Memory pane (F2)", "Trace pane (F3)", "Models pane (F4)"):
        assert heading in panes
    memory = panes[panes.index("Memory pane"):panes.index("Trace pane")]
    for key, says in (("Enter", "explain"), ("Delete", "twice"), ("c ", "copy"), ("/ ", "filter")):
        assert any(line.startswith(key) and says in line for line in memory.splitlines()), (key, memory)
    trace = panes[panes.index("Trace pane"):panes.index("Models pane")]
    assert any(line.startswith("Enter") and "in full" in line for line in trace.splitlines())


# -- the transcript's view --------------------------------------------------------------------------

async def test_the_transcript_follows_the_end_unless_scrolled_up_and_an_input_brings_it_back(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for i in range(30):
            app.run_turn(f"n({i}).")
        await idle(pilot)
        transcript = app.transcript
        assert transcript.max_scroll_y > 0 and in_view(app, transcript.children[-1])   # the last result shows
        app.entry.focus()
        await pilot.press("pageup", "pageup")
        await pilot.pause()
        held = transcript.scroll_y
        assert held < transcript.max_scroll_y and not transcript.following
        for i in range(5):                           # results arriving do not pull the view down
            app.run_turn(f"m({i}).")
        await idle(pilot)
        assert transcript.scroll_y == held and not in_view(app, transcript.children[-1])
        await pilot.press(*"last(one).", "enter")    # the user's own input: back to the end
        await idle(pilot)
        assert transcript.following and in_view(app, transcript.children[-1])
        assert "last(one)" in str(transcript.children[-1].render())


async def test_a_resize_keeps_the_end_in_view_or_what_the_user_scrolled_to(make_app):
    app = make_app()
    async with app.run_test(size=(160, 45)) as pilot:
        for i in range(25):
            app.run_turn("/fact " + " ".join(f"long_fact_{i}_{j}(x)." for j in range(6)))
        await idle(pilot)
        transcript = app.transcript
        await pilot.resize_terminal(90, 30)          # narrower: every passage wraps to more lines
        await idle(pilot)
        await until(pilot, lambda: in_view(app, transcript.children[-1]))
        assert transcript.following
        app.entry.focus()
        for _ in range(3):
            await pilot.press("pageup")
        await pilot.pause()
        reading = at_top(app)
        assert not transcript.following and reading is not transcript.children[0]
        await pilot.resize_terminal(160, 45)
        await idle(pilot)
        await pilot.pause()
        assert at_top(app) is reading and not in_view(app, transcript.children[-1])


async def test_after_a_large_paste_the_last_result_is_in_view(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.entry.focus()
        app.entry.post_message(events.Paste("".join(f"n({i}).\n" for i in range(500)) + "?- n(499).\n"))
        await pilot.pause()
        await idle(pilot)
        last = app.transcript.children[-1]
        assert str(last.render()).strip() == "true."
        assert in_view(app, last)


# -- the detail box ---------------------------------------------------------------------------------

async def test_delete_twice_leaves_no_stale_question_in_the_detail_box(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for line in ("p(a).", "p(b).", "p(c)."):
            await type_turn(pilot, line)
        await idle(pilot)
        await pilot.press("f2", "down")            # the cursor on p(b)
        assert detail(app).startswith(f"fact {fid('p(b)')}")
        await pilot.press("delete")
        assert "press Delete again" in detail(app)
        await pilot.press("delete")
        await idle(pilot)
        await until(pilot, lambda: "press Delete again" not in detail(app))
        assert [it.text for it in app.shell.memory.items.values()] == ["p(a).", "p(c)."]
        assert detail(app).startswith(f"fact {fid('p(c)')}")         # the row the cursor is on now
        assert app.focused is app.query_one("#facts")  # the job's end left the focus where the user is
        await pilot.press("delete", "delete")
        await idle(pilot)
        await until(pilot, lambda: "p(c)" not in detail(app))
        assert "press Delete again" not in detail(app)


async def test_a_workspace_switch_shows_none_of_the_old_workspaces_facts(stored_app):
    app = stored_app
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "old_fact(a).")
        await idle(pilot)
        await pilot.press("f2", "home")
        assert "old_fact(a)" in detail(app)
        await type_turn(pilot, "/workspace fresh")
        await idle(pilot)
        assert app.status.workspace == "fresh"
        assert "old_fact" not in detail(app)
        await type_turn(pilot, "new_fact(b).")
        await type_turn(pilot, "/workspace events")    # back: its facts, described as its own
        await idle(pilot)
        await pilot.press("f2", "home")
        await until(pilot, lambda: "old_fact(a)" in detail(app))
        assert "new_fact" not in detail(app)


@pytest.fixture
def stored_app(sym_home):
    """An app on a persistent workspace (switching needs one)."""
    from sym.repl.dispatcher import MemoryOptions, open_shell
    from sym.repl.tui.app import SymApp
    from sym.repl.tui.bridge import Bus
    from sym.repl.tui.history import History

    bus = Bus()
    app = SymApp(open_shell(MemoryOptions("events", background=False), emit=bus, record=False), bus=bus,
                 ping_every=None, history=History(None))
    yield app
    app.close_shell()


# -- Trace ------------------------------------------------------------------------------------------

async def test_enter_on_a_trace_line_opens_it_whole_and_wrapped(make_app):
    long = "because " + " and ".join(f"premise number {i} holds" for i in range(40))

    def traced(ctx, arg, run):
        run = ctx.new_run("ask")
        ctx.emit(TraceNode(run, "g", None, "ask.goal", "is the long one true?", status="proved"))
        ctx.emit(TraceNode(run, "s", "g", "ask.infer", "inference: the answer rests on 40 facts", long, "ok"))
        return Message("proved.")

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.shell.registry.add(Command("/traced", traced, args="[TEXT]", group="test"))
        await type_turn(pilot, "/traced the long one")
        await idle(pilot)
        await pilot.press("f3")
        trace = app.query_one("#trace")
        [run] = trace.root.children
        assert str(run.label) == "/traced the long one  · answering"
        step = run.children[0].children[0]
        assert str(step.label) == "inference: the answer rests on 40 facts  [ok]"
        shown = str(step.children[0].label)
        assert len(shown) < len(long) and shown.endswith("… (Enter: all)")
        trace.move_cursor(step)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.query("#pager-text"))
        text = app.screen.query_one("#pager-text")
        assert str(text.render()).split("\n", 1)[1].replace("\n", " ").split() == long.split()
        assert text.size.height > 2 and text.size.width <= SIZE[0]       # wrapped, not one long line
        await pilot.press("escape")
        assert app.screen.query("#trace")
