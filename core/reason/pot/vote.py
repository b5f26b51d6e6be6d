"""Several programs for one question and a vote over those the checker accepts (settings
llm.samples): what made small models useful with a solver in the loop (LINC's majority vote).

The model writes the programs in rounds (sampling.rounds: a majority's worth at once through
`LLM.chat_many`, in parallel where the server allows, then one at a time until the vote is
settled, so K=3 costs two programs when they agree), each sampled at llm.sample_temperature with
a seed of its own (SAMPLE_SEED + n), so every sample is a request of its own in the call log and
the session, and an offline replay answers each exactly. A sample that does not parse or that
the interpreter (or the caller's `accept`) rejects gets the usual typed repairs (authoring.py's
loop, its attempts traced under the sample's node). Each accepted program is run by Z3 and gives
a verdict; the answer is the verdict most samples gave. A tie, or no accepted sample, is no
answer: the caller abstains ("unknown (the model's programs disagree)") and shows the vote.
Nothing here touches memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.errors import Cancelled, TimedOut, UserError
from sym.core.llm import examples
from sym.core.llm.jsonout import BadJSON, parse_model
from sym.core.reason.pot.authoring import NoProgram, Written, error_kind, write_program
from sym.core.reason.pot.grounded import Assumed, check_assumed
from sym.core.reason.pot.programs import run_any, trace_report, verdicts
from sym.core.reason.pot.schema import Program, program_json_schema
from sym.core.reason.pot.smt2_read import script_complete, script_in_reply
from sym.core.reason.sampling import AGREE, majority, rounds, sample_options, settled

if TYPE_CHECKING:
    from sym.core.run import Run

DISAGREE = "unknown (the model's programs disagree)"
ALONE = "unknown (only one reading decided it; sym decides when two agree)"


@dataclass
class Sample:
    """One drawn program: the verdict it gave when accepted (None when rejected, or when it
    decides nothing), what was written, or why it was rejected."""

    n: int
    verdict: str | None = None
    written: Written | None = None
    problem: str = ""
    assumed: Assumed | None = None      # facts no premise states (grounded.py), and the verdict without them

    @property
    def accepted(self) -> bool:
        return self.written is not None


@dataclass
class Vote:
    samples: list[Sample] = field(default_factory=list)
    winner: str | None = None
    allowed: int = 0        # samples the vote could draw (it stops once the majority is settled)

    @property
    def accepted(self) -> list[Sample]:
        return [s for s in self.samples if s.accepted]

    def tally(self) -> dict[str, int]:
        """Verdict → how many accepted samples gave it, most first."""
        return dict(Counter(s.verdict for s in self.accepted if s.verdict is not None).most_common())

    def assumed(self) -> Assumed | None:
        """The first accepted sample's verdict that rested on facts no premise states, if any."""
        return next((s.assumed for s in self.accepted if s.assumed is not None and s.assumed.needed), None)

    def chosen(self) -> Written | None:
        """The first accepted program that gave the winning verdict."""
        return next((s.written for s in self.accepted if self.winner is not None and s.verdict == self.winner), None)

    def shown(self) -> str:
        """The vote in a line: "proved 2, refuted 1 (3 of 5 programs accepted)"."""
        tally = ", ".join(f"{verdict} {n}" for verdict, n in self.tally().items()) or "no verdict"
        spared = self.allowed - len(self.samples)
        rest = f"; {spared} more not drawn, the vote was settled" if spared > 0 else ""
        return f"{tally} ({len(self.accepted)} of {len(self.samples)} programs accepted{rest})"

    def problems(self) -> list[str]:
        return [s.problem for s in self.samples if s.problem]

    def reason(self) -> str:
        """Why there is no winner, for a bench's failure list."""
        assumed = self.assumed()
        if assumed is not None and not self.tally():
            return f"{assumed.shown()} ({self.shown()})"
        if self.accepted and not self.tally():      # programs ran, none said proved, refuted or a kept unknown
            return f"no verdict: the accepted programs decided nothing that counts ({self.shown()})"
        if len(self.tally()) == 1 and self.allowed > 1:
            return f"{ALONE}: {self.shown()}"
        if self.accepted:
            return f"{DISAGREE}: {self.shown()}"
        last = self.problems()[-1] if self.problems() else "no reply"
        return f"no program: {error_kind(last)}"

    def to_dict(self) -> dict[str, Any]:
        return {"samples": len(self.samples), "allowed": self.allowed, "accepted": len(self.accepted),
                "tally": self.tally(), "winner": self.winner}


