"""Claims a model encodes and Z3 decides: how a program is written (JSON or SMT-LIB, whole or
step by step) and `decide_claim`, a statement against premises (True / False / Uncertain items,
and yes/no questions with no premises, where the model states what it knows).

The model never answers the claim itself: it writes premises and the claim, Z3 decides, and the
verdict (proved, refuted, unknown) is the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sym.core.errors import TimedOut, UserError
from sym.core.llm import examples
from sym.core.reason.pot.authoring import NoProgram, Written, error_kind, write_program
from sym.core.reason.pot.grounded import check_assumed
from sym.core.reason.pot.prompts import SYSTEM
from sym.core.reason.pot.schema import program_json_schema
from sym.core.reason.pot.steps import vote_stepwise, write_stepwise
from sym.core.reason.pot.vote import assumption_vet, rerun_with, sample_programs
from sym.core.reason.swm.english import split_sentences

if TYPE_CHECKING:
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.run import Run

FORMATS = ("json", "smt2")
STYLES = ("whole", "steps")
CLAIM = "claim"


@dataclass(frozen=True)
class Encoding:
    """How the model writes a program: `fmt` json (the DSL) or smt2 (SMT-LIB 2); `style` whole
    (one program per attempt, for large models) or steps (the model fills small constrained
    steps and sym assembles the program: core/reason/pot/steps.py)."""

    fmt: str = "json"
    style: str = "whole"

    def __post_init__(self) -> None:
        if self.fmt not in FORMATS:
            raise UserError(f"unknown proof format {self.fmt!r}", hint="json or smt2")
        if self.style not in STYLES:
            raise UserError(f"unknown program style {self.style!r}", hint="whole or steps")


@dataclass
class Task:
    """What to encode: the text (premises, a puzzle), the question shown, and the claims to
    verify, by name (an option letter, or "claim") with their English text."""

    context: str
    question: str
    claims: dict[str, str]
    messages: Callable[[str], list[dict[str, Any]]]     # whole-program prompt for a format


def encode(task: Task, encoding: Encoding, run: Run, *, attempts: int, kind: str, purpose: str,
           accept: Callable[[ProofReport], Any] | None = None, summary: Callable[[Any], str] | None = None) -> Written:
    """The first program (written as `encoding` says) that checks and passes `accept`; NoProgram
    when none does (core/reason/pot/authoring.py). The run gives the model, the solver's time limit,
    the trace and the cancel flag."""
    if encoding.style == "steps":
        return write_stepwise(task, encoding.fmt, run, attempts=attempts, kind=kind, purpose=purpose, accept=accept,
                              summary=summary)
    schema = program_json_schema(verifications=list(task.claims)) if encoding.fmt == "json" else None
    return write_program(task.messages(encoding.fmt), run, attempts=attempts, kind=kind, purpose=purpose,
                         accept=accept, summary=summary, schema=schema, fmt=encoding.fmt)


def statuses_by_name(report: ProofReport, names: list[str]) -> dict[str, str]:
    """Status per claim name; UserError (sent back to the model) when the program does not verify
    exactly these claims or its premises contradict each other."""
    if report.consistent is False:
        raise UserError(f"the premises contradict each other (unsat core: {'; '.join(report.core[:8])}); "
                        "one of these entries misstates its sentence")
    found: dict[str, str] = {}
    for v in report.verifications:
        if v.name not in names:
            raise UserError(f"verification {v.name!r} is not one of {', '.join(names)}")
        if v.name in found:
            raise UserError(f"{v.name!r} is verified twice; write exactly one verification per claim")
        found[v.name] = v.status
    missing = [n for n in names if n not in found]
    if missing:
        raise UserError(f"no verification named {', '.join(missing)}")
    return found


# -- decide_claim ----------------------------------------------------------------------------

CLAIM_JSON = """You are given premises in English and a statement. Write ONE program that encodes the premises
and the statement; the Z3 solver then decides whether the premises prove the statement, refute it, or leave
it open. Do not decide it yourself.
- sorts: a DeclareSort for the kind of things talked about ("Thing", or "Person" and "Animal" when kept apart).
- constants: every named individual, as a member of its sort.
- functions: a predicate (range BoolSort) for each property or relation; numbers as IntSort or RealSort.
- knowledge_base: every premise, one entry each, as {"name": "<the premise>", "assertion": expr}, with a
  "variables" list for the variables it binds: "All A are B" is ForAll([x], Implies(A(x), B(x))); "No A is B"
  is ForAll([x], Implies(A(x), Not(B(x)))); "A or B" is Or(...); "either A or B" (exclusive) is Xor(A, B).
