"""The TUI's input line assembles turns by the rules batch, pipe and the line REPL use."""

from __future__ import annotations

import pytest

from tests.shell.test_front_end_inputs import INPUTS, SCRIPT
from tests.tui.conftest import SIZE, type_turn

pytestmark = pytest.mark.asyncio


async def test_typed_lines_become_the_inputs_every_front_end_gets(make_app):
    app = make_app()
    turns: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        app.run_turn = turns.append          # record what would run
        for line in SCRIPT.splitlines():
            await type_turn(pilot, line)
        await pilot.pause()
        assert turns == INPUTS[:-1]          # no end of input in a TUI: the last clause waits for its '.'
        assert "end the clause with ." in app.entry.placeholder
        await type_turn(pilot, ".")
        await pilot.pause()
        assert turns[-1] == "last(x)\n."
