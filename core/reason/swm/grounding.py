"""Grounding (SWM): a rule's body solved over the current model gives its applicable instances,
each a binding of its variables and the ground premises it stands on; nothing here calls a model."""

from __future__ import annotations

from typing import Any

from sym.core.errors import UserError
from sym.core.logic.engine import Engine
from sym.core.logic.terms import Atom, Query, Rule, Var
from sym.core.memory.working import Item


def ground(atom: Atom, binding: dict[str, Any]) -> Atom:
    args = tuple(binding.get(a.name, a) if isinstance(a, Var) else a for a in atom.args)
    return Atom(atom.pred, args, atom.neg)


def applicable(rules: list[Item], engine: Engine, done: set[Any]) -> list[tuple[Item, dict[str, Any], list[Atom]]]:
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
            head = ground(rule.head, binding)
            if engine.holds(head):
                continue
            premises = [ground(b, binding) for b in rule.body if isinstance(b, Atom)]
            out.append((it, binding, premises))
    return out


