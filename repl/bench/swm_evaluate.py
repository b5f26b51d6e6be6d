"""Accuracy of the SWM reasoner over datasets shaped like the paper's (`sym bench swm`).

Each problem runs in a fresh in-process working memory through the same `SWM.tell` /
`SWM.ask` a user's `/tell` and `/ask` use, item by item through the shared loop
(core/reason/scoring.py: a line per item, decided / precision / abstained, calls tagged by
item). With no model (`llm=None`) only what the fast path and the engine decide is answered;
the rest is undecided. With `samples` > 1 a story's sentences are read that many times and
voted on (swm/extract_vote.py), an AR-LSAT item's programs too (pot/vote.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.memory.working import WorkingMemory
from sym.core.reason.swm import datasets
from sym.core.reason.swm.english import split_sentences
from sym.core.reason.swm.extract_vote import DISAGREE
from sym.core.reason.swm.reasoner import SWM
from sym.core.run import Run
from sym.repl.bench.scoring import Bench, ItemResult, LogicScore, Outcome, Score, failed_outcome, score_loop

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from sym.core.llm.facade import LLM
    from sym.core.reason.swm.datasets import Problem
    from sym.core.reason.swm.outcomes import Told

DATASETS = ("proofwriter", "clutrr", "boxes", "lsat-ar")
BASELINE_SEED = 34     # the baseline's own request: never answered by the fallback's cached one


_BASELINE_HINTS = {"proofwriter": "End with: Answer: True, False or Unknown.",
                   "clutrr": "End with: Answer: <name> is the <relation> of <name>.",
                   "boxes": "End with: Answer: the items in that box, separated by commas (or nothing).",
                   "lsat-ar": "End with: Answer: the letter of the right option."}


def baseline_answer(problem: Problem, llm: LLM, *, own_key: bool = False) -> str:
    """The model alone on the same item: one chain-of-thought call, its final answer line. With
    `own_key` (the baseline, not the fallback) the request carries a seed of its own, so the
    call log never serves it the fallback's reply to the same prompt."""
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
                     purpose="bench.baseline" if own_key else "bench.fallback",
                     options={"seed": BASELINE_SEED} if own_key else None)
    return prompts.final_answer(reply.text)


def solve(problem: Problem, llm: LLM | None, *, mode: str = "hybrid", gold_facts: bool = True,
          samples: int = 1) -> Outcome:
    """sym's answer to one problem (None: undecided, with why), the vote when sampled."""
    if problem.dataset == "lsat-ar":
        if llm is None:
            return Outcome(reason="lsat-ar needs a language model")
        from sym.repl.bench.lsat import answer_lsat  # the proof DSL: loaded for an AR-LSAT item

        try:
            letter, detail = answer_lsat(problem, Run.using(llm, "lsat"), attempts=llm.settings.proof_attempts,
                                         samples=samples)
        except UserError as err:
            return failed_outcome(err)
        ran = bool(detail.get("ran", detail.get("statuses")))
        return Outcome(letter or None, ran, "" if letter else detail.get("error") or detail.get("reason") or "no answer",
                       vote=detail.get("vote", ""), error=detail.get("error") or "",
                       unverified=bool(letter and detail.get("fallback")))
    swm = SWM(WorkingMemory(), Run.using(llm, f"bench-{problem.id}"), merge="off", samples=samples)
    told: list[Told] = []
    try:
        if problem.dataset == "clutrr":
            # rules first, so that their predicates are the model's choices for the story's sentences;
            # the story split into sentences exactly as /tell splits it
            story = problem.gold_facts if gold_facts else (
                list(problem.context_sentences) or split_sentences(problem.context or problem.question))
            told = swm.tell(list(problem.rules) + list(story), partial=True)
            question = problem.question.rsplit(".", 1)[-1].strip() or problem.question
        else:
            told = swm.tell(list(problem.context_sentences) + list(problem.rules), partial=True)
            question = problem.question
        out = swm.ask(question, mode=mode, open_world=True, fallback=False)     # as /ask answers by default
    except UserError as err:
        failed = failed_outcome(err)
        failed.failed_call = failed.failed_call or swm.failed_calls > 0
        failed.vote = _votes(told, samples)
        return failed
    text = out.answer.strip()
    unread = [t for t in told if t.problem]
    why = "" if text else (f"{len(unread)} of {len(told)} sentences not read: {unread[0].problem}" if unread
                           else "memory left the question undecided" + (f" ({out.settle})" if out.settle else ""))
    return Outcome(text or None, reason=why, failed_call=swm.failed_calls > 0, vote=_votes(told, samples))


def _votes(told: list[Told], samples: int) -> str:
    """How a story's sampled readings went, in a line: sentences kept by the vote, split, unread."""
    if samples <= 1:
        return ""
    voted = [t for t in told if t.vote or t.problem]
    kept = sum(1 for t in voted if not t.problem)
    split = sum(1 for t in voted if t.problem.startswith(DISAGREE))
    if not voted:
        return ""
    n = max(t.drawn for t in voted) or samples
    spared = f" ({samples - n} more not drawn, the vote was settled)" if n < samples else ""
    return (f"{n} readings{spared}: {kept} of {len(voted)} sentences kept by the vote, {split} split, "
            f"{len(voted) - kept - split} unread")


def answer(problem: Problem, *, llm: LLM | None = None, mode: str = "hybrid", gold_facts: bool = True,
           samples: int = 1) -> str:
    """The reasoner's answer text for one problem (raises UserError when it cannot answer)."""
    out = solve(problem, llm, mode=mode, gold_facts=gold_facts, samples=samples)
    if out.answer is None and problem.dataset == "lsat-ar":
        raise UserError(out.error or out.reason or "no answer")
    return out.answer or ""


def swm_bench(*, llm: LLM | None, mode: str, gold_facts: bool, samples: int) -> Bench[Problem]:
    """The SWM datasets' problems to the shared loop: sym by `solve`, the model alone by
    `baseline_answer` (never as AR-LSAT's fallback: its items are letters)."""
    return Bench(ident=lambda p: p.id, gold=lambda p: str(p.gold),
                 solve=lambda p, client: solve(p, client, mode=mode, gold_facts=gold_facts, samples=samples),
                 guess=lambda p, client, own: baseline_answer(p, client, own_key=own) or None,
                 right=datasets.is_correct, can_guess=lambda p: p.dataset != "lsat-ar")


def evaluate(root: str | Path, dataset: str, *, llm: LLM | None = None, mode: str = "hybrid", gold_facts: bool = True,
             limit: int | None = None, baseline: bool = False, fallback: bool = False, samples: int = 1,
             problems: Sequence[Problem] | None = None, on_item: Callable[[ItemResult], object] | None = None,
             run: str | None = None, total: int | None = None, first: int = 1, **_: Any) -> LogicScore:
    """Score one dataset (`problems`, else the first `limit` of it): sym (tell + ask), or with
    `baseline` the model alone. With `fallback` (and a model), an item sym leaves undecided — no
    answer derived — is answered as the model alone would (as `/ask` falls back to an unverified
    answer); the score counts those apart. `on_item` hears each item as it finishes."""
    if problems is None:
        problems = datasets.load(root, dataset)
        problems = problems[:limit] if limit else problems
    bench = swm_bench(llm=llm, mode=mode, gold_facts=gold_facts, samples=samples)
    return score_loop(dataset, problems, llm, bench, mode=mode, baseline=baseline, fallback=fallback,
                      on_item=on_item, run=run, total=total, first=first)


__all__ = ["DATASETS", "Score", "evaluate", "solve", "answer", "baseline_answer", "swm_bench"]
