"""A chat turn with no model: what the grammar can read is told (statements) and asked
(questions) as /tell and /ask would; what needs a model says the server is down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sym.repl.agent.lines import run_line
from sym.repl.agent.prompts import sentences
from sym.repl.agent.results import Call, Conversed

if TYPE_CHECKING:
    from sym.core.llm import LLMError
    from sym.core.run import Run
    from sym.repl.context import Context


def offline_turn(ctx: Context, text: str, run: Run, down: LLMError | None) -> Conversed:
    """Statements in a row go to one /tell (the user typed them: no approval), each question to
    /ask --no-fallback; the first that fails ends the turn."""
    lines: list[tuple[str, str]] = []
    told: list[str] = []
    for sentence in sentences(text):
        if sentence.rstrip().endswith("?"):
            if told:
                lines.append(("tell", "/tell " + " ".join(told)))
                told = []
            lines.append(("ask", "/ask --no-fallback " + sentence))
        else:
            told.append(sentence)
    if told:
        lines.append(("tell", "/tell " + " ".join(told)))
    calls: list[Call] = []
    for tool, line in lines:
        run.check()
        _, result = run_line(ctx, line, run.source)
        calls.append(Call(tool, line, result, status="ran"))
        if not result.ok:
            break
    where = f"no model answers ({down.message})" if down is not None else "no model is configured"
    done = Conversed.of(text, calls, None, style="offline")
    done.note = f"offline: {where}; read with the grammar"
    return done
