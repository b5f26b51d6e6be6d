"""A chat turn in the TUI: the model's memory change opens a modal that shows its command line
whole and takes only a deliberate answer (y or n, then Enter, or a click); keys typed ahead, before
or while it opens, stay in or go back to the input line; Esc while it waits cancels the turn; the
calls show in the transcript and the Trace pane."""

from __future__ import annotations

import pytest

from sym.repl.tui.approval import ApprovalScreen
from tests.agent.test_agent import TURN, script_tweety
from tests.tui.conftest import SIZE, idle, transcript_text, type_turn, until

pytestmark = pytest.mark.asyncio

TOLD = "/tell Penguins are birds. Tweety is a penguin."


def rules(app) -> list[str]:
    return sorted(it.text for it in app.shell.memory.items.values())


async def asking(pilot) -> ApprovalScreen:
    app = pilot.app
    await until(pilot, lambda: app.approvals.pending is not None and isinstance(app.screen, ApprovalScreen))
    return app.screen


@pytest.mark.parametrize("key", ["y", "n"])
async def test_a_change_the_model_proposes_waits_for_y_or_n_then_enter(llm_app, ollama_server, key):
    app = llm_app()
    script_tweety(ollama_server)
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, TURN)
        modal = await asking(pilot)
        assert str(modal.query_one("#approval-line").render()) == TOLD        # the command line, whole
        assert rules(app) == []                                   # nothing stored while it asks
        assert "the model wants to change memory: allow? (y then Enter allows" in transcript_text(app)
        await pilot.press(key)
        await pilot.pause()
        assert app.approvals.pending is not None                  # a key alone answers nothing
        await pilot.press("enter")
        await idle(pilot)
        text = transcript_text(app)
        if key == "y":
            assert rules(app) == ["bird(X) :- penguin(X).", "penguin(tweety)."]
            assert f"→ {TOLD} — stored 2 clauses (approved)" in text
            assert "→ /ask Is Tweety a bird? --no-fallback — true (2 steps)" in text
        else:
            assert rules(app) == []
            assert f"→ {TOLD} — declined" in text and "(declined)" not in text
            assert "warning: nothing changed in memory" in text
        assert "model (unverified): Yes, Tweety is a bird." in text
        assert app.entry.disabled is False and not isinstance(app.screen, ApprovalScreen)


async def test_a_line_typed_ahead_as_the_question_opens_is_no_answer_and_runs_as_its_own_turn(llm_app, ollama_server):
    app = llm_app()
    script_tweety(ollama_server)
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, TURN)
        await pilot.press(*"yel")                 # typed ahead: the question may open in the middle
        await asking(pilot)
        await pilot.press(*"low(sun).", "enter", *"yesterday it")
        await pilot.pause()
        assert app.approvals.pending is not None and rules(app) == []      # "yellow…", "yesterday" approve nothing
        assert app.queue == ["yellow(sun)."]      # the typed-ahead line, whole and in order, waits its turn
        assert app.entry.value == "yesterday it"  # and the half-typed one stays in the input
        await pilot.press("n", "enter")
        await idle(pilot)
        assert rules(app) == ["yellow(sun)."]     # declined; then the typed-ahead line ran
        assert app.entry.value == "yesterday it"


async def test_a_click_on_allow_answers(llm_app, ollama_server):
    app = llm_app()
    script_tweety(ollama_server)
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, TURN)
        await asking(pilot)
        await pilot.click("#allow")
        await idle(pilot)
        assert rules(app) == ["bird(X) :- penguin(X).", "penguin(tweety)."]


async def test_escape_while_asking_cancels_the_turn(llm_app, ollama_server):
    app = llm_app()
    script_tweety(ollama_server)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await type_turn(pilot, TURN)
        await asking(pilot)
        await pilot.press("escape")
        await idle(pilot)
        assert rules(app) == [] and app.approvals.pending is None
        assert not isinstance(app.screen, ApprovalScreen)
        assert "cancelled" in transcript_text(app).splitlines()[-1]
        await pilot.press("y")                     # no question open: an ordinary key
        assert rules(app) == [] and app.entry.value == "y"
