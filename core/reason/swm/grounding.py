"""Helpers of the SWM reasoner: grounding rule instances over a model, memory retrieval for
prompts, and proof trees turned into justification lines."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.logic.engine import Engine
from sym.core.logic.terms import Atom, Query, Rule, Var, clause_text
from sym.core.memory.working import Item, WorkingMemory, item_id

if TYPE_CHECKING:
    from sym.core.logic.provenance import ProofNode


def relevant_items(memory: WorkingMemory, text: str, k: int = 8) -> list[Item]:
    """Memory items most related to a text: Chroma search when stored, word overlap otherwise."""
    if memory.store is not None:
        try:
            from sym.core.memory.library import settled_search

            hits = settled_search(memory.store, text, ("facts", "rules"), k)
            found = [memory.items[h.id] for h in hits if h.id in memory.items]
            if found:
                return found
        except UserError:
            pass
    words = set(re.findall(r"[a-z0-9]+", text.lower()))
    scored = []
    for it in memory.items.values():
        mine = set(re.findall(r"[a-z0-9]+", (it.text + " " + it.nl).lower().replace("_", " ")))
        overlap = len(words & mine)
        if overlap:
            scored.append((-overlap, it.created_at, it))
    return [it for *_, it in sorted(scored, key=lambda t: (t[0], t[1]))[:k]]


_CASED_PRED = re.compile(r"(?<![\w'])([A-Z]\w*)\s*\(")


def lower_predicates(text: str) -> str:
    """`Likes(bob, X)` → `likes(bob, X)`: models capitalise predicate names, which the grammar
    would read as variables; a name directly before `(` is never a variable."""
    return _CASED_PRED.sub(lambda m: m.group(1).lower() + "(", text)


def _ground(atom: Atom, binding: dict[str, Any]) -> Atom:
    args = tuple(binding.get(a.name, a) if isinstance(a, Var) else a for a in atom.args)
    return Atom(atom.pred, args, atom.neg)


def _instances(rules: list[Item], engine: Engine, done: set[Any]) -> list[tuple[Item, dict[str, Any], list[Atom]]]:
    """New applicable instances of rules: their bodies solved over the current model
    (grounding), minus instances already implemented and those whose conclusion holds."""
    out = []
    for it in rules:
        rule = it.clause
        if not isinstance(rule, Rule) or rule.head is None:
            continue
        try:
            rows = engine.solve(Query(rule.body))
        except UserError:
            continue
        for row in rows:
            binding = {v.name: val for v, val in row.items()}
            key = (it.id, tuple(sorted(binding.items(), key=lambda kv: kv[0])))
            if key in done:
                continue
            done.add(key)
            head = _ground(rule.head, binding)
            if engine.holds(head):
                continue
            premises = [_ground(b, binding) for b in rule.body if isinstance(b, Atom)]
            out.append((it, binding, premises))
    return out


def _premise_text(memory: WorkingMemory, atom: Atom) -> str:
    item = memory.items.get(item_id(atom))
    return f"{atom}  ({item.nl})" if item is not None and item.nl else str(atom)


def _walk(memory: WorkingMemory, node: ProofNode, steps: list[str]) -> None:
    """Proof tree → justification lines, premises before conclusions."""
    for child in node.children:
        _walk(memory, child, steps)
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
