"""AR-LSAT puzzles through the Proof-of-Thought DSL: the model encodes the puzzle once (rules as
constraints, one verification per option), Z3 decides each option, and the question type picks
the letter. The model only picks a letter itself when the solver leaves a tie (marked unverified).

Nothing here evaluates model text: programs are loaded by the DSL's pydantic schema and built
from the expression grammar's whitelist (core/reason/pot).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sym.core.errors import TimedOut, UserError
from sym.core.reason.pot.prompts import SYSTEM
from sym.core.reason.pot.schema import program_json_schema
from sym.core.reason.pot.steps import vote_stepwise
from sym.core.reason.pot.tasks import Encoding, Task, encode
from sym.core.reason.pot.vote import sample_programs

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.reason.swm.datasets import Problem
    from sym.core.run import Run

LETTERS = "ABCDEFG"
PROVED, REFUTED, UNKNOWN = "proved", "refuted", "unknown"

# -- question types ----------------------------------------------------------------------

COULD_BE_TRUE, MUST_BE_TRUE, MUST_BE_FALSE, COULD_BE_FALSE = (
    "could be true", "must be true", "must be false", "could be false")

# Tried in order: the negative forms first, since "could be false" also contains "could be".
_PATTERNS = (
    (COULD_BE_FALSE, r"\b(could|can|might|may) be false\b|\bneed not be( true)?\b|\bnot necessarily( be)? true\b"),
    (MUST_BE_FALSE, r"\bmust be false\b|\bcannot\b|\bcan ?not\b|\bcan't\b|\bcould not\b|\bcouldn't\b"
                    r"|\bimpossible\b|\bnot possible\b"),
    (MUST_BE_TRUE, r"\bmust\b|\bnecessarily true\b|\b(is|are) (true|correct)\b"),
    (COULD_BE_TRUE, r"\bcould\b|\bcan\b|\bmight\b|\bacceptable\b|\ballowable\b|\bpermissible\b|\bpossible\b"
                    r"|\baccurate (list|listing|matching|order|ordering|assignment|schedule)\b"),
)
# the status test each type applies to one option (the knowledge base is consistent by then)
_HOLDS: dict[str, Callable[[str], bool]] = {
    COULD_BE_TRUE: lambda status: status != REFUTED,   # KB ∧ option satisfiable
    MUST_BE_TRUE: lambda status: status == PROVED,
    MUST_BE_FALSE: lambda status: status == REFUTED,
    COULD_BE_FALSE: lambda status: status != PROVED,   # KB ∧ ¬option satisfiable
}


@dataclass(frozen=True)
class QuestionType:
    kind: str              # one of the four above
    except_: bool = False  # "each of the following … EXCEPT": the odd one out is the answer

    def __str__(self) -> str:
        return self.kind + (" EXCEPT" if self.except_ else "")


def question_type(question: str) -> QuestionType | None:
    """The kind of question asked, from its wording; None when it is none of the four."""
    text = " ".join(str(question).split())
    low = text.lower()
    except_ = bool(re.search(r"\bEXCEPT\b", text) or re.search(r"\bexcept\s*[:?.]?\s*$", low))
    for kind, pattern in _PATTERNS:
        if re.search(pattern, low):
            return QuestionType(kind, except_)
    return None


def candidates(qtype: QuestionType, statuses: dict[str, str], undecided: frozenset[str] = frozenset()) -> list[str]:
    """The letters whose status fits the question (the ones that do not, under EXCEPT).
    Letters the solver could not decide stay candidates either way."""
    holds = _HOLDS[qtype.kind]
    return [letter for letter, status in statuses.items()
            if letter in undecided or holds(status) != qtype.except_]


# -- prompts ----------------------------------------------------------------------------

PUZZLE = """You are given a logic puzzle (a setting and its rules), a question, and lettered options.
Write ONE program for the whole puzzle; the Z3 solver then checks every option against it.
- Declare the entities (people, items, days, groups) as EnumSort values, and the unknowns of the puzzle
  as functions: positions or days as IntSort (with their bounds), membership or assignment as BoolSort
  predicates or as functions into an EnumSort.
