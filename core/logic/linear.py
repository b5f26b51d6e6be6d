"""Linear strata fact by fact. Where every rule of a stratum reads at most one of the stratum's own
relations, what follows from a new fact follows from it alone, so new facts can be taken one at a
time from a queue instead of in rounds: a long chain of demand (one fact per round) then costs a
few dictionary lookups per fact rather than a round's bookkeeping. The queue is first in, first
out, so a fact's step is still the round that would have found it, and its first derivation is
kept as the rounds keep it. This room knows nothing of strata order or of answers.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sym.core.logic.fused import Tail, fused_tail
from sym.core.logic.plan import Join, JoinPlan, Relation, Row, Runner, delta_sizes, head_getter, make_plan
from sym.core.logic.terms import Atom, Literal, Rule, Var, map_terms

if TYPE_CHECKING:
    from sym.core.logic.rounds import Firing

CHECK_EVERY = 4096     # facts derived between two budget checks
PER_FACT = -1          # the step of a firing whose facts carry their own
Probe = Callable[[tuple[Any, ...], int], None]   # (a new fact's args, the step of what it derives)
Head = tuple[JoinPlan, Tail, str, Any, Relation, int]  # a fused rule's plan, tail, head relation, its facts, new facts, firing


def linear(rules: list[tuple[str, Rule, Atom]], heads: set[str]) -> bool:
    """Whether every rule reads at most one relation of the stratum, at most once."""
    return all(sum(1 for lit in rule.body if isinstance(lit, Atom) and lit.key in heads) <= 1 for _, rule, _ in rules)


def run_queue(runner: Runner, firings: list[Firing], rules: list[tuple[str, Rule, Atom]], heads: set[str],
              start: dict[str, Relation], step: int,
              make_firing: Callable[[str, int, JoinPlan], Firing]) -> tuple[int, dict[str, Relation]]:
    """Derive everything that follows from `start` (the facts of round `step`, in the runner already)
    by the stratum's linear rules; (last step, the new facts by relation), not yet inserted. A fact
    derived here carries its step in its provenance: (firing, row[, matched tuple], step), its
    firing's own step being PER_FACT."""
    found: dict[str, Relation] = {key: {} for key in heads}
    level: list[tuple[str, tuple[Any, ...]]] = [(k, args) for k, facts in start.items() for args in facts]
    out: list[tuple[str, tuple[Any, ...]]] = []
    probes: dict[str, list[Probe]] = {}
    relations = runner.relations
    # rules whose bodies are the same but for variable names match once for all their heads
    fused: dict[tuple[Any, ...], list[Head]] = {}
    for rid, rule, head in rules:
        for i, lit in enumerate(rule.body):
            if isinstance(lit, Atom) and lit.key in heads:
                plan = make_plan(rule.body, delta_sizes(relations), delta_at=i)
                if any(isinstance(st, Join) and not st.delta and not relations.get(st.key) for st in plan.steps):
                    continue            # it joins a relation with no facts: nothing follows (it cannot grow here)
                number = len(firings)
                firings.append(make_firing(rid, PER_FACT, plan))
                tail = fused_tail(plan, head.args)
                if tail is not None and tail.at == 1:
                    fused.setdefault((i, _renamed(rule.body)), []).append(
                        (plan, tail, head.key, _have(runner, head.key), found[head.key], number))
                else:
                    probes.setdefault(lit.key, []).append(_probe(runner, plan, head, found[head.key], out.append, number))
    for (i, body), outs in fused.items():
        probes.setdefault(body[i].key, []).append(_fused_probe(runner, outs, out.append))
    budget = runner.budget
    done, checked = 0, 0
    while level:
        step += 1
        for key, args in level:
            for probe in probes.get(key, ()):
                probe(args, step)
        done += len(out)
        if done - checked >= CHECK_EVERY:
            checked = done
            budget.relation = max(found, key=lambda k: len(found[k]))   # the one growing, if it stops here
            budget.check(budget.offset + done)
        level = out[:]
        out.clear()
    return step - 1, {k: v for k, v in found.items() if v}


