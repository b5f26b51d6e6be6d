"""Steering policies: declarative rules (target / filter / attributes) that choose model,
prompter and strategy per run, applied visibly, logged against a run id and scored.

`rules` holds the rule models and the policies.yaml book, `classify` types a run's goal,
`apply` plans and scores one run (repl/steering.py wraps each command with it), `store`/`stats`
keep and summarise outcomes, `suggest` proposes edits that change nothing until accepted.
"""

from __future__ import annotations

POLICY_FILE = "policies.yaml"   # a workspace's rules, in its directory
