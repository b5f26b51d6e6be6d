"""Semi-naive rounds on the tuple path. Strata run in order; in a stratum's first round every rule
runs on whole relations, later each rule once per body atom whose relation grew, matched against
the new facts only. Continuing a model, the first round of each stratum runs against what is new
since (asserted facts, then what lower strata derived from them). Every derived fact keeps its
first derivation as (firing number, binding row). This room knows nothing of dense tables or answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sym.core.logic.fused import Tail, derive_fused, derive_rows, fused_tail
from sym.core.logic.linear import linear, run_queue
from sym.core.logic.pause import Budget
from sym.core.logic.plan import STRIDE, JoinPlan, Relation, Row, Runner, delta_sizes, head_getter, make_plan
from sym.core.logic.terms import Atom, Rule


@dataclass(slots=True)
class Firing:
    """Shared by every fact one rule derived in one round (keeps provenance cheap)."""

    rule_id: str
    step: int
    plan: JoinPlan


SMALL = 64     # a round of at most this many new facts skips the chunking a large join needs

# a plan, with its fused tail or else the function from a row to the head's args
Compiled = tuple[JoinPlan, Tail | None, Callable[[Row], Row] | None]
# called once the facts derived pass the switch point: True when the caller took over (set-at-a-time)
Switch = Callable[[int, int], bool]


def run_rounds(runner: Runner, firings: list[Firing], rules: dict[str, Rule], strata: dict[str, int],
               budget: Budget, *, step: int = 0, max_steps: int | None = None,
               changed: dict[str, Relation] | None = None, switch_after: float = float("inf"),
               switch: Switch | None = None, queue: bool = False) -> tuple[int, int, bool] | None:
    """Run every stratum to its fixpoint (or `max_steps` rounds); (steps, derived, complete), or
    None when `switch` took over. `changed`: the asserted facts new since the model in `runner`
    was computed (already in its relations): only what follows from them is derived. `queue`:
    after its first round, a linear stratum goes on fact by fact (`linear`), which suits narrow
    programs such as a question's demand."""
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
        atoms = [[(i, lit.key) for i, lit in enumerate(rule.body) if isinstance(lit, Atom)] for _, rule, _ in rules_here]
        plans: dict[tuple[str, int | None], Compiled] = {}
        delta: dict[str, Relation] | None = grown
        first = True
        while True:
            new: dict[str, Relation] = {}
            budget.offset = derived
            small = delta is not None and sum(map(len, delta.values())) <= SMALL
            for (rid, rule, head), keyed in zip(rules_here, atoms):
                if delta is None:
                    positions: list[int | None] = [None]
                else:
                    positions = [i for i, key in keyed if (first or key in heads) and delta.get(key)]
                for at in positions:
                    entry = plans.get((rid, at))
                    if entry is None:
                        sizes = delta_sizes(relations) if at is not None else lambda k: len(relations.get(k, ()))
                        plan = make_plan(rule.body, sizes, delta_at=at)
                        tail = fused_tail(plan, head.args)
                        entry = plans[(rid, at)] = (plan, tail, head_getter(head, plan) if tail is None else None)
                    if small:
                        _fire_small(runner, entry, delta, head, new, firings, rid, step + 1)
                    else:
                        _fire(runner, entry, delta, head, new, firings, rid, step + 1)
            if small:
                budget.check(derived + sum(map(len, new.values())))
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
            if queue and max_steps is None and linear(rules_here, heads):
                step, found = run_queue(runner, firings, rules_here, heads, new, step, Firing)
                for k, facts in found.items():
                    runner.insert(k, facts)
                    derived += len(facts)
                    if grown is not None:
                        grown.setdefault(k, {}).update(facts)
                break
            delta, first = new, False
        if not complete:
            break
    return step, derived, complete


def fire_once(runner: Runner, firings: list[Firing], rules: dict[str, Rule], step: int) -> dict[str, Relation]:
    """Rules just added to a current model, each run once on whole relations: the facts they
    derive from it (not yet inserted), with their provenance; rounds go on from these."""
    new: dict[str, Relation] = {}
    relations = runner.relations
    for rid, rule in rules.items():
        head = rule.head
        if head is None:
            continue
        plan = make_plan(rule.body, lambda k: len(relations.get(k, ())))
        tail = fused_tail(plan, head.args)
        entry = (plan, tail, head_getter(head, plan) if tail is None else None)
        _fire(runner, entry, None, head, new, firings, rid, step)
    return {k: v for k, v in new.items() if v}


def _fire_small(runner: Runner, entry: Compiled, delta: dict[str, Relation] | None, head: Atom,
                new: dict[str, Relation], firings: list[Firing], rid: str, step: int) -> None:
    """`_fire` for a round of a few new facts: the same rows and provenance, without the chunking
    and budget checks a large join needs (a long chain is a long run of such rounds)."""
    plan, tail, head_of = entry
    rows: list[Row] = [()]
    for st in plan.steps if tail is None else plan.steps[:tail.at]:
        rows = runner.through(rows, st, delta, chunked=False)
        if not rows:
            return
    hk = head.key
    have = runner.relations.get(hk, {})
    fresh = new.setdefault(hk, {})
    firing = len(firings)
    firings.append(Firing(rid, step, plan))
    if tail is not None:
        derive_rows(runner, rows, plan.steps[tail.at], tail, have, fresh, firing)
        return
    assert head_of is not None
    for row in rows:
        args = head_of(row)
        if args not in have and args not in fresh:
            fresh[args] = (firing, row)


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
