"""The model writes a Proof-of-Thought program, Z3 checks it: the one loop behind `/prove QUESTION`
and the AR-LSAT bench (core/reason/swm/lsat.py).

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
from typing import TYPE_CHECKING, Any, cast

from sym.core.errors import Cancelled, TimedOut, UserError

if TYPE_CHECKING:
    from pathlib import Path

    from sym.core.memory.working import WorkingMemory
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.reason.pot.schema import Program
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


def verdicts(report: ProofReport) -> str:
    return ", ".join(f"{v.name}: {v.status}" for v in report.verifications) or "checked"


def write_program(messages: list[dict[str, Any]], run: Run, *, attempts: int, kind: str = "prove.attempt",
                  purpose: str = "prove", accept: Callable[..., Any] | None = None,
                  summary: Callable[[Any], str] | None = None, hint: str | None = HINT,
                  schema: dict[str, Any] | None = None, fmt: str = "json") -> Written:
    """The first program the run's model writes (in at most `attempts` calls) that builds, runs
    and passes `accept(report)` (which returns what the caller makes of it, or raises UserError to
    send the problem back). Each attempt is traced as a `kind` node under "q" of the run;
    raises NoProgram when none passed. `fmt` is the language: "json" (the DSL, under `schema`,
    the program schema by default; a caller may tighten it, as AR-LSAT does with one
    verification per option) or "smt2" (an SMT-LIB script, free text, read by Z3's parser).
    A program Z3 cannot settle within the run's proof timeout goes back as a problem, so the next
    attempt can write a simpler one; when it was the last attempt, TimedOut (exit 4) is raised."""
    from sym.core.llm import LLMError
    from sym.core.reason.pot.schema import Program, program_json_schema

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
            run.trace(f"a{n}", "q", kind, f"attempt {n}", problems[0] + more, "failed")

    if fmt == "smt2":
        how: dict[str, Any] = {"parse": read_smt2_reply, "noun": "SMT-LIB script", "format": schema}
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
        run.trace(f"a{n}", "q", kind, f"attempt {n}", err.message, status)
        raise
    n, outcome = checked.get("n", 1), checked["outcome"]
    run.trace(f"a{n}", "q", kind, f"attempt {n}", (summary or verdicts)(outcome), "ok")
    trace_report(run, f"a{n}", checked["report"], program)
    return Written(program, checked["report"], outcome, n, errors)


_SCRIPT_LINE = re.compile(r"^[ \t]*([(;])", re.M)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n(.*?)(?:```|$)", re.S)


def read_smt2_reply(text: str) -> Any:
    """The SMT-LIB script in a model's reply (a fenced block, or from the first '(' to the last ')')."""
    from sym.core.llm.jsonout import BadJSON
    from sym.core.reason.pot.smt2_read import Smt2Program

    fenced = [b for b in _FENCE.findall(text) if "(" in b]
    body = fenced[0] if fenced else text
    first = _SCRIPT_LINE.search(body)             # a line that opens a form or is a comment ("; (a remark)")
    start, end = (first.start(1) if first else body.find("(")), body.rfind(")")
    if start < 0 or end < start:
        raise BadJSON("no SMT-LIB script in the reply: write (declare-…), (assert …) and (check-sat-assuming (…))")
    return Smt2Program(body[start:end + 1], "the model's script")


def trace_report(run: Run, parent: str, report: ProofReport, program: Program) -> None:
    """A node under `parent` per verification (its status, why when unknown) and, for an
    inconsistent knowledge base, per entry of the unsat core (its text)."""
    texts = program_texts(program) if report.core else {}
    for label in report.core:
        run.trace(f"{parent}.core.{label}", parent, "prove.core", f"{texts.get(label, label)}  · {label.split(' ')[0]}",
                  "", "inconsistent")
    for i, v in enumerate(report.verifications):
        run.trace(f"{parent}.v{i}", parent, "prove.verification", v.name, v.reason, v.status)


def program_texts(program: Any) -> dict[str, str]:
    """Core label -> source text, for a JSON program or an SMT-LIB script."""
    from sym.core.reason.pot.build import entry_texts
    from sym.core.reason.pot.smt2_read import Smt2Program, entry_texts_smt2

    return entry_texts_smt2(program) if isinstance(program, Smt2Program) else entry_texts(program)


def load_any(text: str, source: str) -> Any:
    """A program file: an SMT-LIB script (by name or first character) or a JSON program."""
    from sym.core.reason.pot.schema import load_program
    from sym.core.reason.pot.smt2_read import Smt2Program, looks_like_smt2

    return Smt2Program(text, source) if looks_like_smt2(text, source) else load_program(text, source=source)


def run_any(program: Any, run: Run) -> ProofReport:
    """Check a JSON program or an SMT-LIB script within the run's proof timeout (the run's cancel
    flag stops Z3); its models, counter-models and unsat core go to the Models pane."""
    from sym.core.reason.pot.interpret import models_shown
    from sym.core.reason.pot.interpret import run as check
    from sym.core.reason.pot.smt2_read import Smt2Program, run_smt2

    if isinstance(program, Smt2Program):
        report = cast("ProofReport", run_smt2(program, timeout_ms=run.timeout_ms, cancel=run.cancel))
    else:
        report = check(program, timeout_ms=run.timeout_ms, cancel=run.cancel)
    for shown in models_shown(report, lambda: program_texts(program)):
        run.emit(shown)
    return report


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


# -- /prove ---------------------------------------------------------------------------------

def relevant_items(memory: WorkingMemory, question: str, limit: int = 40) -> list[str]:
    """Memory items that share a word with the question (all of them when memory is small)."""
    items = list(memory.items.values())
    if len(items) > limit:
        words = {w for w in re.findall(r"[a-z0-9]+", question.lower()) if len(w) > 2}
        items = [it for it in items if words & set(re.findall(r"[a-z0-9]+", (it.text + " " + it.nl).lower()))]
    return [f"{it.text}" + (f"  % {it.nl}" if it.nl else "") for it in items[:limit]]


def prove_question(question: str, memory: WorkingMemory, run: Run) -> Written:
    """`/prove QUESTION`: the run's model writes a program for the question (in settings.proof_format,
    whole or step by step as settings.proof_style says, in at most settings.proof_attempts
    attempts), given the memory items that bear on it; the first one that checks is proved."""
    from sym.core.reason.pot.prompts import first_messages
    from sym.core.reason.pot.tasks import Encoding, Task, encode

    s = run.settings
    attempts, fmt, style = s.proof_attempts, s.proof_format, s.proof_style
    run.trace("q", None, "prove.question", question)
    items = relevant_items(memory, question)
    try:
        if style == "steps":
            task = Task("\n".join(items), question, {"claim": question}, lambda f: first_messages(question, items, f))
            written = encode(task, Encoding(fmt, style), run, attempts=attempts, kind="prove.attempt", purpose="prove")
        else:
            written = write_program(first_messages(question, items, fmt), run, attempts=attempts, fmt=fmt)
    except UserError as err:
        run.trace("q", None, "prove.question", question, err.message,
                  "cancelled" if isinstance(err, Cancelled) else "failed")
        raise
    run.trace("q", None, "prove.question", question, f"written in {written.attempts} attempt(s)",
              overall(written.report))
    return written


def overall(report: ProofReport) -> str:
    """One status for a report: inconsistent, or its verifications' status when they agree."""
    if report.consistent is False:
        return "inconsistent"
    statuses = {v.status for v in report.verifications}
    return statuses.pop() if len(statuses) == 1 else "checked"


def prove_file(path: Path, run: Run) -> tuple[Any, ProofReport]:
    """`/prove --file PATH`: (program, report) for a program file (JSON or SMT-LIB, at most
    settings.max_file_mb), traced as one node (failed with the reader's, the interpreter's or Z3's
    error) with a node per verification."""
    from sym.core.files import read_text_file

    run.trace("f", None, "prove.file", path.name)
    try:
        text = read_text_file(path, run.settings.max_file_mb)   # a FIFO, /dev/zero or binary file: one line
        program = load_any(text, path.name)
        report = run_any(program, run)
    except UserError as err:
        run.trace("f", None, "prove.file", path.name, err.message,
                  "cancelled" if isinstance(err, Cancelled) else "failed")
        raise
    run.trace("f", None, "prove.file", path.name, verdicts(report), overall(report))
    trace_report(run, "f", report, program)
    return program, report
