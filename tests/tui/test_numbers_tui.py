"""Arithmetic and aggregates typed into the TUI: the rule shows in the Memory pane, `?-` answers
with computed values, /why shows the aggregate's solutions, a bad value is one line."""

from __future__ import annotations

import pytest

from sym.repl.tui.item_table import ItemTable
from tests.tui.conftest import SIZE, idle, transcript_text, type_turn

pytestmark = pytest.mark.asyncio


async def test_typed_numbers_are_stored_shown_answered_and_explained(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for line in ("cost(tea, 2). cost(cake, 5).", "total(T) :- aggregate_all(sum(C), cost(_, C), T).",
                     "?- total(T), H is T / 2.", "/why total(7)", "?- cost(X, C), Y is C / 0."):
            await type_turn(pilot, line)
            await idle(pilot)
        rules = app.query_one("#rules", ItemTable)
        shown = [str(rules.get_row(key)[1]) for key in rules.rows]
        assert "total(T) :- aggregate_all(sum(C), cost(_, C), T)." in shown
        text = transcript_text(app)
        assert "T = 7, H = 3.5" in text
        assert "aggregate_all(sum(C), cost(_, C), 7)" in text and "cost(cake, 5)" in text
        assert text.count("division by zero") == 1