- knowledge_base: the setting (ranges, "one per slot" with Distinct, how many are selected, …).
- rules: every condition of the puzzle as a named `constraint`, in the order given.
- If the question adds a supposition ("If X is ..., which ..."), add it to the knowledge_base
  with the name "supposition".
- verifications: exactly one per option, named by its letter ("A", "B", "C", "D", "E"); its constraint
  says what the option says (for an order or assignment option: all of its parts joined with And).
  State the option's own claim, never its negation, and do not try to decide which option is the
  answer: the solver does that.
Use only names you declared. Answer with the JSON only."""

EXAMPLE_PUZZLE = """Four dogs, Rex, Sky, Tia and Uma, are walked one at a time, in slots first through fourth.
Sky is walked before Tia. Rex is walked either first or fourth. Uma is not walked second.

Question: Which one of the following could be the order in which the dogs are walked, from first to fourth?
A) Rex, Uma, Sky, Tia
B) Sky, Rex, Tia, Uma
C) Uma, Sky, Tia, Rex
D) Rex, Tia, Sky, Uma
E) Tia, Sky, Uma, Rex"""

EXAMPLE_PROGRAM = """{"sorts": [{"name": "Dog", "type": "EnumSort", "values": ["rex", "sky", "tia", "uma"]}],
 "functions": [{"name": "slot", "domain": ["Dog"], "range": "IntSort"}],
 "variables": [{"name": "d", "sort": "Dog"}],
 "knowledge_base": [
  {"name": "each dog is walked in one of the slots 1-4", "assertion": "ForAll([d], And(slot(d) >= 1, slot(d) <= 4))"},
  {"name": "one dog per slot", "assertion": "Distinct(slot(rex), slot(sky), slot(tia), slot(uma))"}],
 "rules": [
  {"name": "Sky is walked before Tia", "constraint": "slot(sky) < slot(tia)"},
  {"name": "Rex is walked first or fourth", "constraint": "Or(slot(rex) == 1, slot(rex) == 4)"},
  {"name": "Uma is not walked second", "constraint": "slot(uma) != 2"}],
 "verifications": [
  {"name": "A", "constraint": "And(slot(rex) == 1, slot(uma) == 2, slot(sky) == 3, slot(tia) == 4)"},
  {"name": "B", "constraint": "And(slot(sky) == 1, slot(rex) == 2, slot(tia) == 3, slot(uma) == 4)"},
  {"name": "C", "constraint": "And(slot(uma) == 1, slot(sky) == 2, slot(tia) == 3, slot(rex) == 4)"},
  {"name": "D", "constraint": "And(slot(rex) == 1, slot(tia) == 2, slot(sky) == 3, slot(uma) == 4)"},
  {"name": "E", "constraint": "And(slot(tia) == 1, slot(sky) == 2, slot(uma) == 3, slot(rex) == 4)"}],
 "actions": ["verify_conditions"]}"""

PUZZLE_SMT2 = """You are given a logic puzzle (a setting and its rules), a question, and lettered options.
Write ONE SMT-LIB 2 script for the whole puzzle; the Z3 solver then checks every option against it.
- Declare the entities as a datatype, (declare-datatypes () ((Dog rex sky))), and the unknowns as functions:
  positions or days as Int with their bounds, membership as Bool predicates, assignments as functions into a datatype.
- Every condition of the puzzle as its own (assert (! FORMULA :named c1)), in the order given; the setting too
  (ranges, one per slot with distinct, how many are selected).
