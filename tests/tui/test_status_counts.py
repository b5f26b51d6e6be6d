"""The status line counts in words: "1 fact, 1 rule", never "1 facts, 1 rules"."""

from __future__ import annotations

import pytest

from tests.tui.conftest import idle, type_turn

pytestmark = pytest.mark.asyncio


async def test_the_status_line_says_1_fact_1_rule(make_app):
    app = make_app()
    async with app.run_test(size=(200, 40)) as pilot:
        await type_turn(pilot, "parent_of(ann, ben).")
        await idle(pilot)
        await type_turn(pilot, "ancestor(X, Y) :- parent_of(X, Y).")
        await idle(pilot)
        line = app.status.line_text(200).plain
        assert "1 fact, 1 rule" in line, line
