"""Scoring outside items (`sym bench logic`): the outside suites' items through the shared
item-by-item loop (core/reason/scoring.py), answered by the path asked for (outside.py), a
truth item right when its normalised answer is the gold one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sym.repl.bench.outside import SuiteItem, answer_item, baseline_item
from sym.repl.bench.scoring import Bench, ItemResult, LogicScore, Outcome, run_tag, score_loop, short_reason

if TYPE_CHECKING:
    from collections.abc import Callable

    from sym.core.llm.facade import LLM


def score_items(name: str, items: list[SuiteItem], llm: LLM | None, *, path: str = "auto", baseline: bool = False,
                fallback: bool = True, on_item: Callable[[ItemResult], object] | None = None,
                answer: Callable[[SuiteItem, LLM | None], Outcome] | None = None, run: str | None = None,
                total: int | None = None, first: int = 1, **encoding: Any) -> LogicScore:
    """One system over the items (scoring.score_loop): sym by `path`, or with `baseline` the
    model alone. `answer` answers an item in place of `answer_item` (the chat path's turn, run
    by the shell); `encoding` goes to the prove path (proof format, style, samples)."""
    bench: Bench[SuiteItem] = Bench(
        ident=lambda item: item.id, gold=lambda item: item.gold,
        solve=answer or (lambda item, client: answer_item(item, client, path, **encoding)),
        guess=lambda item, client, own: baseline_item(item, client, own_key=own),
        right=lambda item, said: said == item.gold)
    return score_loop(name, items, llm, bench, mode=path, baseline=baseline, fallback=fallback, on_item=on_item,
                      run=run, total=total, first=first)


__all__ = ["score_items", "ItemResult", "LogicScore", "run_tag", "short_reason"]