- If the question adds a supposition ("If X is ..., which ..."), assert it, named supposition.
- For each option, in order: (define-fun A () Bool FORMULA) then (check-sat-assuming (A)); the formula says what
  the option says (for an order or assignment: all of its parts joined with and). State the option's own claim,
  never its negation, and do not decide which option is the answer: the solver does that.
Use only names you declared. Answer with the script only."""

EXAMPLE_SCRIPT = """(declare-datatypes () ((Dog rex sky tia uma)))
(declare-fun slot (Dog) Int)
(assert (! (forall ((d Dog)) (and (>= (slot d) 1) (<= (slot d) 4))) :named slots_1_to_4))
(assert (! (distinct (slot rex) (slot sky) (slot tia) (slot uma)) :named one_dog_per_slot))
(assert (! (< (slot sky) (slot tia)) :named sky_before_tia))
(assert (! (or (= (slot rex) 1) (= (slot rex) 4)) :named rex_first_or_fourth))
(assert (! (not (= (slot uma) 2)) :named uma_not_second))
(define-fun A () Bool (and (= (slot rex) 1) (= (slot uma) 2) (= (slot sky) 3) (= (slot tia) 4)))
(check-sat-assuming (A))
(define-fun B () Bool (and (= (slot sky) 1) (= (slot rex) 2) (= (slot tia) 3) (= (slot uma) 4)))
(check-sat-assuming (B))
(define-fun C () Bool (and (= (slot uma) 1) (= (slot sky) 2) (= (slot tia) 3) (= (slot rex) 4)))
(check-sat-assuming (C))
(define-fun D () Bool (and (= (slot rex) 1) (= (slot tia) 2) (= (slot sky) 3) (= (slot uma) 4)))
(check-sat-assuming (D))
(define-fun E () Bool (and (= (slot tia) 1) (= (slot sky) 2) (= (slot uma) 3) (= (slot rex) 4)))
(check-sat-assuming (E))"""

PICK = ("Solve the logic puzzle. Think it through, then give the letter of the right option "
        "on the last line, as: Answer: X")

_OPTION_PREFIX = re.compile(r"^\s*\(?([A-Ga-g])\s*[).:]\s*")


def option_text(option: str) -> str:
    """An option without the letter it may already carry ("A) …", "(A) …")."""
    return _OPTION_PREFIX.sub("", str(option), count=1).strip()


def puzzle_text(problem: Problem, letters: str | list[str] | None = None) -> str:
    """The puzzle, its question and its options (only `letters`, when given) as the model reads them."""
    options = [f"{LETTERS[i]}) {option_text(o)}" for i, o in enumerate(problem.options[:len(LETTERS)])
               if letters is None or LETTERS[i] in letters]
    return f"{problem.context.strip()}\n\nQuestion: {problem.question.strip()}\n" + "\n".join(options)


def program_messages(problem: Problem, fmt: str = "json") -> list[dict[str, Any]]:
    system, example = (f"{SYSTEM}\n\n{PUZZLE}", EXAMPLE_PROGRAM) if fmt == "json" else (PUZZLE_SMT2, EXAMPLE_SCRIPT)
    return [{"role": "system", "content": system},
            {"role": "user", "content": EXAMPLE_PUZZLE},
            {"role": "assistant", "content": example},
            {"role": "user", "content": puzzle_text(problem)}]


# -- the program ----------------------------------------------------------------------------

_VERIFICATION_NAME = re.compile(r"^\s*(?:(?i:option)\s*)?(?:\(([A-G])\)|([A-G])\s*(?:[:.)\-–]|$))")


def option_letter(name: str) -> str | None:
    """The option a verification is about, from its name ("A", "(B)", "Option C: …")."""
    m = _VERIFICATION_NAME.match(name or "")
    return (m.group(1) or m.group(2)) if m else None


def _statuses(report: ProofReport, letters: str) -> tuple[dict[str, str], frozenset[str]]:
    """Status per option letter, and the letters Z3 gave up on; UserError when the program
    does not answer the options one to one or its knowledge base is inconsistent."""
    if report.consistent is False:
        core = "; ".join(report.core[:8])
        raise UserError(f"the puzzle's rules contradict each other (unsat core: {core}); "
                        "the puzzle has a solution, so one of these entries is wrong")
    found: dict[str, str] = {}
    undecided: set[str] = set()
    for v in report.verifications:
        letter = option_letter(v.name)
        if letter is None or letter not in letters:
            raise UserError(f"verification {v.name!r} is not named by an option letter "
                            f"({', '.join(letters)})")
        if letter in found:
            raise UserError(f"option {letter} has two verifications; write exactly one per option")
        found[letter] = v.status
        if v.status == UNKNOWN and v.reason:
            undecided.add(letter)
    missing = [x for x in letters if x not in found]
    if missing:
        raise UserError(f"no verification for option{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                        f"write exactly one per option, named {', '.join(letters)}")
    return {x: found[x] for x in letters}, frozenset(undecided)


def _task(problem: Problem) -> Task:
    """The problem as a proving task: its options are the claims, named by their letters."""
    letters = LETTERS[:len(problem.options)]
    return Task(problem.context, problem.question, {x: option_text(o) for x, o in zip(letters, problem.options)},
                lambda fmt: program_messages(problem, fmt))


def write_program(problem: Problem, run: Run, *, attempts: int, detail: dict[str, Any],
                  encoding: Encoding | None = None) -> tuple[dict[str, str], frozenset[str]] | None:
    """(statuses, undecided letters) from the first program that checks (core.reason.pot.authoring's
    loop: errors go back to the model, a model timeout moves on), or None after `attempts` tries;
    `detail` gets the attempts made and each failed attempt's error."""
    from sym.core.reason.pot.authoring import NoProgram, error_kind

    letters = LETTERS[:len(problem.options)]
    try:
        found = encode(_task(problem), encoding or Encoding(), run, attempts=attempts, kind="lsat.attempt",
                       purpose="bench.lsat.program", accept=lambda report: _statuses(report, letters),
                       summary=lambda outcome: ", ".join(f"{x}: {s}" for x, s in outcome[0].items()))
    except NoProgram as err:
        detail["attempts"], detail["errors"] = err.attempts, list(err.errors)
        detail["reason"] = "no program: " + error_kind(err.errors[-1] if err.errors else str(err))
        return None
    except TimedOut as err:
        detail["attempts"], detail["errors"], detail["reason"] = attempts, [err.message], "Z3 timeout"
        return None
    detail["ran"] = True
    detail["attempts"], detail["errors"] = found.attempts, list(found.errors)
    return cast("tuple[dict[str, str], frozenset[str]]", found.outcome)    # what `accept` made of the report


