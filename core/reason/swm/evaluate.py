"""Accuracy of the SWM reasoner over datasets shaped like the paper's (`sym bench swm`).

Each problem runs in a fresh in-process working memory through the same `SWM.tell` /
`SWM.ask` a user's `/tell` and `/ask` use. With no model (`llm=None`) only what the
fast path and the engine decide is answered; the rest counts as wrong.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.llm import LLMError
from sym.core.memory.working import WorkingMemory
from sym.core.reason.swm import datasets
from sym.core.reason.swm.english import split_sentences
from sym.core.reason.swm.reasoner import SWM
from sym.core.run import Run

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from sym.core.llm.facade import LLM
    from sym.core.reason.swm.datasets import Problem

DATASETS = ("proofwriter", "clutrr", "boxes", "lsat-ar")


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
        """Time and model use since `start` and `before` (= _counts(llm) then)."""
        self.seconds = time.perf_counter() - start
        self.llm_calls, self.cached_calls, self.tokens = (a - b for a, b in zip(_counts(llm), before, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "system": self.system, "mode": self.mode, "n": self.n,
                "correct": self.correct, "accuracy": round(self.accuracy, 4), "llm_calls": self.llm_calls,
                "cached_calls": self.cached_calls, "failed_calls": self.failed_calls, "tokens": self.tokens,
                "seconds": round(self.seconds, 3), "seconds_per_item": round(self.seconds_per_item, 3),
                "fallback": self.fallback, "fallback_correct": self.fallback_correct,
                "failures": dict(self.failures)}


def _counts(llm: LLM | None) -> tuple[int, int, int]:
    if llm is None:
        return 0, 0, 0
    s = llm.stats()
    return s.get("calls", 0), s.get("cached", 0), s.get("prompt_tokens", 0) + s.get("completion_tokens", 0)


_BASELINE_HINTS = {"proofwriter": "End with: Answer: True, False or Unknown.",
                   "clutrr": "End with: Answer: <name> is the <relation> of <name>.",
                   "boxes": "End with: Answer: the items in that box, separated by commas (or nothing).",
                   "lsat-ar": "End with: Answer: the letter of the right option."}


def baseline_answer(problem: Problem, llm: LLM) -> str:
    """The model alone on the same item: one chain-of-thought call, its final answer line."""
    from sym.core.reason.swm import prompts

    if llm is None:
        raise UserError("the llm baseline needs a language model")
    context = problem.context or " ".join(problem.context_sentences)
    if problem.rules:
        context += "\nRules: " + " ".join(problem.rules)
    question = problem.question
    if problem.options:
        question += "\n" + "\n".join(f"{chr(65 + i)}) {o}" for i, o in enumerate(problem.options))
    reply = llm.chat(prompts.baseline_messages(context, question, _BASELINE_HINTS.get(problem.dataset, "")),
                     purpose="bench.baseline")
    return prompts.final_answer(reply.text)


def answer(problem: Problem, *, llm: LLM | None = None, mode: str = "hybrid", gold_facts: bool = True,
           counts: dict[str, Any] | None = None) -> str:
    """The reasoner's answer text for one problem (raises UserError when it cannot answer)."""
    if problem.dataset == "lsat-ar":
        if llm is None:
            raise UserError("lsat-ar needs a language model")
        from sym.core.reason.swm.lsat import answer_lsat

        letter, detail = answer_lsat(problem, Run.using(llm, "lsat"), attempts=llm.settings.proof_attempts)
        if not letter:     # counted wrong, and tallied among the bench's failure messages
            raise UserError(detail.get("error") or "no answer")
        return letter
    memory = WorkingMemory()
    swm = SWM(memory, Run.using(llm, f"bench-{problem.id}"), merge="off")
    try:
        if problem.dataset == "clutrr":
            # rules first, so that their predicates are the model's choices for the story's sentences;
            # the story split into sentences exactly as /tell splits it
            story = problem.gold_facts if gold_facts else (
                list(problem.context_sentences) or split_sentences(problem.context or problem.question))
            swm.tell(list(problem.rules) + list(story), partial=True)
            question = problem.question.rsplit(".", 1)[-1].strip() or problem.question
        else:
            swm.tell(list(problem.context_sentences) + list(problem.rules), partial=True)
            question = problem.question
        out = swm.ask(question, mode=mode, open_world=True, fallback=False)     # as /ask answers by default
    finally:
        if counts is not None:       # model calls that failed inside SWM and were absorbed (partial tells)
            counts["failed"] = counts.get("failed", 0) + swm.failed_calls
    return out.answer


def evaluate(root: str | Path, dataset: str, *, llm: LLM | None = None, mode: str = "hybrid", gold_facts: bool = True,
             limit: int | None = None, progress: Callable[[int, int], object] | None = None, baseline: bool = False,
             fallback: bool = False) -> Score:
    """Score one dataset: sym (tell + ask), or with `baseline` the model alone. With `fallback`
    (and a model), an item sym leaves undecided — no answer derived — is answered as the model
    alone would (as `/ask` falls back to an unverified answer); the score counts those apart."""
    if baseline and llm is None:   # was an AttributeError on the first item
        raise UserError("the model-alone baseline needs a model")
    problems = datasets.load(root, dataset)[:limit] if limit else datasets.load(root, dataset)
    score = Score(dataset, mode if not baseline else "-", "llm" if baseline else "sym")
    before = _counts(llm)
    counts: dict[str, Any] = {}
    start = time.perf_counter()
    for n, problem in enumerate(problems, start=1):
        score.n += 1
        try:
            if baseline:
                assert llm is not None   # checked above
                text = baseline_answer(problem, llm)
            else:
                text = answer(problem, llm=llm, mode=mode, gold_facts=gold_facts, counts=counts)
        except UserError as err:
            score.fail(err.message[:80])
            score.failed_calls += isinstance(err, LLMError) and err.reason != "bad-output"
            text = ""
        guessed = False
        if not text.strip() and fallback and not baseline and llm is not None and problem.dataset != "lsat-ar":
            try:
                text, guessed = baseline_answer(problem, llm), True
            except UserError as err:
                score.fail("fallback: " + err.message[:70])
        score.scored(datasets.is_correct(problem, text), guessed)
        if progress is not None:
            progress(n, len(problems))
    score.finish(llm, before, start)
    score.failed_calls += counts.get("failed", 0)
    return score
