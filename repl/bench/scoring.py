"""Scoring a system over bench items, item by item (`sym bench logic` over outside suites,
`sym bench swm` over the SWM paper's datasets): each item told to the caller as it finishes
(`on_item`), and the totals that say whether sym's answers can be trusted: decided by sym
(coverage), right when decided (precision), abstained, and answered by the flagged fallback
(the model alone, unverified), beside accuracy.

Each item's calls go through a client tagged RUN/ITEM (the call log's session column: `sym logs
--run RUN --item ITEM`), and its calls, tokens and seconds are read back from the call log, a
cached call counted at the seconds its request first took, so an item run again does not read
0 s. The model-alone baseline sends its own request (a seed of its own), never one the
fallback's call already answered from the cache. What an item is, how sym answers it and what
counts as right are the caller's (outside_score.py, swm/evaluate.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sym.core.errors import UserError
from sym.core.llm import LLMError

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM

I = TypeVar("I")  # noqa: E741


@dataclass
class Score:
    dataset: str
    mode: str
    system: str = "sym"           # sym | llm (the model alone, one chain-of-thought call per item)
    n: int = 0
    correct: int = 0
    llm_calls: int = 0            # answered calls, cached ones included
    cached_calls: int = 0
    failed_calls: int = 0
    tokens: int = 0
    seconds: float = 0.0
    failures: dict[str, int] = field(default_factory=dict)   # error message → count
    fallback: int = 0             # items the reasoner left undecided, answered by the model alone
    fallback_correct: int = 0
    text: int = 0                 # chat: items answered by the model's own closing text (unverified) …
    text_correct: int = 0         # … and of those, right

    @property
    def accuracy(self) -> float:
        return self.correct / self.n if self.n else 0.0

    @property
    def seconds_per_item(self) -> float:
        return self.seconds / self.n if self.n else 0.0

    def fail(self, reason: str) -> None:
        self.failures[reason] = self.failures.get(reason, 0) + 1

    def scored(self, correct: bool, guessed: bool) -> None:
        """One item's outcome: right or not, and whether the fallback (the model alone) answered it."""
        self.fallback += guessed
        if correct:
            self.correct += 1
            self.fallback_correct += guessed

    def finish(self, llm: LLM | None, before: tuple[int, int, int], start: float) -> None:
        """Time and model use since `start` and `before` (= counts(llm) then)."""
        self.seconds = time.perf_counter() - start
        self.llm_calls, self.cached_calls, self.tokens = (a - b for a, b in zip(counts(llm), before, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "system": self.system, "mode": self.mode, "n": self.n,
                "correct": self.correct, "accuracy": round(self.accuracy, 4), "llm_calls": self.llm_calls,
                "cached_calls": self.cached_calls, "failed_calls": self.failed_calls, "tokens": self.tokens,
                "seconds": round(self.seconds, 3), "seconds_per_item": round(self.seconds_per_item, 3),
                "fallback": self.fallback, "fallback_correct": self.fallback_correct,
                "text": self.text, "text_correct": self.text_correct, "failures": dict(self.failures)}


def counts(llm: LLM | None) -> tuple[int, int, int]:
    """(calls, cached calls, tokens) of a client's shell so far."""
    if llm is None:
        return 0, 0, 0
    s = llm.stats()
    return s.get("calls", 0), s.get("cached", 0), s.get("prompt_tokens", 0) + s.get("completion_tokens", 0)


@dataclass(frozen=True)
class TurnUse:
    """What one chat turn used through its own shell's model client (counted into the score as the
    bench model's calls are), the commands it called, and its model steps; `route_steps` and
    `invalid` are the steps of a menu (route) turn and its replies that did not fit the menu."""

    calls: int = 0
    cached: int = 0
    tokens: int = 0
    tool_calls: int = 0
    steps: int = 0
    route_steps: int = 0
    invalid: int = 0


@dataclass
class Outcome:
    """sym's answer to one item (None: undecided), whether a program ran, and why it failed."""

    answer: str | None = None
    ran: bool = False
    reason: str = ""
    failed_call: bool = False       # a model call failed (not a reply that never fit)
    verified: bool = False          # chat: the answer is a verified call's (an /ask verdict), not the model's text
    turn: TurnUse | None = None     # chat: what the item's turn did
    vote: str = ""                  # several samples drawn: the vote (pot/vote.py, swm/extract_vote.py)
    error: str = ""                 # the whole error behind `reason` (which groups like failures)
    unverified: bool = False        # the model picked the answer (AR-LSAT's tie or unknown question type)
    from_text: bool = False         # chat: the answer is read from the model's closing text (unverified)


def failed_outcome(err: UserError) -> Outcome:
    return Outcome(reason=err.message, failed_call=isinstance(err, LLMError) and err.reason != "bad-output")


@dataclass
class ItemResult:
    """One item as it finished: who answered (`by`: sym, text — a chat turn's closing words,
    unverified —, fallback — the model alone, unverified —, llm for the baseline, or none),
    whether it was right, why sym did not decide, the vote, and what its calls used (from the
    call log)."""

    index: int
    total: int
    item: str
    system: str
    mode: str
    gold: str
    answer: str | None
    by: str
    correct: bool
    reason: str = ""
    vote: str = ""
    calls: int = 0
    cached: int = 0
    failed: int = 0
    tokens: int = 0
    seconds: float = 0.0
    tag: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "item", **asdict(self), "seconds": round(self.seconds, 3)}