def pick(problem: Problem, llm: LLM, letters: list[str]) -> str:
    """The model's own choice among `letters` (unverified); '' when it names none of them."""
    reply = llm.chat([{"role": "system", "content": PICK},
                      {"role": "user", "content": puzzle_text(problem, letters)
                       + f"\n\nAnswer with one of: {', '.join(letters)}."}], purpose="bench.lsat.pick")
    text = reply.text.strip()
    named = (re.findall(r"(?i:answer)\s*(?:(?i:is)\s*)?[:\-]?\s*\(?([A-G])\b", text)
             or re.findall(r"\b([A-G])\b", text))
    chosen = [x for x in reversed(named) if x in letters]
    return chosen[0] if chosen else ""


# -- the method -----------------------------------------------------------------------------

def answer_lsat(problem: Problem, run: Run, attempts: int = 3, *, encoding: Encoding | None = None,
                samples: int = 1) -> tuple[str, dict[str, Any]]:
    """(letter, detail) for one AR-LSAT problem, with the run's model and proof timeout; the letter
    is '' when no program checked.

    `detail`: question_type, attempts, errors (one per failed attempt), statuses (letter →
    proved/refuted/unknown), candidates, verified (False when the model picked among a tie or
    the question type is not one the solver can decide), and error when it failed. With
    `samples` above 1 (whole programs), that many programs are drawn and the letter is the vote
    of those whose statuses leave one candidate (core/reason/pot/vote.py); a tie or no such
    program is '' with detail's vote and reason (the model does not pick then)."""
    letters = LETTERS[:len(problem.options)]
    qtype = question_type(problem.question)
    detail: dict[str, Any] = {"question_type": str(qtype) if qtype else None, "attempts": 0, "errors": [],
                    "statuses": {}, "candidates": [], "verified": False, "fallback": False, "ran": False}
    run.trace("q", None, "lsat.question", problem.question, str(qtype or "unrecognised"))
    if not letters:
        detail["error"] = "the problem has no options"
        return "", detail
    if qtype is None:     # nothing for the solver to decide: the model picks, unverified
        detail["candidates"] = list(letters)
        letter = pick(problem, run.llm, list(letters))
        detail["fallback"] = True
        if not letter:
            detail["error"] = "the model named no option"
        return letter, detail
    if samples > 1:
        return _vote(problem, qtype, run, attempts=max(1, attempts), samples=samples, detail=detail,
                     encoding=encoding or Encoding()), detail
    found = write_program(problem, run, attempts=max(1, attempts), detail=detail, encoding=encoding)
    if found is None:
        detail["error"] = f"no valid program after {detail['attempts']} attempts; last error: {detail['errors'][-1]}"
        return "", detail
    statuses, undecided = found
    detail["statuses"] = statuses
    chosen = candidates(qtype, statuses, undecided)
    detail["candidates"] = chosen
    if len(chosen) == 1:
        detail["verified"] = True
        return chosen[0], detail
    remaining = chosen or list(letters)   # none fits: the encoding is off somewhere; let the model choose
    detail["fallback"] = True
    letter = pick(problem, run.llm, remaining)
    if not letter:
        detail["error"] = "the model named no option"
    return letter, detail


