"""A current tuple model going on from what was added since it was computed: asserted facts enter
its relations, each added rule runs once on the whole model, and semi-naive rounds go on from
what is new. The engine decides when this is sound (no `not` or aggregate reads what can grow);
this room only does it, and knows nothing of goal models or answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sym.core.logic.plan import Relation, Row, Runner
from sym.core.logic.rounds import Firing, fire_once, run_rounds
from sym.core.logic.slice import body_keys
from sym.core.logic.terms import Rule

Facts = Mapping[str, dict[tuple[Any, ...], None]]
Share = Callable[[Runner, set[str]], None]     # the engine's: read shared indexes of asserted relations


def go_on(runner: Runner, firings: list[Firing], rules: dict[str, Rule], strata: dict[str, int],
          added: dict[str, Rule], pending: dict[str, list[Row]], facts: Facts, share: Share, *,
          step: int, queue: bool) -> int:
    """Bring the model in `runner` up to date with the facts `pending` (in the fact base already)
    and the rules `added` (in `rules` already); the last step."""
    heads = {rule.head.key for rule in rules.values() if rule.head is not None}
    enter(runner, added, heads, facts, share)
    changed: dict[str, Relation] = {}
    for key, rows in pending.items():
        rel = runner.relations.get(key)
        if rel is None and key not in heads:
            rel = runner.relations[key] = facts[key]      # a new relation: the fact base's own set
            share(runner, heads)
        shared = rel is facts.get(key)
        fresh = dict.fromkeys(rows) if shared else {r: None for r in rows if rel is None or r not in rel}
        runner.insert(key, dict.fromkeys(rows))     # a fact derived before is asserted now
        changed[key] = fresh
    if added:
        step += 1
        for key, found in fire_once(runner, firings, added, step).items():
            runner.insert(key, found)
            changed.setdefault(key, {}).update(found)
    done = run_rounds(runner, firings, rules, strata, runner.budget, step=step, changed=changed, queue=queue)
    assert done is not None   # no switch was offered
    return done[0]


def enter(runner: Runner, rules: dict[str, Rule], heads: set[str], facts: Facts, share: Share) -> None:
    """The relations rules just added read or derive, into a model computed without them: an
    asserted relation is read from the fact base, one that a rule now derives is copied (its
    derived facts must not reach the fact base, nor an index its owner keeps)."""
    keys = {k for rule in rules.values() for k, _ in body_keys(rule.body)}
    keys |= {rule.head.key for rule in rules.values() if rule.head is not None}
    for key in keys:
        rel = runner.relations.get(key)
        base = facts.get(key)
        if key not in heads:
            if rel is None and base:
                runner.relations[key] = base
                share(runner, heads)
        elif rel is None or rel is base:
            runner.relations[key] = dict.fromkeys(base or ())
            runner.kept.discard(key)
            runner.indexes.pop(key, None)