@dataclass
class LogicScore(Score):
    programs_ran: int = 0      # items where a program passed the interpreter
    decided: int = 0           # items sym answered itself (verified): coverage = decided / n
    decided_correct: int = 0   # … and of those, right: precision = decided_correct / decided
    abstained: int = 0         # items sym left undecided (the fallback may have answered them)
    verified: int = 0          # chat: items answered from a verified call
    from_text: int = 0         # chat: items answered from the model's own text (unverified)
    tool_calls: int = 0        # chat: commands the turns called
    model_steps: int = 0       # chat: model calls the turns made
    route_steps: int = 0       # chat: of those, menu (route) steps …
    route_invalid: int = 0     # … and menu replies that were not a valid command
    run: str = ""              # the run's tag in the call log

    @property
    def coverage(self) -> float:
        return self.decided / self.n if self.n else 0.0

    @property
    def precision(self) -> float:
        return self.decided_correct / self.decided if self.decided else 0.0

    def to_dict(self) -> dict[str, Any]:
        out = {"type": "totals", **super().to_dict(), "programs_ran": self.programs_ran, "decided": self.decided,
               "decided_correct": self.decided_correct, "coverage": round(self.coverage, 4),
               "precision": round(self.precision, 4) if self.decided else None, "abstained": self.abstained, "run": self.run}
        if self.mode == "chat":
            out.update(verified=self.verified, from_text=self.from_text, tool_calls=self.tool_calls,
                       model_steps=self.model_steps, route_steps=self.route_steps, route_invalid=self.route_invalid)
        return out

    def count_turn(self, turn: TurnUse, out: Outcome) -> None:
        """A chat item: where its answer came from, and what its turn did."""
        if out.answer is not None:
            self.verified += out.verified
            self.from_text += not out.verified
        self.tool_calls += turn.tool_calls
        self.model_steps += turn.steps
        self.route_steps += turn.route_steps
        self.route_invalid += turn.invalid


