"""`/prove`: a question the run's model writes a program for (from the memory items that bear on
it), or a program file; each traced as one node with a node per verification. The model loop
is authoring.py; running a program is programs.py; several sampled programs and their vote,
vote.py (`DISAGREE` is what an abstention says).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sym.core.errors import Cancelled, UserError
from sym.core.files import read_file_bytes, read_text_file
from sym.core.reason.pot.authoring import Written, write_program
from sym.core.reason.pot.grounded import check_assumed, premises_of
from sym.core.reason.pot.programs import load_any, overall, run_any, trace_report, verdicts
from sym.core.reason.pot.prompts import first_messages
from sym.core.reason.pot.steps import vote_stepwise
from sym.core.reason.pot.tasks import Encoding, Task, encode
from sym.core.reason.pot.vote import Vote, assumption_vet, rerun_with, sample_programs
from sym.core.reason.swm.prompts import final_answer

if TYPE_CHECKING:
    from pathlib import Path

    from sym.core.memory.working import WorkingMemory
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.run import Run


def bearing_on(memory: WorkingMemory, question: str, limit: int = 40) -> list[str]:
    """Memory items that share a word with the question (all of them when memory is small)."""
    items = list(memory.items.values())
    if len(items) > limit:
        words = {w for w in re.findall(r"[a-z0-9]+", question.lower()) if len(w) > 2}
        items = [it for it in items if words & set(re.findall(r"[a-z0-9]+", (it.text + " " + it.nl).lower()))]
    return [f"{it.text}" + (f"  % {it.nl}" if it.nl else "") for it in items[:limit]]


def prove_question(question: str, memory: WorkingMemory, run: Run) -> Written:
    """`/prove QUESTION`: the run's model writes a program for the question (in settings.proof_format,
    whole or step by step as settings.proof_style says, in at most settings.proof_attempts
    attempts), given the memory items that bear on it; the first one that checks is proved.
    `written.assumed` (grounded.py) names the facts it states that no premise does, and the
    verdict without them: when that differs, the proof rested on them and is not one."""
    s = run.settings
    attempts, fmt, style = s.proof_attempts, s.proof_format, s.proof_style
    run.trace("q", None, "prove.question", question)
    items = bearing_on(memory, question)
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
    # a fact no premise states is not a proof's ground: the program runs again without it
    assumed = check_assumed(written.program, premises_of(question, items), verdicts(written.report),
                            rerun_with(run, verdicts))
    if assumed is not None and assumed.needed:
        run.trace("q.assumed", "q", "prove.assumed", "facts no premise states", assumed.shown(), "unknown")
    written.assumed = assumed     # type: ignore[attr-defined]
    return written


def vote_question(question: str, memory: WorkingMemory, run: Run, samples: int) -> Vote:
    """`/prove QUESTION --samples K` (or llm.samples K): K programs in settings.proof_format (whole,
    or with proof_style steps the vocabulary once and K samples of the formulas), each given
    settings.proof_attempts tries, and the vote over the verdicts of those that check
    (core/reason/pot/vote.py); the vote's `chosen()` program is the answer, none on a tie or when
    fewer than two agree. A sample whose verdict rests on a fact that no premise (the question's
    statements, the memory items given) states is taken back (grounded.py): it decides nothing."""
    s = run.settings
    run.trace("q", None, "prove.question", question)
    items = bearing_on(memory, question)
    vet = assumption_vet(premises_of(question, items), run, verdicts)    # a fact no premise states: not a proof
    try:
        if s.proof_style == "steps":        # the vocabulary once, the formulas sampled
            task = Task("\n".join(items), question, {"claim": question},
                        lambda f: first_messages(question, items, f))
            vote = vote_stepwise(task, s.proof_format, run, samples=samples, attempts=s.proof_attempts,
                                 kind="prove.sample", purpose="prove", verdict_of=verdicts, vet=vet)
        else:
            vote = sample_programs(first_messages(question, items, s.proof_format), run, samples=samples,
                                   attempts=s.proof_attempts, verdict_of=verdicts, fmt=s.proof_format, vet=vet)
    except UserError as err:
        run.trace("q", None, "prove.question", question, err.message,
                  "cancelled" if isinstance(err, Cancelled) else "failed")
        raise
    chosen = vote.chosen()
    run.trace("q", None, "prove.question", question, vote.shown(), overall(chosen.report) if chosen else "unknown")
    return vote


ALONE = ("Answer the question from the statements and what you know. Think it through briefly, then give "
         "your answer on the last line, as: Answer: ...")


def model_alone(question: str, memory: WorkingMemory, run: Run) -> str:
    """The model's own answer to a question (no program, nothing checked): /prove's fallback when
    it abstains and llm.fallback allows it. The caller labels it unverified."""
    items = bearing_on(memory, question)
    user = ("Statements:\n" + "\n".join(items) + "\n\n" if items else "") + f"Question: {question}"
    reply = run.llm.chat([{"role": "system", "content": ALONE}, {"role": "user", "content": user}],
                         purpose="prove.fallback")
    return final_answer(reply.text) or "(the model gave no answer)"


def _program_text(path: Path, limit_mb: float) -> str:
    """A program file's text (a FIFO, /dev/zero or binary file: one line). An SMT-LIB script need
    not be UTF-8: Z3 reads bytes, so one that is not is read byte for byte (Latin-1)."""
    try:
        return read_text_file(path, limit_mb)
    except UserError as err:
        if not (path.name.lower().endswith((".smt2", ".smt")) and "not UTF-8" in err.message):
            raise
    return read_file_bytes(path, limit_mb).decode("latin-1")


def prove_file(path: Path, run: Run) -> tuple[Any, ProofReport]:
    """`/prove --file PATH`: (program, report) for a program file (JSON or SMT-LIB, at most
    settings.max_file_mb), traced as one node (failed with the reader's, the interpreter's or Z3's
    error) with a node per verification."""
    run.trace("f", None, "prove.file", path.name)
    try:
        text = _program_text(path, run.settings.max_file_mb)
        program = load_any(text, path.name)
        report = run_any(program, run)
    except UserError as err:
        run.trace("f", None, "prove.file", path.name, err.message,
                  "cancelled" if isinstance(err, Cancelled) else "failed")
        raise
    run.trace("f", None, "prove.file", path.name, verdicts(report), overall(report))
    trace_report(run, "f", report, program)
    return program, report
