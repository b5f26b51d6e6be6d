"""Steering policies: declarative rules (target / filter / attributes) that choose model,
prompter and strategy per run, applied visibly, logged against a run id and scored.

`rules` holds the rule models and the policies.yaml book, `classify` types a run's goal,
`apply` wraps one command run, `store`/`stats` keep and summarise outcomes, `suggest`
proposes edits that change nothing until accepted.
"""

from __future__ import annotations


def run_hints(ctx) -> dict:
    """Reasoner hints the policies set for the command now running (prompter, mode, …);
    empty when no rule applied. Commands read it as `run_hints(ctx).get("prompter")`."""
    return dict(getattr(ctx, "run_attributes", None) or {})
