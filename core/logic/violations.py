"""Reading a tuple model: the derivation a firing recorded, and the constraint violations and
p / ~p contradictions a model holds (the engine's `provenance` and `violations`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sym.core.logic.derivation import Derivation, Violation, instantiate, instantiate_atom
from sym.core.logic.fused import full_row
from sym.core.logic.linear import PER_FACT
from sym.core.logic.plan import JoinPlan, Stored, make_plan
from sym.core.logic.terms import Atom, Literal, Rule, Var, literal_atoms

if TYPE_CHECKING:
    from sym.core.logic.dense import DenseModel
    from sym.core.logic.rounds import Firing


def firing_derivation(firings: list[Firing], rules: Mapping[str, Rule], atom: Atom, prov: tuple[Any, ...]) -> Derivation:
    """The derivation of a tuple-model fact from its provenance marker (firing number, then the
    plan's row, then — for rules derived fact by fact — the fact's own step)."""
    number, *payload = prov
    firing = firings[number]
    step = firing.step
    if step == PER_FACT:       # derived fact by fact: the step is the fact's own
        step = payload.pop()
    binding = dict(zip(firing.plan.variables, full_row(firing.plan, tuple(payload))))
    rule = rules[firing.rule_id]
    premises = tuple(instantiate(lit, binding) for lit in rule.body)
    return Derivation(atom, firing.rule_id, rule, step, premises)


def model_violations(relations: Mapping[str, Stored], rules: Mapping[str, Rule], dense: DenseModel | None,
                     run: Callable[[JoinPlan], Any],
                     dense_rows: Callable[[tuple[Literal, ...], list[Var]], Sequence[tuple[Any, ...]] | None],
                     ) -> list[Violation]:
    """Integrity-constraint violations and p / ~p contradictions in a model."""
    out: list[Violation] = []
    for key, rel in relations.items():
        if key.startswith("~") and key[1:] in relations:
            positive = relations[key[1:]]
            pred = key[1:key.rindex("/")]
            if dense is not None:
                from sym.core.logic.dense_query import contradictions

                both = contradictions(dense, key)
            else:
                both = [args for args in rel if args in positive]
            out += [Violation((Atom(pred, args), Atom(pred, args, True))) for args in both]
    for rid, rule in rules.items():
        if rule.head is not None:
            continue
        plan = make_plan(rule.body, lambda k: len(relations.get(k, ())))
        found = dense_rows(rule.body, plan.variables)
        for row in run(plan) if found is None else found:
            binding = dict(zip(plan.variables, row))
            facts = tuple(instantiate_atom(a, binding) for a in literal_atoms(rule.body))
            out.append(Violation(facts, rid, rule))
    return out