def _read(text: str, fmt: str) -> Any:
    return script_in_reply(text) if fmt == "smt2" else parse_model(text, Program)


def _argue(messages: list[dict[str, Any]], text: str, problem: str, fmt: str) -> list[dict[str, Any]]:
    noun = "SMT-LIB script" if fmt == "smt2" else "JSON object"
    return [*messages, {"role": "assistant", "content": text},
            {"role": "user", "content": f"That reply was rejected:\n- {problem}\nAnswer again with only the corrected "
                                        f"{noun}, no other text."}]


def sample_programs(messages: list[dict[str, Any]], run: Run, *, samples: int, attempts: int,
                    verdict_of: Callable[[Any], str | None], kind: str = "prove.sample", purpose: str = "prove",
                    accept: Callable[..., Any] | None = None, summary: Callable[[Any], str] | None = None,
                    schema: dict[str, Any] | None = None, fmt: str = "json",
                    vet: Callable[[Sample], None] | None = None) -> Vote:
    """`samples` programs for `messages`, each given at most `attempts` tries (the first drawn
    with the others in parallel, the rest typed repairs), and the vote over the accepted ones:
    `verdict_of(outcome)` is what an accepted program says (`accept(report)`'s value, the report
    by default), None when it decides nothing. Each sample is traced as node "sN" under "q",
    the vote as "vote". The model's failures (LLMError) and the user's cancel propagate."""
    k = max(1, int(samples))
    options = sample_options(run.settings.llm_sample_temperature, k)
    format = (schema or program_json_schema()) if fmt == "json" else schema

    def draw(batch: list[int]) -> list[Sample]:
        replies = run.llm.chat_many([list(messages)] * len(batch), purpose=f"{purpose}.sample", format=format,
                                    options=[options[n - 1] for n in batch],
                                    until=script_complete if fmt == "smt2" else None)
        return [_sample(n, reply.text, messages, run, attempts=attempts, verdict_of=verdict_of, kind=kind,
                        purpose=purpose, accept=accept, summary=summary, schema=schema, fmt=fmt)
                for n, reply in zip(batch, replies)]
    return vote_in_rounds(k, run, draw, vet)


def vote_in_rounds(k: int, run: Run, draw: Callable[[list[int]], list[Sample]],
                   vet: Callable[[Sample], None] | None = None) -> Vote:
    """The vote over samples 1..k, drawn by `draw(numbers)` a majority's worth at once, then one at
    a time, until no sample still allowed could change the winner (sampling.rounds, settled).
    `vet(sample)` may take back a drawn sample's verdict (a proof resting on facts no premise
    states: grounded.py). With two samples or more, the winner needs two that agree: one reading
    alone decides nothing (`ALONE`)."""
    vote = Vote(allowed=k)
    for batch in rounds(k):
        if settled([s.verdict for s in vote.samples], k - len(vote.samples)):
            break
        drawn = draw(batch)
        for sample in drawn:
            if vet is not None and sample.written is not None and sample.verdict is not None:
                vet(sample)
        vote.samples.extend(drawn)
    vote.winner = majority([s.verdict for s in vote.accepted if s.verdict is not None])
    if k >= AGREE and vote.winner is not None and vote.tally()[vote.winner] < AGREE:
        vote.winner = None
    run.trace("vote", "q", "vote", vote.shown(), vote.winner or vote.reason(), "ok" if vote.winner else "unknown")
    return vote


