"""What the inference behind an /ask answer did, as trace nodes: the facts formal rules derived
that the answer rests on (its proofs, read goal-directed: a question never computes the whole
model), each under the rule that derived it, with its premises; and the clashes of an
inconsistent answer.

It only reads the engine's answers and provenance; it never changes memory, and past
LIST_AT_MOST derivations it says how many there were instead of listing them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sym.core.logic.parser import parse_query
from sym.core.logic.terms import Atom, Var

if TYPE_CHECKING:
    from sym.core.logic.engine import Derivation, Engine
    from sym.core.memory.working import WorkingMemory
    from sym.core.reason.swm.english import Goal

LIST_AT_MOST = 500     # derivations walked per round; past this a round is summarised, not listed
SHOWN_PER_RULE = 8     # applications of one rule shown as nodes; the rest are counted
ROWS = 3               # value answers whose proofs are shown

# SWM._node: (kind, label, parent, detail, status) -> the new node's id
Node = Callable[[str, str, str | None, str, str], str]


def answer_atoms(goal: Goal, engine: Engine, answer: str, values: list[dict[str, Any]]) -> list[Atom]:
    """The ground atoms an answer rests on: the goal's atoms (under the first few value answers)
    that hold, or whose strong negation holds; for a relation, the relation answered."""
    if goal.kind == "relation":
        keys = sorted(k for k in engine.relation_keys() if k.endswith("_of/2") and not k.startswith("~"))
        atoms = [Atom(k.rpartition("/")[0], tuple(goal.args)) for k in keys]
        return [a for a in atoms if answer and goal.render(a.pred) == answer and engine.holds(a)][:1]
    body = [lit for lit in parse_query(goal.query).body if isinstance(lit, Atom)]
    out: list[Atom] = []
    for row in (values or [{}])[:ROWS]:
        for lit in body:
            atom = Atom(lit.pred, tuple(row.get(a.name, a) if isinstance(a, Var) else a for a in lit.args), lit.neg)
            if any(isinstance(a, Var) for a in atom.args):
                continue
            out += [side for side in (atom, atom.negate()) if side not in out and engine.holds(side)]
    return out


def proof_applications(engine: Engine, targets: list[Atom], seen: set[Atom],
                       limit: int = LIST_AT_MOST) -> tuple[dict[str, list[Derivation]], int]:
    """The derivations in the proofs of `targets` of facts not in `seen` (added to it), by rule,
    rules in the order of their first step; and how many derivations there were when past
    `limit` (then none are listed), else 0."""
    found: list[Derivation] = []
    stack, walked = list(targets), set()
    while stack:
        fact = stack.pop()
        if fact in walked:
            continue
        walked.add(fact)
        derivation = engine.provenance(fact)
        if derivation is None:          # asserted (or absent)
            continue
        if fact not in seen:
            found.append(derivation)
        stack += [p for p in derivation.premises if isinstance(p, Atom)]
    if len(found) > limit:
        return {}, len(found)
    seen.update(d.fact for d in found)
    fired: dict[str, list[Derivation]] = {}
    for d in sorted(found, key=lambda d: d.step):
        fired.setdefault(d.rule_id, []).append(d)
    return fired, 0


def trace_proof(node: Node, memory: WorkingMemory, parent: str, targets: list[Atom], seen: set[Atom],
                after: int, clashes: Sequence[Atom] = ()) -> None:
    """Nodes under `parent` for the inference behind an answer: a summary, a node per rule that
    derived a fact the answer rests on (facts not shown before only), a few of its applications,
    and the clashes found. `after` is the soft-rule step it follows (0: the question's first)."""
    when = f" after step {after}" if after else ""
    fired, past = proof_applications(memory.engine, targets, seen)
    if past:
        node("ask.infer", f"inference{when}: the answer rests on {past} derived fact(s)", parent,
             "too many to list one by one", "ok")
        return
    new = sum(len(ds) for ds in fired.values())
    if not new and after and not clashes:
        return              # a step's facts fired no formal rule toward the answer: nothing to say
    label = (f"inference{when}: the answer rests on {new} derived fact(s) by {len(fired)} rule(s)" if new
             else f"inference{when}: no formal rule derives what was asked")
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
    for atom in clashes[:3]:
        node("ask.violation", f"{atom} and {atom.negate()}", top, "", "failed")
