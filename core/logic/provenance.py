"""Proof trees: how a fact in the model came to hold, from its recorded first derivation.

Each derived fact's premises were derived at strictly earlier steps, so the tree is
finite; a depth limit keeps printing bounded. Rendering is left to front-ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sym.core.logic.derivation import ground_holds, instantiate_atom
from sym.core.logic.engine import Derivation
from sym.core.logic.terms import Aggregate, Atom, Compare, Eval, Is, Literal, Naf, Var

ASSERTED, DERIVED, ABSENT, NEGATION, BUILTIN, ELIDED = "asserted", "derived", "absent", "naf", "builtin", "elided"
AGGREGATED, MORE = "aggregated", "more"     # an aggregate's value and its solutions; how many were left out
SHOWN = 10                                   # solutions of an aggregate a proof shows


@dataclass
class ProofNode:
    literal: Literal
    status: str                      # one of the constants above
    rule_id: str | None = None       # for derived facts
    step: int | None = None
    children: list[ProofNode] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"literal": str(self.literal), "status": self.status}
        if self.rule_id is not None:
            out["rule"] = self.rule_id
            out["step"] = self.step
        if self.children:
            out["premises"] = [c.to_dict() for c in self.children]
        return out


class Model(Protocol):
    """What a proof is read from: an engine's whole model, or its goal models (`Engine.goals`)."""

    def holds(self, atom: Atom) -> bool: ...

    def provenance(self, atom: Atom) -> Derivation | None: ...

    def rows(self, body: tuple[Literal, ...], named: list[Var]) -> Sequence[tuple[Any, ...]]: ...


def proof_tree(engine: Model, literal: Literal, *, max_depth: int = 12) -> ProofNode:
    """The proof of `literal` in the engine's model (status ABSENT if it does not hold)."""
    if isinstance(literal, Naf):
        holds = not engine.holds(literal.atom)
        return ProofNode(literal, NEGATION if holds else ABSENT)
    if isinstance(literal, (Compare, Is, Eval)):
        holds = ground_holds(literal)
        return ProofNode(literal, BUILTIN if holds else ABSENT)
    if isinstance(literal, Aggregate):
        return _aggregated(engine, literal, max_depth)
    assert isinstance(literal, Atom)
    if not engine.holds(literal):
        return ProofNode(literal, ABSENT)
    derivation = engine.provenance(literal)
    if derivation is None:
        return ProofNode(literal, ASSERTED)
    node = ProofNode(literal, DERIVED, derivation.rule_id, derivation.step)
    if max_depth <= 0:
        node.children.append(ProofNode(literal, ELIDED))
        return node
    node.children = [proof_tree(engine, p, max_depth=max_depth - 1) for p in derivation.premises]
    return node


def _aggregated(engine: Model, agg: Aggregate, max_depth: int) -> ProofNode:
    """An aggregate in a proof: its value, and the solutions it counted (the first SHOWN, each
    with its own proof; how many more there were)."""
    named = list(dict.fromkeys(v for lit in agg.goal for v in lit.variables()))
    rows = engine.rows(agg.goal, named)
    node = ProofNode(agg, AGGREGATED, step=len(rows))
    if max_depth <= 0:
        node.children.append(ProofNode(agg, ELIDED))
        return node
    for row in rows[:SHOWN]:
        binding = dict(zip(named, row))
        for lit in agg.goal:
            if isinstance(lit, Atom):
                node.children.append(proof_tree(engine, instantiate_atom(lit, binding), max_depth=max_depth - 1))
    if len(rows) > SHOWN:
        node.children.append(ProofNode(agg, MORE, step=len(rows) - SHOWN))
    return node
