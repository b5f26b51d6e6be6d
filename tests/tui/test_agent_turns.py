"""A chat turn in the TUI: the model's memory change waits for y/n on its call line; Esc while
it waits cancels the turn; the calls show in the transcript and the Trace pane."""

from __future__ import annotations

import pytest

from tests.agent.test_agent import TURN, script_tweety
from tests.tui.conftest import SIZE, idle, transcript_text, type_turn, until

pytestmark = pytest.mark.asyncio


def rules(app) -> list[str]:
    return sorted(it.text for it in app.shell.memory.items.values())


@pytest.mark.parametrize("key", ["y", "n"])
async def test_a_change_the_model_proposes_waits_for_y_or_n(llm_app, ollama_server, key):
    app = llm_app()
    script_tweety(ollama_server)
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, TURN)
        await until(pilot, lambda: app.approvals.pending is not None)
        assert rules(app) == []                                   # nothing stored while it asks
        assert "the model wants to change memory: allow? y/n" in transcript_text(app)
        await pilot.press(key)
        await idle(pilot)
        text = transcript_text(app)
        if key == "y":
            assert rules(app) == ["bird(X) :- penguin(X).", "penguin(tweety)."]
            assert "→ /tell Penguins are birds. Tweety is a penguin. — stored 2 clauses (approved)" in text
            assert "→ /ask Is Tweety a bird? --no-fallback — true (2 steps)" in text
        else:
            assert rules(app) == []
            assert "(declined)" in text
        assert "model (unverified): Yes, Tweety is a bird." in text
        assert app.entry.disabled is False


async def test_escape_while_asking_cancels_the_turn(llm_app, ollama_server):
    app = llm_app()
    script_tweety(ollama_server)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await type_turn(pilot, TURN)
        await until(pilot, lambda: app.approvals.pending is not None)
        await pilot.press("escape")
        await idle(pilot)
        assert rules(app) == [] and app.approvals.pending is None
        assert "cancelled" in transcript_text(app).splitlines()[-1]
        await pilot.press("y")                     # no question open: an ordinary key
        assert rules(app) == []
