"""What inference gives back: a derived fact's first derivation, a violation, the report of one
`infer`; and rule bodies instantiated under a binding. Plain values: this room computes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sym.core.errors import UserError
from sym.core.logic import arith
from sym.core.logic.plan import JoinPlan, compare_op, make_plan
from sym.core.logic.terms import Atom, Compare, Eval, Is, Literal, Rule, Var, map_terms

TRUE, FALSE, UNKNOWN = "true", "false", "unknown"   # a literal's truth in a model


@dataclass(frozen=True)
class Derivation:
    """How a derived fact was first obtained."""

    fact: Atom
    rule_id: str
    rule: Rule
    step: int
    premises: tuple[Literal, ...]  # the rule body, instantiated, in body order


@dataclass(frozen=True)
class Violation:
    """An integrity constraint whose body holds, or a fact held together with its strong negation."""

    facts: tuple[Atom, ...]
    constraint_id: str | None = None
    constraint: Rule | None = None

    def __str__(self) -> str:
        facts = ", ".join(str(f) for f in self.facts)
        if self.constraint is None:
            return f"contradiction: {facts}"
        return f"constraint {self.constraint_id} violated by {facts}"


@dataclass
class Inference:
    """What one `infer` call did."""

    steps: int
    derived: int
    complete: bool
    violations: list[Violation] = field(default_factory=list)


def unbound_names(body: tuple[Literal, ...], named: list[Var], sizes: Callable[[str], int] = lambda k: 0) -> JoinPlan:
    """A plan for a query body; raises where a named variable would never be bound."""
    plan = make_plan(body, sizes)
    unbound = [v for v in named if v not in plan.variables]
    if unbound:  # e.g. ?- s(X), not q(Y).  Y is never bound, so it has no answers to print
        name = unbound[0].name
        raise UserError(f"variable {name} occurs only under `not`, so it is never bound",
                        hint=f"bind {name} with a positive atom first, or write _ in its place to mean 'none at all'")
    return plan


def ground_holds(lit: Compare | Is | Eval) -> bool:
    """Whether a ground comparison or arithmetic literal holds (UserError for a bad value)."""
    if isinstance(lit, Compare):
        return compare_op(lit.op)(lit.left, lit.right)
    if isinstance(lit, Is):
        if isinstance(lit.target, Var):     # `X is E` with X unbound is not ground
            return False
        return arith.is_test(lit, {})(())
    return arith.eval_test(lit, {})(())


def instantiate(lit: Literal, binding: dict[Var, object]) -> Literal:
    if isinstance(lit, Atom):
        return instantiate_atom(lit, binding)
    return map_terms(lit, lambda t: _sub(t, binding))


def instantiate_atom(atom: Atom, binding: dict[Var, object]) -> Atom:
    return Atom(atom.pred, tuple(_sub(a, binding) for a in atom.args), atom.neg)


def _sub(t: Any, binding: dict[Var, object]) -> Any:
    return binding.get(t, t) if isinstance(t, Var) else t
