"""Justification lines: a proof tree turned into the steps an answer shows, premises before
conclusions, each with what stated or derived it."""

from __future__ import annotations

from sym.core.logic.provenance import ProofNode
from sym.core.logic.terms import Atom, clause_text
from sym.core.memory.working import WorkingMemory, item_id


def add_steps(memory: WorkingMemory, node: ProofNode, steps: list[str]) -> None:
    """Proof tree → justification lines, premises before conclusions."""
    for child in node.children:
        add_steps(memory, child, steps)
    lit = clause_text(node.literal) if isinstance(node.literal, Atom) else str(node.literal)
    if node.status == "derived":
        rule = memory.items.get(node.rule_id or "")
        via = f"by {node.rule_id}" + (f" ({rule.nl})" if rule is not None and rule.nl else "")
        line = f"{lit}  {via}"
    elif node.status == "asserted":
        item = memory.items.get(item_id(node.literal)) if isinstance(node.literal, Atom) else None
        line = f"{lit}  given" + (f" ({item.nl})" if item is not None and item.nl else "") + \
               (f" [{item.source}]" if item is not None and item.source.startswith("llm:") else "")
    else:
        return
    if line not in steps:
        steps.append(line)