def _have(runner: Runner, key: str) -> Any:
    have = runner.relations.get(key)
    if have is None:
        have = runner.relations[key] = {}
    return have


def _renamed(body: tuple[Literal, ...]) -> tuple[Literal, ...]:
    """The body with its variables named by first occurrence: equal for bodies equal but for names."""
    names: dict[Var, Var] = {}

    def term(t: Any) -> Any:
        return names.setdefault(t, Var(f"#{len(names)}")) if isinstance(t, Var) else t

    return tuple(map_terms(lit, term) for lit in body)


def _probe(runner: Runner, plan: JoinPlan, head: Atom, found: Relation, push: Callable[[Any], None],
           number: int) -> Probe:
    """What one new fact of the delta atom derives by this plan, into `found` and the queue."""
    first: Join = plan.steps[0]
    hk = head.key
    have = _have(runner, hk)
    head_of = head_getter(head, plan)
    rest = plan.steps[1:]

    def probe(args: tuple[Any, ...], step: int) -> None:
        rows: list[Row] = runner.join_rows([()], first, {first.key: {args: None}})
        for st in rest:
            if not rows:
                return
            rows = runner.through(rows, st, None, chunked=False)
        for row in rows:
            h = head_of(row)
            if h not in have and h not in found:
                found[h] = (number, row, step)
                push((hk, h))

    return probe


def _head_of(tail: Tail) -> Callable[[Row, tuple[Any, ...]], tuple[Any, ...]]:
    if tail.shape is None:
        return tail.head_of
    kind, i, j = tail.shape           # two-argument heads, inlined as the rounds inline them
    pairs: dict[str, Callable[[Row, tuple[Any, ...]], tuple[Any, ...]]] = {
        "rt": lambda r, t: (r[i], t[j]), "tr": lambda r, t: (t[i], r[j]),
        "rr": lambda r, t: (r[i], r[j]), "tt": lambda r, t: (t[i], t[j])}
    return pairs[kind]


def _fused_probe(runner: Runner, heads: list[Head], push: Callable[[Any], None]) -> Probe:
    """The common shape: the delta atom, then one indexed join whose matches build the heads
    (one rule's, or those of rules with the same body)."""
    plan = heads[0][0]
    first: Join = plan.steps[0]
    last: Join = plan.steps[1]
    consts, equal = first.consts, first.equal
    pick = _picker(first.new)
    index = runner.index(last.key, last.positions)   # a lower stratum's: it does not grow here
    key_of_row = last.key_of_row
    assert key_of_row is not None   # fused tails end in an indexed join
    outs = [(_head_of(tail), tail.tests, hk, have, found, number) for _plan, tail, hk, have, found, number in heads]

    def matches(args: tuple[Any, ...]) -> tuple[Row, Any]:
        if consts and not all(args[p] == v for p, v in consts):
            return (), None
        if equal and not all(args[a] == args[b] for a, b in equal):
            return (), None
        row = pick(args)
        return row, index.get(key_of_row(row))

    if len(outs) == 1:
        ((head_of, tests, hk, have, found, number),) = outs

        def probe(args: tuple[Any, ...], step: int) -> None:
            row, found_matches = matches(args)
            if not found_matches:
                return
            for t in found_matches:
                if tests and not all(test(row, t) for test in tests):
                    continue
                h = head_of(row, t)
                if h not in have and h not in found:
                    found[h] = (number, row, t, step)
                    push((hk, h))

        return probe

    def probe_all(args: tuple[Any, ...], step: int) -> None:
        row, found_matches = matches(args)
        if not found_matches:
            return
        for t in found_matches:
            for head_of, tests, hk, have, found, number in outs:
                if tests and not all(test(row, t) for test in tests):
                    continue
                h = head_of(row, t)
                if h not in have and h not in found:
                    found[h] = (number, row, t, step)
                    push((hk, h))

    return probe_all


def _picker(positions: tuple[int, ...]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    if not positions:
        return lambda args: ()
    if len(positions) == 1:
        p = positions[0]
        return lambda args: (args[p],)
    return itemgetter(*positions)
