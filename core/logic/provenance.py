"""Proof trees: how a fact in the model came to hold, from its recorded first derivation.

Each derived fact's premises were derived at strictly earlier steps, so the tree is
finite; a depth limit keeps printing bounded. Rendering is left to front-ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from sym.core.logic.engine import Derivation
from sym.core.logic.plan import compare_op
from sym.core.logic.terms import Atom, Compare, Literal, Naf

ASSERTED, DERIVED, ABSENT, NEGATION, BUILTIN, ELIDED = "asserted", "derived", "absent", "naf", "builtin", "elided"


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


def proof_tree(engine: Model, literal: Literal, *, max_depth: int = 12) -> ProofNode:
    """The proof of `literal` in the engine's model (status ABSENT if it does not hold)."""
    if isinstance(literal, Naf):
        holds = not engine.holds(literal.atom)
        return ProofNode(literal, NEGATION if holds else ABSENT)
    if isinstance(literal, Compare):
        holds = compare_op(literal.op)(literal.left, literal.right)
        return ProofNode(literal, BUILTIN if holds else ABSENT)
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
