"""Proposed edits of under-performing rules. Nothing here changes a rule: a suggestion is
stored with an id and takes effect only through `accept`.

A rule under-performs when it has at least `min_runs` scored runs and its mean score is
below the threshold or below its baseline. Statistical suggestions move each attribute it
sets toward the value that scored best among recorded runs its filter matches (or, with
no such evidence, a cautious heuristic step); a rule worse than its baseline may also be
disabled. With an LLM, the model rewrites the rule (validated like any typed rule).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from sym.core.errors import UserError
from sym.core.events import Warning
from sym.core.reason.policy.rules import PolicyBook, PolicyRule, Scalar, rule_from_data
from sym.core.reason.policy.stats import RuleStats, rule_stats
from sym.core.reason.policy.store import PolicyStore, RunRecord

if TYPE_CHECKING:
    from sym.core.events import Emit
    from sym.core.llm.facade import LLM

MIN_RUNS = 3          # scored runs a rule needs before it is judged
MIN_SUPPORT = 2       # scored runs a value needs before it is recommended


@dataclass
class Proposal:
    action: str           # add | replace | disable
    rule: str
    body: dict[str, Any]
    reason: str
    origin: str           # stats | llm


def underperforming(stats: RuleStats, threshold: float, min_runs: int = MIN_RUNS) -> bool:
    a = stats.applied
    if a.scored < min_runs or a.mean is None:
        return False
    return a.mean < threshold or (stats.delta is not None and stats.delta < 0)


def _mean(scores: list[float]) -> float:
    return sum(scores) / len(scores)


def best_values(rule: PolicyRule, records: list[RunRecord]) -> dict[str, tuple[object, float, int]]:
    """For each attribute the rule sets: (value, mean score, runs) of the best-scoring value in
    force among scored runs the rule's filter matches, where that beats the rule's own value."""
    scored = [(r, r.score) for r in records if r.score is not None and rule.matches(r.attributes)]
    own = [score for r, score in scored if rule.name in r.rules]
    if not own:
        return {}
    own_mean = _mean(own)
    out = {}
    for key, value in rule.attributes.items():
        groups: dict[str, tuple[object, list[float]]] = {}
        for r, score in scored:
            if key in r.effective:
                v = r.effective[key]
                groups.setdefault(repr(v), (v, []))[1].append(score)
        ranked = sorted(((_mean(s), len(s), v) for v, s in groups.values() if len(s) >= MIN_SUPPORT),
                        key=lambda t: (t[0], t[1]), reverse=True)
        if ranked and ranked[0][2] != value and ranked[0][0] > own_mean:
            mean, n, best = ranked[0]
            out[key] = (best, mean, n)
    return out


def heuristic_step(rule: PolicyRule) -> dict[str, Any]:
    """A cautious change when the log holds no better value: cooler, longer, more attempts."""
    changes: dict[str, Any] = {}
    temp = rule.attributes.get("temperature")
    if isinstance(temp, (int, float)) and not isinstance(temp, bool) and temp > 0:
        changes["temperature"] = round(temp / 2, 3) if temp > 0.2 else 0.0
    steps = rule.attributes.get("max_steps")
    if isinstance(steps, int) and not isinstance(steps, bool):
        changes["max_steps"] = steps * 2
    attempts = rule.attributes.get("proof_attempts")
    if isinstance(attempts, int) and not isinstance(attempts, bool):
        changes["proof_attempts"] = attempts + 2
    return changes


def statistical(book: PolicyBook, records: list[RunRecord], threshold: float) -> list[Proposal]:
    out: list[Proposal] = []
    for stats in rule_stats(records, [r.name for r in book.rules], threshold):
        try:
            rule = book.get(stats.rule)
        except UserError:
            continue          # a rule that has since been removed
        if not rule.enabled or not underperforming(stats, threshold):
            continue
        a = stats.applied
        where = f"mean {a.mean:.2f} over {a.scored} scored runs"
        better = best_values(rule, records)
        if better:
            attrs = {**rule.attributes, **{k: v for k, (v, _, _) in better.items()}}
            why = "; ".join(f"{k}={v} scored {m:.2f} over {n} runs" for k, (v, m, n) in better.items())
            out.append(Proposal("replace", rule.name, {**rule.to_yaml_dict(), "attributes": attrs},
                                f"{where}; {why}", "stats"))
        else:
            step = heuristic_step(rule)
            if step:
                out.append(Proposal("replace", rule.name,
                                    {**rule.to_yaml_dict(), "attributes": {**rule.attributes, **step}},
                                    f"{where}; no better value recorded, trying "
                                    + ", ".join(f"{k}={v}" for k, v in step.items()), "stats"))
        if stats.delta is not None and stats.delta < 0:
            out.append(Proposal("disable", rule.name, {**rule.to_yaml_dict(), "enabled": False},
                                f"{where}, {-stats.delta:.2f} below runs without it", "stats"))
    return out


class RuleRewrite(BaseModel):
    """What the model proposes for one rule."""

    target: str
    filter: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict)
    attributes: dict[str, Scalar]
    reason: str = ""


def rewritten(llm: LLM, book: PolicyBook, records: list[RunRecord], threshold: float, emit: Emit | None = None) -> list[Proposal]:
    """Ask the model to rewrite each under-performing rule; invalid rewrites are dropped."""
    out: list[Proposal] = []
    for stats in rule_stats(records, [r.name for r in book.rules], threshold):
        try:
            rule = book.get(stats.rule)
        except UserError:
            continue
        if not rule.enabled or not underperforming(stats, threshold):
            continue
        examples = [{"attributes": r.attributes, "settings": r.effective, "score": r.score}
                    for r in records if r.score is not None and rule.matches(r.attributes)][-20:]
        messages = [
            {"role": "system", "content": "You improve steering rules of a reasoning shell. A rule has a target "
             "(llm, prompter or reasoner), a filter over run attributes and attributes to set (model, temperature, "
             "max_steps, proof_attempts, prompter, mode, …). Propose one better version of the rule as JSON."},
            {"role": "user", "content": json.dumps({"rule": rule.to_yaml_dict(), "stats": stats.to_dict(),
                                                    "recent_runs": examples}, default=str)},
        ]
        proposal = llm.json(messages, RuleRewrite, purpose="policy.suggest")
        body = {"name": rule.name, "target": proposal.target, "filter": proposal.filter,
                "attributes": proposal.attributes, "priority": rule.priority}
        try:
            checked = rule_from_data(body, where="suggested rule")
        except UserError as err:
            if emit is not None:
                emit(Warning(f"the model's rewrite of {rule.name!r} was invalid: {err.message}"))
            continue
        out.append(Proposal("replace", rule.name, checked.to_yaml_dict(),
                            proposal.reason.strip() or "rewritten by the model", "llm"))
    return out


def record(store: PolicyStore, proposals: list[Proposal]) -> list[dict[str, Any]]:
    """Store new proposals (an identical pending one is reused); returns them with their ids."""
    pending = store.pending_suggestions()
    out = []
    for p in proposals:
        same = next((s for s in pending if s["action"] == p.action and s["rule"] == p.rule and s["body"] == p.body),
                    None)
        if same is None:
            sid = store.add_suggestion(p.action, p.rule, p.body, p.reason, p.origin)
            same = store.suggestion(sid)
            assert same is not None   # just added
        out.append(same)
    return out


def accept(book: PolicyBook, store: PolicyStore, sid: str) -> tuple[dict[str, Any], PolicyRule]:
    """Apply one pending suggestion to the book (and its file)."""
    s = store.suggestion(sid.strip())
    if s is None:
        raise UserError(f"no suggestion {sid!r}", hint="/policy suggest lists them")
    if s["status"] != "pending":
        raise UserError(f"suggestion {sid} was already {s['status']}")
    rule = rule_from_data(s["body"], where=f"suggestion {sid}")
    if s["action"] == "add":
        book.add(rule)
    else:
        book.get(s["rule"])   # the rule it edits must still exist
        book.add(rule, replace=True)
    store.mark_suggestion(s["id"], "accepted")
    return s, rule