def short_reason(text: str) -> str:
    """A failure message with its particulars (quoted names, numbers) blanked, so like ones group;
    never cut short."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", " ".join(str(text).split()))
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    return text or "no answer"


def run_tag(name: str) -> str:
    """A bench run's tag in the call log: the data's name and the time it started."""
    return f"bench:{name}:{time.strftime('%Y%m%d-%H%M%S')}"


@dataclass
class Bench(Generic[I]):
    """What a suite's items are to the loop: its id and gold answer, sym's way to an answer
    (`solve`), the model alone (`guess`; `own_key`: the baseline's own request, not the
    fallback's), and whether an answer is right."""

    ident: Callable[[I], str]
    gold: Callable[[I], str]
    solve: Callable[[I, LLM | None], Outcome]
    guess: Callable[[I, LLM, bool], str | None]
    right: Callable[[I, str], bool]
    can_guess: Callable[[I], bool] = lambda _item: True


def score_loop(name: str, items: Sequence[I], llm: LLM | None, bench: Bench[I], *, mode: str, baseline: bool = False,
               fallback: bool = True, on_item: Callable[[ItemResult], object] | None = None, run: str | None = None,
               total: int | None = None, first: int = 1) -> LogicScore:
    """One system over the items: sym (`bench.solve`; with `fallback`, an item it leaves undecided
    is answered by the model alone, counted apart and labelled), or with `baseline` the model
    alone. The calls a chat item's turn made through its own client (Outcome.turn) count as the
    model's. `on_item` hears each item as it finishes; `run` tags the calls (RUN/ITEM in the call
    log); `first` and `total` number the items as the caller chose them (--offset)."""
    if baseline and llm is None:
        raise UserError("the model-alone baseline needs a model", hint="--llm on, or --baseline none")
    score = LogicScore(name, "-" if baseline else mode, "llm" if baseline else "sym", run=run or run_tag(name))
    system = "llm" if baseline else "sym"
    before = counts(llm)
    turns = [0, 0, 0]          # calls, cached, tokens of the chat turns' own clients
    start = time.perf_counter()
    for n, item in enumerate(items, start=first):
        began = time.perf_counter()
        tag = f"{score.run}/{'llm' if baseline else mode}/{bench.ident(item)}"
        client = llm.tagged(tag) if llm is not None else None
        score.n += 1
        guessed = False
        if baseline:
            assert client is not None
            try:
                said = bench.guess(item, client, True)
                out = Outcome(said, reason="" if said else "the model named no answer")
            except UserError as err:
                out = failed_outcome(err)
        else:
            out = bench.solve(item, client)
            score.programs_ran += out.ran
            if out.turn is not None:
                score.count_turn(out.turn, out)
                turns = [a + b for a, b in zip(turns, (out.turn.calls, out.turn.cached, out.turn.tokens), strict=True)]
        score.failed_calls += out.failed_call
        said = out.answer
        text = said is not None and out.from_text and not baseline    # the model's words, its own column
        verified = said is not None and not out.unverified and not text and not baseline
        reason = (out.error or out.reason) if not verified and not baseline else ""
        if out.unverified and said is not None:
            reason = reason or "the model picked the answer (unverified)"
        if text:           # sym did not decide it; its line says whose words the answer is (by: text)
            score.abstained += 1
            score.text += 1
            score.fail(short_reason(reason))
            reason = ""
        elif said is None or out.unverified:
            score.fail(short_reason(out.reason or reason))
            score.abstained += not baseline
            if not baseline and said is None and fallback and client is not None and bench.can_guess(item):
                try:
                    said, guessed = bench.guess(item, client, False), True
                except UserError as err:
                    score.fail("fallback: " + short_reason(err.message))
            guessed = guessed or (said is not None and out.unverified)
        correct = said is not None and bench.right(item, said)
        score.scored(correct, guessed and not baseline)
        score.text_correct += text and correct
        if verified:
            score.decided += 1
            score.decided_correct += correct
        used = llm.calllog.usage(tag) if llm is not None else {}
        seconds = max(time.perf_counter() - began, used.get("seconds", 0.0))   # a cached call at its first time
        score.seconds += seconds
        if on_item is not None:
            by = "llm" if baseline and said is not None else "sym" if verified else "text" if text \
                else "fallback" if said is not None else "none"
            on_item(ItemResult(n, total or len(items), bench.ident(item), system, score.mode, bench.gold(item), said,
                               by, correct, reason, out.vote, used.get("calls", 0), used.get("cached", 0),
                               used.get("failed", 0), used.get("tokens", 0), seconds, tag))
    seconds = score.seconds
    score.finish(llm, before, start)
    score.seconds = seconds        # the items' own: a cached call at the seconds it first took
    score.llm_calls, score.cached_calls, score.tokens = (a + b for a, b in zip(
        (score.llm_calls, score.cached_calls, score.tokens), turns, strict=True))
    return score