def _vote(problem: Problem, qtype: QuestionType, run: Run, *, attempts: int, samples: int, detail: dict[str, Any],
          encoding: Encoding) -> str:
    """The letter most sampled programs leave as the one candidate ('' on a tie or none); `detail`
    gets the vote. Step-wise, the sorts and functions are declared once and the formulas sampled."""
    letters, fmt = LETTERS[:len(problem.options)], encoding.fmt

    def verdict(outcome: tuple[dict[str, str], frozenset[str]]) -> str | None:
        chosen = candidates(qtype, *outcome)
        return chosen[0] if len(chosen) == 1 else None

    def summary(outcome: tuple[dict[str, str], frozenset[str]]) -> str:
        return ", ".join(f"{x}: {s}" for x, s in outcome[0].items())
    if encoding.style == "steps":
        vote = vote_stepwise(_task(problem), fmt, run, samples=samples, attempts=attempts, kind="lsat.sample",
                             purpose="bench.lsat.program", verdict_of=verdict,
                             accept=lambda report: _statuses(report, letters), summary=summary)
    else:
        schema = program_json_schema(verifications=list(letters)) if fmt == "json" else None
        vote = sample_programs(program_messages(problem, fmt), run, samples=samples, attempts=attempts,
                               verdict_of=verdict, kind="lsat.sample", purpose="bench.lsat.program",
                               accept=lambda report: _statuses(report, letters), summary=summary,
                               schema=schema, fmt=fmt)
    detail.update(ran=bool(vote.accepted), vote=vote.shown(), tally=vote.tally(), errors=vote.problems(),
                  attempts=sum(s.written.attempts if s.written else attempts for s in vote.samples))
    if vote.winner is None:
        detail.update(reason=vote.reason(), error=vote.reason())
        return ""
    detail.update(verified=True, candidates=[vote.winner])
    return vote.winner
