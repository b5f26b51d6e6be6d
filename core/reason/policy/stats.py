"""Statistics over the policy log: per rule and per combination of steered attributes.

For each rule: runs it applied to, how many were scored, mean / min / max / population
std of their scores, success rate (score >= threshold), and the same numbers for the
runs of the same commands where it did not apply (the baseline).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from sym.core.reason.policy.store import RunRecord

NO_POLICY = "(no policy)"


@dataclass
class Summary:
    runs: int
    scored: int
    mean: float | None
    min: float | None
    max: float | None
    std: float | None
    success: float | None         # share of scored runs at or above the threshold

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def summarise(records: list[RunRecord], threshold: float) -> Summary:
    scores = [r.score for r in records if r.score is not None]
    if not scores:
        return Summary(len(records), 0, None, None, None, None, None)
    mean = sum(scores) / len(scores)
    std = math.sqrt(sum((s - mean) ** 2 for s in scores) / len(scores))
    success = sum(1 for s in scores if s >= threshold) / len(scores)
    return Summary(len(records), len(scores), mean, min(scores), max(scores), std, success)


@dataclass
class RuleStats:
    rule: str
    applied: Summary
    baseline: Summary             # same commands, rule not applied

    @property
    def delta(self) -> float | None:
        if self.applied.mean is None or self.baseline.mean is None:
            return None
        return self.applied.mean - self.baseline.mean

    def to_dict(self) -> dict[str, Any]:
        d = self.delta
        return {"rule": self.rule, "applied": self.applied.to_dict(), "baseline": self.baseline.to_dict(),
                "delta": None if d is None else round(d, 4)}


def combination(record: RunRecord) -> str:
    """The steered attributes of a run as one key: "model=m, temperature=0"."""
    if not record.changes:
        return NO_POLICY
    return ", ".join(f"{k}={v}" for k, v in sorted(record.changes.items()))


def rule_stats(records: list[RunRecord], rule_names: list[str], threshold: float) -> list[RuleStats]:
    """Stats for each named rule (rules that never applied show zero runs)."""
    names = list(dict.fromkeys([*rule_names, *(n for r in records for n in r.rules)]))
    out = []
    for name in names:
        applied = [r for r in records if name in r.rules]
        commands = {r.command for r in applied}
        baseline = [r for r in records if name not in r.rules and r.command in commands]
        out.append(RuleStats(name, summarise(applied, threshold), summarise(baseline, threshold)))
    return out


def combination_stats(records: list[RunRecord], threshold: float) -> dict[str, Summary]:
    groups: dict[str, list[RunRecord]] = {}
    for r in records:
        groups.setdefault(combination(r), []).append(r)
    return {key: summarise(group, threshold) for key, group in sorted(groups.items())}
