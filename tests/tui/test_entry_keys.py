"""Keys at the input line: focus stays there, PageUp/PageDown scroll the transcript, Esc leaves a block."""

from __future__ import annotations

import pytest

from tests.tui.conftest import SIZE, idle, type_turn

pytestmark = pytest.mark.asyncio


async def test_tab_on_an_empty_prompt_keeps_the_focus_and_the_next_keys_are_typed(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.entry.focus()
        await pilot.press("tab")
        assert app.focused is app.entry
        await pilot.press("p", "(", "a", ")", ".")
        assert app.entry.value == "p(a)."


async def test_page_keys_scroll_the_transcript_from_the_input(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "/fact " + " ".join(f"n({i})." for i in range(60)))
        await idle(pilot)
        await type_turn(pilot, "/listing n")
        await idle(pilot)
        await pilot.pause()
        bottom = app.transcript.scroll_y
        assert bottom > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert app.transcript.scroll_y < bottom and app.focused is app.entry
        await pilot.press("pagedown")
        await pilot.pause()
        assert app.transcript.scroll_y > 0


async def test_escape_leaves_an_unfinished_block_and_nothing_is_stored(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for line in ['"""', "p(a).", "q(b)."]:
            await type_turn(pilot, line)
        assert app.entry.assembler.in_block
        await pilot.press("escape")
        assert not app.entry.assembler.in_block and "line" not in app.entry.placeholder
        await type_turn(pilot, "r(c).")
        await idle(pilot)
        assert app.shell.memory.counts()["fact"] == 1          # r(c) only: the block was dropped


async def test_the_palette_shows_usages_as_written(make_app):
    from tests.tui.conftest import palette_prompts

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        prompts = await palette_prompts(pilot, "sessions")
        assert any("/sessions [rm NAME] [--yes]" in p for p in prompts), prompts


async def test_ctrl_r_finds_earlier_inputs_newest_first(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for line in ["parent_of(ann, ben).", "likes(ann, tea).", "parent_of(ben, cy).", "/listing"]:
            await type_turn(pilot, line)
            await idle(pilot)
        app.entry.value = "parent"
        await pilot.press("ctrl+r")
        assert app.entry.value == "parent_of(ben, cy)."
        await pilot.press("ctrl+r")
        assert app.entry.value == "parent_of(ann, ben)."
        await pilot.press("ctrl+r")                              # nothing older: it stays
        assert app.entry.value == "parent_of(ann, ben)." and "no earlier input" in app.entry.placeholder
        app.entry.value = "TEA"                                  # typing starts a new search
        await pilot.press("ctrl+r")
        assert app.entry.value == "likes(ann, tea)."
