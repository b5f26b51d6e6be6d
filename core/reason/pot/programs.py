"""A program of either language — the JSON DSL or an SMT-LIB script — as sym runs it: read from a
file, checked by Z3 within a run's proof timeout (the run's cancel flag stops it), its models sent
to the Models pane, its report traced under a node and summed up in a word. No model is asked here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from sym.core.reason.pot.build import entry_texts
from sym.core.reason.pot.interpret import models_shown
from sym.core.reason.pot.interpret import run as check
from sym.core.reason.pot.schema import load_program
from sym.core.reason.pot.smt2_read import Smt2Program, looks_like_smt2
from sym.core.reason.pot.smt2_worker import entry_texts_smt2, run_smt2

if TYPE_CHECKING:
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.reason.pot.schema import Program
    from sym.core.run import Run


def verdicts(report: ProofReport) -> str:
    return ", ".join(f"{v.name}: {v.status}" for v in report.verifications) or "checked"


def overall(report: ProofReport) -> str:
    """One status for a report: inconsistent, or its verifications' status when they agree."""
    if report.consistent is False:
        return "inconsistent"
    statuses = {v.status for v in report.verifications}
    return statuses.pop() if len(statuses) == 1 else "checked"


def load_any(text: str, source: str) -> Any:
    """A program file: an SMT-LIB script (by name or first character) or a JSON program."""
    return Smt2Program(text, source) if looks_like_smt2(text, source) else load_program(text, source=source)


def run_any(program: Any, run: Run) -> ProofReport:
    """Check a JSON program or an SMT-LIB script within the run's proof timeout (the run's cancel
    flag stops Z3); its models, counter-models and unsat core go to the Models pane."""
    if isinstance(program, Smt2Program):
        report = cast("ProofReport", run_smt2(program, stop=run.stop))
    else:
        report = check(program, stop=run.stop)
    for shown in models_shown(report, lambda: program_texts(program)):
        run.emit(shown)
    return report


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
    return entry_texts_smt2(program) if isinstance(program, Smt2Program) else entry_texts(program)


