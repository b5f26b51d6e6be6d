"""Semi-naive rounds on the tuple path. Strata run in order; in a stratum's first round every rule
runs on whole relations, later each rule once per body atom whose relation grew, matched against
the new facts only. Continuing a model, the first round of each stratum runs against what is new
since (asserted facts, then what lower strata derived from them). Every derived fact keeps its
first derivation as (firing number, binding row). This room knows nothing of dense tables or answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from sym.core.logic.fused import Tail, derive_fused, fused_tail
from sym.core.logic.pause import Budget
from sym.core.logic.plan import STRIDE, Plan, Relation, Row, Runner, make_plan
from sym.core.logic.terms import Atom, Rule, Var


@dataclass(slots=True)
class Firing:
    """Shared by every fact one rule derived in one round (keeps provenance cheap)."""

    rule_id: str
    step: int
    plan: Plan


def head_getter(head: Atom, plan: Plan) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    slots = {v: i for i, v in enumerate(plan.variables)}
    if not head.args:
        return lambda row: ()
    if all(isinstance(a, Var) for a in head.args):
        idx = [slots[a] for a in head.args]
        if len(idx) == 1:
            i = idx[0]
            return lambda row: (row[i],)
        return itemgetter(*idx)
    parts = [(True, slots[a]) if isinstance(a, Var) else (False, a) for a in head.args]
    return lambda row: tuple(row[v] if is_slot else v for is_slot, v in parts)


# a plan, with its fused tail or else the function from a row to the head's args
Compiled = tuple[Plan, Tail | None, Callable[[Row], Row] | None]
# called once the facts derived pass the switch point: True when the caller took over (set-at-a-time)
Switch = Callable[[int, int], bool]


def run_rounds(runner: Runner, firings: list[Firing], rules: dict[str, Rule], strata: dict[str, int],
               budget: Budget, *, step: int = 0, max_steps: int | None = None,
               changed: dict[str, Relation] | None = None, switch_after: float = float("inf"),
               switch: Switch | None = None) -> tuple[int, int, bool] | None:
    """Run every stratum to its fixpoint (or `max_steps` rounds); (steps, derived, complete), or
    None when `switch` took over. `changed`: the asserted facts new since the model in `runner`
    was computed (already in its relations): only what follows from them is derived."""
    relations = runner.relations
    by_stratum: dict[int, list[tuple[str, Rule, Atom]]] = {}
    for rid, rule in rules.items():
        if rule.head is not None:
            by_stratum.setdefault(strata.get(rule.head.key, 0), []).append((rid, rule, rule.head))
    grown = None if changed is None else {k: dict(v) for k, v in changed.items() if v}
    derived, complete = 0, True
    for level in sorted(by_stratum):
        rules_here = by_stratum[level]
        heads = {head.key for _, _, head in rules_here}
        plans: dict[tuple[str, int | None], Compiled] = {}
        delta: dict[str, Relation] | None = grown
        first = True
        while True:
            new: dict[str, Relation] = {}
            budget.offset = derived
            for rid, rule, head in rules_here:
                if delta is None:
                    positions: list[int | None] = [None]
                else:
                    positions = [i for i, lit in enumerate(rule.body)
                                 if isinstance(lit, Atom) and (first or lit.key in heads) and delta.get(lit.key)]
                for at in positions:
                    entry = plans.get((rid, at))
                    if entry is None:
                        plan = make_plan(rule.body, lambda k: len(relations.get(k, ())), delta_at=at)
                        tail = fused_tail(plan, head.args)
                        entry = plans[(rid, at)] = (plan, tail, head_getter(head, plan) if tail is None else None)
                    _fire(runner, entry, delta, head, new, firings, rid, step + 1)
            new = {k: v for k, v in new.items() if v}
            if not new:
                break
            if max_steps is not None and step >= max_steps:
                complete = False  # this round would add facts beyond the limit: drop them
                break
            step += 1
            for k, facts in new.items():
                runner.insert(k, facts)
                derived += len(facts)
                if grown is not None:
                    grown.setdefault(k, {}).update(facts)
            if derived > switch_after and switch is not None and switch(derived, step):
                return None
            delta, first = new, False
        if not complete:
            break
    return step, derived, complete


def _fire(runner: Runner, entry: Compiled, delta: dict[str, Relation] | None, head: Atom, new: dict[str, Relation],
          firings: list[Firing], rid: str, step: int) -> None:
    """One rule, one delta position, one round: its new facts into `new` with their provenance."""
    plan, tail, head_of = entry
    budget = runner.budget
    hk = head.key
    budget.relation = hk
    have = runner.relations.get(hk, {})
    fresh = new.setdefault(hk, {})
    # provenance refers to the firing by number: tuples of plain values stay
    # untracked by the garbage collector, which otherwise rescans millions
    firing = len(firings)
    firings.append(Firing(rid, step, plan))
    before = len(fresh)
    if tail is not None:
        derive_fused(runner, plan, delta, tail, have, fresh, firing)
    else:
        assert head_of is not None
        for n, row in enumerate(runner.run(plan, delta), 1):
            args = head_of(row)
            if args not in have and args not in fresh:
                fresh[args] = (firing, row)
            if not n % STRIDE:    # millions of rows take seconds: Esc stops them too
                budget.check(budget.offset + len(fresh) - before)
    budget.offset += len(fresh) - before
    budget.check(budget.offset)
