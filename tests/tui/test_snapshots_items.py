"""Each item of the TUI work as a picture at 80×24 and at 160×45: the completion menu, an open
block above the input, a long result's head and its pager, the Memory pane's filter box, the Trace
pane after /why, and the SWI-Prolog habits in the transcript. Stored under
__snapshots__/test_snapshots_items/ (`pytest tests/tui --snapshot-update` rewrites them). Nothing on
screen depends on time: the Ollama ping is off and no clock or date is shown."""

from __future__ import annotations

from tests.tui.conftest import idle, type_turn, until
from tests.tui.test_snapshots import _start, _still

NARROW, WIDE = (80, 24), (160, 45)


async def _type(pilot, text: str) -> None:
    """Type `text` key by key, as a user does (the completion menu follows what is typed)."""
    pilot.app.entry.focus()
    await pilot.press(*["space" if ch == " " else ch for ch in text])
    await pilot.pause()


async def _show_side(pilot) -> None:
    """The side pane starts hidden below 100 columns; F9 shows it."""
    side = pilot.app.query_one("#side")
    if not side.display:
        await pilot.press("f9")
        await until(pilot, lambda: side.display)
    await pilot.pause()


def _scene(scene):
    """Two tests, one per size, from one `scene(pilot)` played after `_start`."""
    def at(size):
        def test(make_app, snap_compare):
            async def run_before(pilot):
                await _start(pilot)
                await scene(pilot)
                await _still(pilot)

            assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
        return test
    return at(NARROW), at(WIDE)


# -- input: the completion menu, an open block, an unfinished clause ------------------------------

async def _completion_menu(pilot):
    app = pilot.app
    await _type(pilot, "/set ")
    await until(pilot, lambda: app.entry.menu.is_open and app.entry.menu.option_count > 1)
    await pilot.pause()


test_completion_menu_80x24, test_completion_menu_160x45 = _scene(_completion_menu)


async def _open_block(pilot):
    app = pilot.app
    for line in ['"""', "p(a).", "q(b)."]:
        await type_turn(pilot, line)
    await until(pilot, lambda: app.entry.block_lines.display
                and str(app.entry.block_lines.render()).count("\n") == 2)
    await pilot.pause()


test_open_block_80x24, test_open_block_160x45 = _scene(_open_block)


async def _unfinished_clause(pilot):
    app = pilot.app
    await type_turn(pilot, "anc(X, Z) :-")
    await type_turn(pilot, "parent_of(X, Y),")
    await until(pilot, lambda: app.entry.block_lines.display
                and "parent_of(X, Y)," in str(app.entry.block_lines.render()))
    await pilot.pause()


test_unfinished_clause_80x24, test_unfinished_clause_160x45 = _scene(_unfinished_clause)


# -- large results: the head and "… N more lines", then the pager ----------------------------------

async def _long_listing(pilot):
    from sym.repl.tui.pager import More

    app = pilot.app
    await type_turn(pilot, "/fact " + " ".join(f"n({i})." for i in range(300)))
    await idle(pilot)
    await type_turn(pilot, "/listing n")
    await idle(pilot)
    await until(pilot, lambda: app.transcript.query(More))
    app.entry.focus()
    app.transcript.scroll_end(animate=False)
    await pilot.pause()


test_long_result_head_80x24, test_long_result_head_160x45 = _scene(_long_listing)


async def _pager(pilot):
    from sym.repl.tui.pager import More, PagerScreen

    app = pilot.app
    await _long_listing(pilot)
    (more,) = app.transcript.query(More)
    more.focus()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, PagerScreen))
    await pilot.pause()


test_long_result_pager_80x24, test_long_result_pager_160x45 = _scene(_pager)


# -- the Memory pane's filter box --------------------------------------------------------------------

async def _memory_filter(pilot):
    from textual.widgets import Input

    app = pilot.app
    await type_turn(pilot, "/fact " + " ".join(f"n({i})." for i in range(50)) + " likes(ann, tea).")
    await idle(pilot)
    await _show_side(pilot)
    app.query_one("#tabs").active = "tab-memory"
    app.query_one("#memory-tabs").active = "mem-facts"
    await pilot.pause()
    facts = app.query_one("#facts")
    facts.focus()
    await pilot.press("slash")
    box = app.query_one("#mem-filter", Input)
    await until(pilot, lambda: app.focused is box)
    await pilot.press(*"tea")
    await until(pilot, lambda: "1 of 52 facts" in str(box.border_subtitle) or "1/52 facts" in str(box.border_subtitle))
    await idle(pilot)


test_memory_filter_80x24, test_memory_filter_160x45 = _scene(_memory_filter)


# -- the Trace pane after /why ----------------------------------------------------------------------

async def _trace_after_why(pilot):
    app = pilot.app
    await type_turn(pilot, "/why ancestor(ann, ben)")
    await idle(pilot)
    await _show_side(pilot)
    app.query_one("#tabs").active = "tab-trace"
    await pilot.pause()
    app.entry.focus()
    await idle(pilot)


test_trace_after_why_80x24, test_trace_after_why_160x45 = _scene(_trace_after_why)


# -- SWI-Prolog habits in the transcript ------------------------------------------------------------

async def _habit_queries(pilot):
    """`?- G.` with `_` answers true. or false.; `\\+` negates a goal."""
    for line in ("?- parent_of(ann, _).", "?- parent_of(ben, _).", r"?- parent_of(ann, X), \+ parent_of(X, _)."):
        await type_turn(pilot, line)
    await idle(pilot)
    pilot.app.transcript.scroll_end(animate=False)
    await pilot.pause()


test_habit_queries_80x24, test_habit_queries_160x45 = _scene(_habit_queries)


async def _habit_listing(pilot):
    """A rule with `\\+` is stored (and listed) with `not`; `listing.` lists as /listing does."""
    for line in (r"leaf(X) :- parent_of(_, X), \+ parent_of(X, _).", "listing."):
        await type_turn(pilot, line)
    await idle(pilot)
    pilot.app.transcript.scroll_end(animate=False)
    await pilot.pause()


test_habit_listing_80x24, test_habit_listing_160x45 = _scene(_habit_listing)
