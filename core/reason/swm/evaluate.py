"""Accuracy of the SWM reasoner over datasets shaped like the paper's (`sym bench swm`).

Each problem runs in a fresh in-process working memory through the same `SWM.tell` /
`SWM.ask` a user's `/tell` and `/ask` use. With no model (`llm=None`) only what the
fast path and the engine decide is answered; the rest counts as wrong.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from core.errors import UserError
from core.memory.working import WorkingMemory
from core.reason.swm import datasets
from core.reason.swm.reasoner import SWM

DATASETS = ("proofwriter", "clutrr", "boxes", "lsat-ar")


@dataclass
class Score:
    dataset: str
    mode: str
    n: int = 0
    correct: int = 0
    llm_calls: int = 0
    tokens: int = 0
    seconds: float = 0.0
    failures: dict[str, int] = field(default_factory=dict)   # error message → count

    @property
    def accuracy(self) -> float:
        return self.correct / self.n if self.n else 0.0

    def to_dict(self) -> dict:
        return {"dataset": self.dataset, "n": self.n, "correct": self.correct, "accuracy": round(self.accuracy, 4),
                "llm_calls": self.llm_calls, "tokens": self.tokens, "seconds": round(self.seconds, 3),
                "mode": self.mode}


def _tokens(llm) -> tuple[int, int]:
    if llm is None:
        return 0, 0
    s = llm.stats()
    return s.get("calls", 0), s.get("prompt_tokens", 0) + s.get("completion_tokens", 0)


def answer(problem, *, llm=None, mode: str = "hybrid", gold_facts: bool = True) -> str:
    """The reasoner's answer text for one problem (raises UserError when it cannot answer)."""
    if problem.dataset == "lsat-ar":
        if llm is None:
            raise UserError("lsat-ar needs a language model")
        from core.reason.swm.lsat import answer_lsat

        letter, detail = answer_lsat(problem, llm, attempts=getattr(llm.settings, "proof_attempts", 3))
        if not letter:     # counted wrong, and tallied among the bench's failure messages
            raise UserError(detail.get("error") or "no answer")
        return letter
    memory = WorkingMemory()
    swm = SWM(memory, llm=llm, merge="off", run=f"bench-{problem.id}")
    if problem.dataset == "clutrr":
        story = problem.gold_facts if gold_facts else [problem.context or problem.question]
        swm.tell(list(story) + list(problem.rules))
        question = problem.question.rsplit(".", 1)[-1].strip() or problem.question
    else:
        swm.tell(list(problem.context_sentences) + list(problem.rules))
        question = problem.question
    out = swm.ask(question, mode=mode, fallback=False)
    return out.answer


def evaluate(root, dataset: str, *, llm=None, mode: str = "hybrid", gold_facts: bool = True,
             limit: int | None = None, progress=None) -> Score:
    problems = datasets.load(root, dataset)[:limit] if limit else datasets.load(root, dataset)
    score = Score(dataset, mode)
    calls0, tokens0 = _tokens(llm)
    start = time.perf_counter()
    for n, problem in enumerate(problems, start=1):
        score.n += 1
        try:
            text = answer(problem, llm=llm, mode=mode, gold_facts=gold_facts)
        except UserError as err:
            score.failures[err.message[:80]] = score.failures.get(err.message[:80], 0) + 1
            text = ""
        if datasets.is_correct(problem, text):
            score.correct += 1
        if progress is not None:
            progress(n, len(problems))
    score.seconds = time.perf_counter() - start
    calls1, tokens1 = _tokens(llm)
    score.llm_calls, score.tokens = calls1 - calls0, tokens1 - tokens0
    return score