- With no premises, state the facts you know that bear on the statement (numbers where they matter).
- verifications: exactly one, named "claim": the statement itself, never its negation.
Use only names you declared. Answer with the JSON only."""

CLAIM_SMT2 = """You are given premises in English and a statement. Write ONE SMT-LIB 2 script that encodes
the premises and the statement; the Z3 solver then decides whether the premises prove the statement, refute
it, or leave it open. Do not decide it yourself.
- (declare-sort Thing 0) for the kind of things talked about; (declare-const tom Thing) for each named individual.
- (declare-fun cat (Thing) Bool) for each property or relation; Int or Real for numbers.
- every premise, one each: (assert (! FORMULA :named p1)); "All A are B" is (forall ((x Thing)) (=> (A x) (B x)));
  "No A is B" is (forall ((x Thing)) (=> (A x) (not (B x)))); "either A or B" (exclusive) is (xor A B).
- With no premises, assert the facts you know that bear on the statement (numbers where they matter).
- the statement itself, never its negation: (define-fun claim () Bool FORMULA) then (check-sat-assuming (claim)).
Use only names you declared. Answer with the script only."""

EXAMPLE_PREMISES = """Premises:
All cats are mammals. No mammal is a reptile. Tom is a cat.

Statement: Tom is a reptile."""

EXAMPLE_JSON = """{"sorts": [{"name": "Thing", "type": "DeclareSort"}],
 "functions": [{"name": "cat", "domain": ["Thing"], "range": "BoolSort"},
               {"name": "mammal", "domain": ["Thing"], "range": "BoolSort"},
               {"name": "reptile", "domain": ["Thing"], "range": "BoolSort"}],
 "constants": {"things": {"sort": "Thing", "members": ["tom"]}},
 "knowledge_base": [
  {"name": "All cats are mammals.", "variables": [{"name": "x", "sort": "Thing"}],
   "assertion": "ForAll([x], Implies(cat(x), mammal(x)))"},
  {"name": "No mammal is a reptile.", "variables": [{"name": "x", "sort": "Thing"}],
   "assertion": "ForAll([x], Implies(mammal(x), Not(reptile(x))))"},
  {"name": "Tom is a cat.", "assertion": "cat(tom)"}],
 "verifications": [{"name": "claim", "constraint": "reptile(tom)"}],
 "actions": ["verify_conditions"]}"""

EXAMPLE_SMT2 = """(declare-sort Thing 0)
(declare-const tom Thing)
(declare-fun cat (Thing) Bool)
(declare-fun mammal (Thing) Bool)
(declare-fun reptile (Thing) Bool)
(assert (! (forall ((x Thing)) (=> (cat x) (mammal x))) :named p1))
(assert (! (forall ((x Thing)) (=> (mammal x) (not (reptile x)))) :named p2))
(assert (! (cat tom) :named p3))
(define-fun claim () Bool (reptile tom))
(check-sat-assuming (claim))"""


examples.register(EXAMPLE_PREMISES)        # "Tom is a cat": the example's name, not an item's


def claim_text(context: str, claim: str) -> str:
    premises = context.strip() or "(none: state what you know)"
    return f"Premises:\n{premises}\n\nStatement: {claim.strip()}"


def claim_messages(context: str, claim: str) -> Callable[[str], list[dict[str, Any]]]:
    def messages(fmt: str) -> list[dict[str, Any]]:
        system, example = (f"{SYSTEM}\n\n{CLAIM_JSON}", EXAMPLE_JSON) if fmt == "json" else (CLAIM_SMT2, EXAMPLE_SMT2)
        return [{"role": "system", "content": system},
                {"role": "user", "content": EXAMPLE_PREMISES},
                {"role": "assistant", "content": example},
                {"role": "user", "content": claim_text(context, claim)}]
    return messages


def decide_claim(context: str, claim: str, run: Run, *, encoding: Encoding | None = None,
                 attempts: int = 3, samples: int = 1) -> tuple[str | None, dict[str, Any]]:
    """(status, detail): "proved", "refuted" or "unknown" for the statement given the premises,
    None when no program checked. detail: attempts, errors, ran, error, reason. With `samples`
    above 1, that many are drawn and the verdict is their vote (vote.py); a tie, fewer than two
    agreeing (AGREE: the bench draws at least that many), or no accepted program is None,
    detail's vote and reason say why. With premises, a sample whose verdict rests on a fact no premise states
    (grounded.py: "the program assumed X") decides nothing."""
    encoding = encoding or Encoding()
    if encoding.style == "steps" and not context.strip():     # nothing to encode sentence by sentence:
        encoding = Encoding(encoding.fmt, "whole")             # the model states what it knows, whole
    detail: dict[str, Any] = {"attempts": 0, "errors": [], "ran": False, "encoding": f"{encoding.fmt}/{encoding.style}"}
    run.trace("q", None, "claim.question", claim)
    task = Task(context, claim, {CLAIM: claim}, claim_messages(context, claim))
    if samples > 1:
        return _vote_claim(task, encoding, run, attempts=attempts, samples=samples, detail=detail)
    try:
        written = encode(task, encoding, run, attempts=attempts, kind="claim.attempt", purpose="bench.claim.program",
                         accept=lambda report: statuses_by_name(report, [CLAIM]),
                         summary=lambda found: f"claim: {found[CLAIM]}")
    except NoProgram as err:
        detail.update(attempts=err.attempts, errors=list(err.errors), reason="no program: " + error_kind(err.errors[-1]),
                      error=f"no valid program after {err.attempts} attempts; last error: {err.errors[-1]}")
        return None, detail
    except TimedOut as err:
        detail.update(reason="Z3 timeout", error=err.message)
        return None, detail
    detail.update(attempts=written.attempts, errors=list(written.errors), ran=True)
    status = cast("dict[str, str]", written.outcome)[CLAIM]
    if status not in ("proved", "refuted", "unknown"):
        detail.update(reason="undecided", error=f"the claim came out {status}")
        return None, detail
    left_out = getattr(written, "left_out", [])
    if status == "unknown" and left_out:     # the premise left out might have settled it
        detail.update(reason="unknown with premises not encoded",
                      error=f"unknown, but {len(left_out)} premise(s) could not be encoded: {left_out[0]}")
        return None, detail
    if context.strip():      # a verdict resting on a fact no premise states is not the premises' (grounded.py)
        def verdict(found: dict[str, str]) -> str | None:
            return found[CLAIM]
        assumed = check_assumed(written.program, split_sentences(context), status,
                                rerun_with(run, verdict, lambda report: statuses_by_name(report, [CLAIM])))
        if assumed is not None and assumed.needed:
            detail.update(reason="the program assumed a fact no premise states", error=assumed.shown())
            return None, detail
    return status, detail


def _vote_claim(task: Task, encoding: Encoding, run: Run, *, attempts: int, samples: int,
                detail: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    def verdict_of(found: dict[str, str]) -> str | None:
        return found[CLAIM] if found[CLAIM] in ("proved", "refuted", "unknown") else None

    def accept(report: ProofReport) -> dict[str, str]:
        return statuses_by_name(report, [CLAIM])

    def summary(found: dict[str, str]) -> str:
        return f"claim: {found[CLAIM]}"
    # with premises, a fact the program states must be one of theirs; with none, the model states what it knows
    vet = assumption_vet(split_sentences(task.context), run, verdict_of, accept) if task.context.strip() else None
    if encoding.style == "steps":
        try:
            vote = vote_stepwise(task, encoding.fmt, run, samples=samples, attempts=attempts, kind="claim.sample",
                                 purpose="bench.claim.program", verdict_of=verdict_of, accept=accept, summary=summary,
                                 vet=vet)
        except NoProgram as err:        # steps 1-2, which every sample shares, found no answer
            detail.update(attempts=err.attempts, errors=list(err.errors), reason="no program: " + error_kind(
                err.errors[-1] if err.errors else err.message), error=err.message)
            return None, detail
    else:
        schema = program_json_schema(verifications=[CLAIM]) if encoding.fmt == "json" else None
        vote = sample_programs(task.messages(encoding.fmt), run, samples=samples, attempts=attempts,
                               verdict_of=verdict_of, kind="claim.sample", purpose="bench.claim.program",
                               accept=accept, summary=summary, schema=schema, fmt=encoding.fmt, vet=vet)
    detail.update(attempts=sum(s.written.attempts if s.written else attempts for s in vote.samples),
                  errors=vote.problems(), ran=bool(vote.accepted), vote=vote.shown(), tally=vote.tally())
    if vote.winner is None:       # the whole error when no program ran (the reason groups like ones)
        whole = f"no program: {vote.problems()[-1]}" if not vote.accepted and vote.problems() else vote.reason()
        detail.update(reason=vote.reason(), error=whole)
    return vote.winner, detail
