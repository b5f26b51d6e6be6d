"""What one round of inference in /ask did, as trace nodes: each formal rule that fired, with the
facts it derived (those new since the last round) and the premises each came from.

It only reads the engine's model and provenance; it never changes memory, and it lists nothing
when the model is too large to walk cheaply (a one-line summary instead).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sym.core.logic.engine import Derivation, Engine, Inference
    from sym.core.logic.terms import Atom
    from sym.core.memory.working import WorkingMemory

LIST_AT_MOST = 500     # derived facts walked per round; past this a round is summarised, not listed
SHOWN_PER_RULE = 8     # applications of one rule shown as nodes; the rest are counted

# SWM._node: (kind, label, parent, detail, status) -> the new node's id
Node = Callable[[str, str, str | None, str, str], str]


def rule_applications(engine: Engine, seen: set[Atom], derived: int,
                      limit: int = LIST_AT_MOST) -> dict[str, list[Derivation]] | None:
    """The first derivations of derived facts not in `seen` (added to it), by rule, rules in the
    order they first fired; None when the model holds more than `limit` derived facts."""
    if derived > limit:
        return None
    found: list[Derivation] = []
    for fact in engine.facts(derived=True):
        if fact in seen:
            continue
        seen.add(fact)
        derivation = engine.provenance(fact)
        if derivation is not None:
            found.append(derivation)
    fired: dict[str, list[Derivation]] = {}
    for d in sorted(found, key=lambda d: d.step):
        fired.setdefault(d.rule_id, []).append(d)
    return fired


def trace_inference(node: Node, memory: WorkingMemory, parent: str, result: Inference, seen: set[Atom],
                    after: int) -> None:
    """Nodes under `parent` for one inference: a summary, a node per rule that fired (new facts
    only), a few of its applications, and the constraints it found violated. `after` is the
    soft-rule step it follows (0: the first inference of the question)."""
    when = f" after step {after}" if after else ""
    fired = rule_applications(memory.engine, seen, result.derived)
    if fired is None:
        node("ask.infer", f"inference{when}: {result.derived} fact(s) derived in {result.steps} step(s)", parent,
             "too many to list one by one", "ok")
        return
    new = sum(len(ds) for ds in fired.values())
    if not new and after and not result.violations:
        return              # a step's facts fired no formal rule: nothing to say
    label = (f"inference{when}: {new} new fact(s) by {len(fired)} rule(s) in {result.steps} step(s)" if new
             else f"inference{when}: no formal rule applies")
    top = node("ask.infer", label, parent, "", "ok")
    for rule_id, derivations in fired.items():
        item = memory.items.get(rule_id)
        text = item.text if item is not None else rule_id
        nl = item.nl if item is not None else ""
        rule = node("ask.rule", f"{text}  ×{len(derivations)}  · {rule_id}", top, nl, "ok")
        for d in derivations[:SHOWN_PER_RULE]:
            node("ask.derived", f"{d.fact}  ⇐  {', '.join(map(str, d.premises))}", rule, "", "")
        if len(derivations) > SHOWN_PER_RULE:
            node("ask.derived", f"… and {len(derivations) - SHOWN_PER_RULE} more", rule, "", "")
    for violation in result.violations[:3]:
        node("ask.violation", str(violation), top, "", "failed")