def rerun_with(run: Run, verdict_of: Callable[[Any], str | None],
               accept: Callable[..., Any] | None = None) -> Callable[[Any], str | None]:
    """The verdict of a program run again (None when it no longer checks or times out)."""
    def rerun(program: Any) -> str | None:
        try:
            report = run_any(program, run)
            return verdict_of(accept(report) if accept is not None else report)
        except TimedOut:
            return None
        except UserError as err:
            if isinstance(err, Cancelled):
                raise
            return None
    return rerun


def assumption_vet(premises: list[str], run: Run, verdict_of: Callable[[Any], str | None],
                   accept: Callable[..., Any] | None = None) -> Callable[[Sample], None]:
    """A `vet` for vote_in_rounds: a sample whose program states facts no premise states
    (grounded.py) is run again without them; when its verdict changes, the verdict rested on
    them and is taken back (the sample decides nothing; its problem says what it assumed)."""
    rerun = rerun_with(run, verdict_of, accept)

    def vet(sample: Sample) -> None:
        assert sample.written is not None
        found = check_assumed(sample.written.program, premises, sample.verdict, rerun)
        if found is None:
            return
        sample.assumed = found
        if found.needed:
            run.trace(f"s{sample.n}.assumed", "q", "prove.assumed", "facts no premise states",
                      found.shown(), "unknown")
            sample.verdict, sample.problem = None, found.shown()
    return vet


def attempt(sample: Sample, write: Callable[[], Written]) -> None:
    """`write()` as the sample's program; its failure (no program, a Z3 timeout) as its problem."""
    try:
        sample.written = write()
    except NoProgram as err:
        sample.problem = err.errors[-1] if err.errors else err.message
    except TimedOut as err:
        sample.problem = err.message


def _sample(n: int, text: str, messages: list[dict[str, Any]], run: Run, *, attempts: int,
            verdict_of: Callable[[Any], str | None], kind: str, purpose: str, accept: Callable[..., Any] | None,
            summary: Callable[[Any], str] | None, schema: dict[str, Any] | None, fmt: str) -> Sample:
    """Sample n from its first reply: checked, repaired (typed repairs, traced under node "sN"),
    run, and its verdict."""
    sample = Sample(n)
    node = f"s{n}"
    run.trace(node, "q", kind, f"sample {n}")
    try:
        names = examples.copied(text, messages)       # a name only the prompt's example uses: copied, not read
        if names:
            raise UserError(examples.problem(names))
        outcome, report, program = _check(_read(text, fmt), run, accept)
        sample.written = Written(program, report, outcome)
        trace_report(run, node, report, program)
    except (BadJSON, UserError) as err:
        if isinstance(err, Cancelled):
            raise
        sample.problem = str(err) if isinstance(err, BadJSON) else err.message
    if sample.written is None and attempts > 1:     # typed repairs, traced under the sample
        run.trace(f"{node}.first", node, kind, "first draw", sample.problem, "failed")
        first = sample.problem
        attempt(sample, lambda: write_program(_argue(messages, text, first, fmt), run, attempts=attempts - 1,
                                              kind=kind, purpose=purpose, accept=accept, summary=summary,
                                              schema=schema, fmt=fmt, parent=node))
        if sample.written is not None:
            sample.written.attempts += 1
            sample.written.errors.insert(0, first)
            sample.problem = ""
    if sample.written is not None:
        sample.verdict = verdict_of(sample.written.outcome)
    said = (summary or said_of)(sample.written.outcome) if sample.written is not None else sample.problem
    run.trace(node, "q", kind, f"sample {n}", said, "ok" if sample.written is not None else "failed")
    return sample


def said_of(outcome: Any) -> str:
    """A sample's outcome in words: a report's verdicts, or what `accept` made of it."""
    return verdicts(outcome) if hasattr(outcome, "verifications") else str(outcome)


def _check(program: Any, run: Run, accept: Callable[..., Any] | None) -> tuple[Any, Any, Any]:
    """(what `accept` made of the report, the report, the program); UserError when the interpreter
    or `accept` rejects it, TimedOut read as a rejection too (a simpler program may settle)."""
    try:
        report = run_any(program, run)
    except TimedOut as err:
        raise UserError(f"{err.message}: write a simpler program (finite sorts, fewer quantifiers)") from None
    return (accept(report) if accept is not None else report), report, program
