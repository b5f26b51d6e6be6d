"""Policy statistics on a synthetic run history (numbers worked out by hand), scoring, and
suggestions that change nothing until accepted."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from sym.core.errors import UserError
from sym.core.reason.policy import suggest
from sym.core.reason.policy.rules import PolicyBook, rule_from_data
from sym.core.reason.policy.stats import NO_POLICY, combination_stats, rule_stats
from sym.core.reason.policy.store import PolicyStore, score_result


def history() -> PolicyStore:
    """Runs of /ask: three steered by 'cot' (rated 5, 3, 1), one steered but unscored, two
    without it (auto 1.0 and 0.5); one /prove run without it (0.0, not a baseline for /ask)."""
    store = PolicyStore(None)
    eff = {"model": "m", "temperature": 0.0}

    def run(n, command, rule=None, changes=None, outcomes=()):
        rid = store.start_run(f"ask-{n}", command, "q", {"command": command}, eff)
        if rule:
            store.log_application(rid, f"ask-{n}", rule, "llm", changes or {})
        for source, score in outcomes:
            store.add_outcome(rid, source, score)
        return rid

    run(1, "/ask", "cot", {"model": "big"}, [("auto", 0.0), ("user", 1.0)])   # rating overrides auto
    run(2, "/ask", "cot", {"model": "big"}, [("user", 0.5)])
    run(3, "/ask", "cot", {"model": "big"}, [("auto", 1.0), ("judge", 0.0)])  # judge overrides auto
    run(4, "/ask", "cot", {"model": "big"}, [("auto", None)])                  # not scored
    run(5, "/ask", outcomes=[("auto", 1.0)])
    run(6, "/ask", outcomes=[("auto", 0.5)])
    run(7, "/prove", outcomes=[("auto", 0.0)])
    return store


def test_rule_stats_match_hand_computed_numbers():
    (cot,) = rule_stats(history().runs(), ["cot"], threshold=0.5)
    a = cot.applied
    assert (a.runs, a.scored) == (4, 3)
    assert a.mean == pytest.approx(0.5)                       # (1 + 0.5 + 0) / 3
    assert (a.min, a.max) == (0.0, 1.0)
    assert a.std == pytest.approx(math.sqrt(1 / 6))           # sqrt((0.25 + 0 + 0.25) / 3)
    assert a.success == pytest.approx(2 / 3)                  # 1.0 and 0.5 reach 0.5
    b = cot.baseline                                          # /ask runs without cot only
    assert (b.runs, b.scored, b.mean, b.success) == (2, 2, 0.75, 1.0)
    assert cot.delta == pytest.approx(-0.25)


def test_the_threshold_changes_the_success_rate_only():
    (cot,) = rule_stats(history().runs(), ["cot"], threshold=0.9)
    assert cot.applied.success == pytest.approx(1 / 3)
    assert cot.applied.mean == pytest.approx(0.5)


def test_stats_per_attribute_combination():
    combos = combination_stats(history().runs(), threshold=0.5)
    assert set(combos) == {"model=big", NO_POLICY}
    assert combos["model=big"].mean == pytest.approx(0.5)
    assert combos[NO_POLICY].runs == 3 and combos[NO_POLICY].mean == pytest.approx(0.5)   # (1 + .5 + 0) / 3


@dataclass
class _Proved:
    status: str = "proved"
    ok: bool = True


@dataclass
class _Scored:
    score: float = 1.7
    ok: bool = True


@dataclass
class _Failed:
    ok: bool = False


def test_automatic_scores_from_results():
    assert score_result(_Proved())[0] == 1.0
    assert score_result(_Proved("unknown"))[0] == 0.5
    assert score_result(_Scored())[0] == 1.0          # clamped to 0..1
    assert score_result(_Failed())[0] == 0.0
    assert score_result(object())[0] is None          # a plain success is not a score


def _book(tmp_path, temperature=0.9):
    book = PolicyBook(tmp_path / "policies.yaml")
    book.add(rule_from_data({"name": "hot", "target": "llm", "filter": {"command": "/ask"},
                             "attributes": {"temperature": temperature}}))
    return book


def _tuning_history() -> PolicyStore:
    store = PolicyStore(None)
    for n, score in enumerate([0.0, 0.25, 0.0], start=1):   # hot applied: poor
        rid = store.start_run(f"ask-{n}", "/ask", "q", {"command": "/ask"}, {"temperature": 0.9})
        store.log_application(rid, f"ask-{n}", "hot", "llm", {"temperature": 0.9})
        store.add_outcome(rid, "user", score)
    for n, score in enumerate([1.0, 0.75], start=4):        # without it, at temperature 0: good
        rid = store.start_run(f"ask-{n}", "/ask", "q", {"command": "/ask"}, {"temperature": 0.0})
        store.add_outcome(rid, "user", score)
    return store


def test_suggestions_move_toward_better_values_and_change_nothing_until_accepted(tmp_path):
    book, store = _book(tmp_path), _tuning_history()
    before = book.path.read_text()
    made = suggest.record(store, suggest.statistical(book, store.runs(), threshold=0.5))
    by_action = {s["action"]: s for s in made}
    assert by_action["replace"]["body"]["attributes"] == {"temperature": 0.0}
    assert "temperature=0.0 scored 0.88 over 2 runs" in by_action["replace"]["reason"]
    assert by_action["disable"]["body"]["enabled"] is False
    assert book.path.read_text() == before and book.get("hot").attributes == {"temperature": 0.9}
    # asking again proposes the same edits under the same ids, still changing nothing
    again = suggest.record(store, suggest.statistical(book, store.runs(), threshold=0.5))
    assert [s["id"] for s in again] == [s["id"] for s in made]
    assert book.path.read_text() == before

    suggest.accept(book, store, by_action["replace"]["id"])
    assert book.get("hot").attributes == {"temperature": 0.0}
    assert PolicyBook(book.path).refresh() is False and "temperature: 0.0" in book.path.read_text()
    with pytest.raises(UserError, match="already accepted"):
        suggest.accept(book, store, by_action["replace"]["id"])


def test_without_evidence_the_suggestion_is_a_cautious_step(tmp_path):
    book, store = _book(tmp_path), PolicyStore(None)
    for n in range(3):
        rid = store.start_run(f"ask-{n}", "/ask", "q", {"command": "/ask"}, {"temperature": 0.9})
        store.log_application(rid, f"ask-{n}", "hot", "llm", {"temperature": 0.9})
        store.add_outcome(rid, "user", 0.25)
    (s,) = suggest.statistical(book, store.runs(), threshold=0.5)
    assert s.action == "replace" and s.body["attributes"] == {"temperature": 0.45}


def test_rules_with_too_few_scored_runs_get_no_suggestion(tmp_path):
    book, store = _book(tmp_path), PolicyStore(None)
    rid = store.start_run("ask-1", "/ask", "q", {"command": "/ask"}, {})
    store.log_application(rid, "ask-1", "hot", "llm", {"temperature": 0.9})
    store.add_outcome(rid, "user", 0.0)
    assert suggest.statistical(book, store.runs(), threshold=0.5) == []
