"""The completion menu at the input line, the lines of an open block shown as typed, and Esc
bringing the focus back to the input."""

from __future__ import annotations

import pytest

from tests.tui.conftest import SIZE, idle, type_turn

pytestmark = pytest.mark.asyncio


async def _type(pilot, text: str) -> None:
    """Type `text` key by key, as a user does (the menu follows what is typed)."""
    pilot.app.entry.focus()
    await pilot.press(*["space" if ch == " " else ch for ch in text])
    await pilot.pause()


def _shown(app) -> list[str]:
    menu = app.entry.menu
    return [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)] if menu.is_open else []


async def test_typing_a_command_shows_its_candidates_and_tab_cycles_through_them(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _type(pilot, "/exp")
        assert _shown(app) == ["/explore", "/export"]
        await pilot.press("tab")
        assert app.entry.value == "/explore"
        await pilot.press("tab")
        assert app.entry.value == "/export"
        await pilot.press("tab")                       # wraps around
        assert app.entry.value == "/explore"
        await pilot.press("shift+tab")
        assert app.entry.value == "/export" and app.focused is app.entry


async def test_enter_on_a_highlighted_candidate_takes_it_and_runs_nothing(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _type(pilot, "/math ")
        assert "factor" in _shown(app) and "solve" in _shown(app)
        await pilot.press("down", "down")              # ↓ moves in the open menu, not the history
        assert app.entry.menu.chosen == "factor"
        await pilot.press("enter")
        assert app.entry.value == "/math factor " and app.job is None and not app.queue
        assert not app.entry.menu.is_open


async def test_esc_closes_the_menu_and_arrows_are_history_again(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "p(a).")
        await idle(pilot)
        await _type(pilot, "/s")
        assert app.entry.menu.is_open
        await pilot.press("escape")
        assert not app.entry.menu.is_open and app.entry.value == "/s"
        await pilot.press("up")
        assert app.entry.value == "p(a)."


async def test_one_candidate_shows_no_menu(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _type(pilot, "/listi")
        assert not app.entry.menu.is_open
        await pilot.press("tab")                       # the ghost text is taken, as before
        assert app.entry.value == "/listing"


async def test_completing_never_repeats_a_word_already_typed(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "parent_of(ann, ben).")
        await idle(pilot)
        for typed in ["/explore show ", "/explore show program ", "/memory facts ", "/show rules ",
                      "/listing parent_of ", "/help /load "]:
            app.entry.value = ""
            await _type(pilot, typed)
            await pilot.press("tab")
            await pilot.pause()
            words = app.entry.value.split()
            assert all(a != b for a, b in zip(words, words[1:])), app.entry.value


async def test_query_goals_settings_and_files_complete_from_the_registry(make_app, tmp_path, monkeypatch):
    (tmp_path / "family.pl").write_text("p(a).\n")
    (tmp_path / "facts.txt").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "parent_of(ann, ben).")
        await type_turn(pilot, "ancestor(X, Y) :- parent_of(X, Y).")
        await idle(pilot)
        cases = {"?- ": ["ancestor", "parent_of"], "?- parent_of(X, Y), ": ["ancestor", "parent_of"],
                 "/set world ": ["auto", "closed", "open"], "/consult f": ["facts.txt", "family.pl"],
                 "/export prolog f": ["facts.txt", "family.pl"], "/tell --from f": ["facts.txt", "family.pl"]}
        for typed, expected in cases.items():
            app.entry.value = ""
            await _type(pilot, typed)
            assert _shown(app) == expected, typed
        app.entry.value = ""
        await _type(pilot, "?- parent_of(X, Y), anc")
        await pilot.press("tab")
        assert app.entry.value == "?- parent_of(X, Y), ancestor"


async def test_the_lines_of_an_open_block_show_above_the_input_until_it_ends(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lines = app.entry.block_lines
        for line in ['"""', "p(a).", "q(b)."]:
            await type_turn(pilot, line)
        await pilot.pause()
        assert lines.display and str(lines.render()).split("\n") == ['"""', "p(a).", "q(b)."]
        await _type(pilot, "/s")                       # inside a block a line is text: no menu
        assert not app.entry.menu.is_open
        app.entry.value = ""
        await type_turn(pilot, '"""')
        await pilot.pause()
        assert not lines.display
        await idle(pilot)
        assert app.shell.memory.counts()["fact"] == 2


async def test_an_unfinished_clause_shows_and_esc_clears_it(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lines = app.entry.block_lines
        await type_turn(pilot, "q(X) :-")
        await pilot.pause()
        assert lines.display and "q(X) :-" in str(lines.render())
        await pilot.press("escape")
        await pilot.pause()
        assert not lines.display and not app.entry.assembler.pending


async def test_esc_brings_the_focus_back_to_the_input_from_a_pane(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "p(a).")
        await idle(pilot)
        app.query_one("#facts").focus()
        await pilot.pause()
        assert app.focused is not app.entry
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is app.entry


async def test_an_input_from_the_history_opens_no_menu_so_arrows_keep_walking_it(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for line in ["p(a).", "/q"]:        # "/q" alone would offer /q, /query and /quit
            await type_turn(pilot, line)
            await idle(pilot)
        await pilot.press("up")
        assert app.entry.value == "/q" and not app.entry.menu.is_open
        await pilot.press("up")
        assert app.entry.value == "p(a)."


async def test_the_menu_shows_above_the_input_and_a_click_takes_a_candidate(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _type(pilot, "/memory ")
        menu = app.entry.menu
        assert menu.region.height >= 4 and menu.region.y < app.entry.region.y
        await pilot.click(menu, offset=(3, _shown(app).index("rules")))
        await pilot.pause()
        assert app.entry.value == "/memory rules " and not menu.is_open and app.focused is app.entry
