"""The model writes a Proof-of-Thought program, Z3 checks it: the one loop behind `/prove QUESTION`
(core/reason/pot/prove.py), claims (tasks.py) and the AR-LSAT bench (repl/bench/lsat.py).

Each attempt is one model call: a JSON program under the DSL's schema, or an SMT-LIB script
(`proof_format smt2`); a reply that does not parse, a program the interpreter rejects, or one
the caller's `accept` refuses goes back to the model with the exact error (line and column
for a script), and a model timeout moves on to the next attempt (on the last it is raised,
exit 4). A program Z3 cannot settle by proof.timeout goes back too, since a simpler one may
settle; on the last attempt that is TimedOut (exit 4). The user's cancel ends the loop.
Nothing here touches memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.errors import Cancelled, TimedOut, UserError
from sym.core.llm import LLMError
from sym.core.reason.pot.programs import run_any, trace_report, verdicts
from sym.core.reason.pot.schema import Program, program_json_schema
from sym.core.reason.pot.smt2_read import script_complete, script_in_reply

if TYPE_CHECKING:
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.run import Run

HINT = "rephrase the question, /set proof.attempts N, or write the program: /prove --file"


class NoProgram(UserError):
    """No attempt gave a program that checks; `errors` holds each failed attempt's problem."""

    def __init__(self, attempts: int, errors: list[str], last: str, hint: str | None = HINT) -> None:
        super().__init__(f"no valid program after {attempts} attempts; last error: {last}", hint=hint)
        self.attempts, self.errors = attempts, errors


@dataclass
class Written:
    program: Program
    report: ProofReport
    outcome: object                 # what `accept` made of the report (the report itself by default)
    attempts: int = 1
    errors: list[str] = field(default_factory=list)


def write_program(messages: list[dict[str, Any]], run: Run, *, attempts: int, kind: str = "prove.attempt",
                  purpose: str = "prove", accept: Callable[..., Any] | None = None,
                  summary: Callable[[Any], str] | None = None, hint: str | None = HINT,
                  schema: dict[str, Any] | None = None, fmt: str = "json", parent: str = "q") -> Written:
    """The first program the run's model writes (in at most `attempts` calls) that builds, runs
    and passes `accept(report)` (which returns what the caller makes of it, or raises UserError to
    send the problem back). Each attempt is traced as a `kind` node under "q" of the run;
    raises NoProgram when none passed. `fmt` is the language: "json" (the DSL, under `schema`,
    the program schema by default; a caller may tighten it, as AR-LSAT does with one
    verification per option) or "smt2" (an SMT-LIB script, free text, read by Z3's parser).
    A program Z3 cannot settle within the run's proof timeout goes back as a problem, so the next
    attempt can write a simpler one; when it was the last attempt, TimedOut (exit 4) is raised.
    `parent` is the trace node the attempts go under (a sample's own, when several are drawn:
    core/reason/pot/vote.py)."""

    def node(n: int) -> str:
        return f"a{n}" if parent == "q" else f"{parent}.a{n}"

    attempts = max(1, int(attempts))
    checked: dict[str, Any] = {}
    errors: list[str] = []

    def check(program: Any) -> list[str]:
        checked.pop("timeout", None)
        try:
            report = run_any(program, run)
            checked["outcome"] = accept(report) if accept is not None else report
        except Cancelled:
            raise
        except TimedOut as err:
            checked["timeout"] = err
            return [f"{err.message}: write a simpler program (finite sorts, fewer quantifiers)"]
        except UserError as err:
            return [f"the interpreter rejected that program: {err}"]
        checked["report"] = report
        return []

    def on_attempt(n: int, problems: list[str]) -> None:
        checked["n"] = n
        if problems:
            errors.append(_bare(problems[0]))
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            run.trace(node(n), parent, kind, f"attempt {n}", problems[0] + more, "failed")

    if fmt == "smt2":
        how: dict[str, Any] = {"parse": script_in_reply, "noun": "SMT-LIB script", "format": schema,
                               "until": script_complete}     # the prose after a script is not waited for
    else:
        how = {"format": schema or program_json_schema()}
    try:
        program = run.llm.json_with_repair(messages, Program, check=check, attempts=attempts - 1, purpose=purpose,
                                       on_attempt=on_attempt, **how)
    except UserError as err:
        if isinstance(err, LLMError) and err.reason == "bad-output":
            if "timeout" in checked:          # the last attempt's program ran past the deadline
                raise checked["timeout"] from None
            problem = err.problems[0] if getattr(err, "problems", None) else err.message
            raise NoProgram(getattr(err, "calls", attempts), errors or [_bare(problem)], problem, hint) from None
        # the attempt under way (its model call, or Z3 on its program) ended the loop
        n = checked.get("n", 0) + 1
        status = "cancelled" if isinstance(err, Cancelled) else "failed"
        run.trace(node(n), parent, kind, f"attempt {n}", err.message, status)
        raise
    n, outcome = checked.get("n", 1), checked["outcome"]
    run.trace(node(n), parent, kind, f"attempt {n}", (summary or verdicts)(outcome), "ok")
    trace_report(run, node(n), checked["report"], program)
    return Written(program, checked["report"], outcome, n, errors)


_PREFIX = re.compile(r"^the interpreter rejected that program: ")


def _bare(problem: str) -> str:
    return _PREFIX.sub("", problem, count=1)


_WHERE = re.compile(r"^(?:[\w' .-]+\.smt2?: |the model's script: |(?:[a-z_]+\[\d+\][^:]*: )|"
                    r"(?:line \d+ )?column \d+: )+")


def error_kind(problem: str) -> str:
    """What went wrong, without where (a JSON path, a line and column) or the names involved, so
    that like failures group: "unknown name '…'", "f takes N argument(s), got N"."""
    text = _WHERE.sub("", _bare(" ".join(problem.split()))).split(" — ")[0]
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"\b(symbol|name|constant|function|sort|variable) [A-Za-z_][\w.]*", r"\1 '…'", text)
    return re.sub(r"\d+(\.\d+)?", "N", text)[:70]


