"""Contradictions a change to memory brought: after /tell, /fact, /rule or /consult stored
something, the clashes (p with ~p, a violated constraint) that were not there before, each
named in one line with the stored items it was derived from.

It stays cheap: a memory with no strong negation and no constraint cannot clash and is not
looked at, nor is a change whose relations reach no relation that can clash; otherwise the
model is computed after the change (the next question would compute it anyway), and before
it only when the current one is out of date. It never changes memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.logic.terms import Atom, Naf, Rule, relation_key
from sym.core.memory.working import item_id
from sym.core.reason.pot.check_horn import support

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sym.core.logic.engine import Engine, Violation
    from sym.core.memory.working import Item, WorkingMemory

TRACED = 200          # clashes traced to their items when the earlier ones are not known
NAMED_ITEMS = 8       # items a warning names; the rest are counted


def _body_keys(rule: Rule) -> set[str]:
    return {(lit.atom if isinstance(lit, Naf) else lit).key for lit in rule.body if isinstance(lit, (Atom, Naf))}


def _clause_keys(clause: Atom | Rule) -> set[str]:
    if isinstance(clause, Atom):
        return {clause.key}
    return _body_keys(clause) | ({clause.head.key} if clause.head is not None else set())


def _fact_keys(clauses: list[Atom | Rule]) -> set[str]:
    """The relations of the facts among `clauses` (a /consult's 100k facts: a few relations)."""
    return {relation_key(p, n, neg) for p, n, neg in {(c.pred, len(c.args), c.neg) for c in clauses if isinstance(c, Atom)}}


def _clashing_keys(keys: set[str], constraints: Iterable[Rule]) -> set[str]:
    """Relations a clash can be in: those whose strong negation is a relation too, and those a
    constraint reads (empty: nothing can clash)."""
    out = {k for k in keys if (k[1:] if k.startswith("~") else "~" + k) in keys}
    for rule in constraints:
        out |= _body_keys(rule)
    return out


def could_clash(engine: Engine, clauses: list[Atom | Rule]) -> bool:
    """Whether adding these clauses (facts, formal rules, constraints) to the engine's program can
    bring a clash: a new constraint, or a relation they reach (through rules, `not` included)
    that can clash. The same answer before they are added as after."""
    new = [c for c in clauses if isinstance(c, Rule)]
    constraints = [*engine.constraints().values(), *(r for r in new if r.head is None)]
    facts = _fact_keys(clauses)
    keys = engine.relation_keys().union(facts, *(_clause_keys(c) for c in new))
    clashing = _clashing_keys(keys, constraints)
    if not clashing:
        return False
    if any(isinstance(c, Rule) and c.head is None for c in clauses):
        return True                                  # a new constraint may be violated already
    reached = facts | {c.head.key for c in new if c.head is not None}
    # what reads what is reached, to the fixpoint: through the engine's rules (who reads whom,
    # kept as rules are added) and the new ones, which it may not hold yet
    heads = [(r.head.key, _body_keys(r)) for r in new if r.head is not None]
    deps = engine.dependencies()
    grew = True
    while grew:
        reached = deps.upward(reached)
        grew = False
        for head, body in heads:
            if head not in reached and body & reached:
                reached.add(head)
                grew = True
    return bool(reached & clashing)


def before(memory: WorkingMemory, max_steps: int | None = None,
           clauses: list[Atom | Rule] | None = None) -> frozenset[Violation] | None:
    """The clashes memory has before `clauses` (when known: None means any) are added: none when
    nothing can clash, those of the current model, else those of a model computed now. None when
    that is not worth it (the clauses cannot bring a clash, so nothing is checked after either,
    unless a schema merge renamed them) or fails (max_facts): then a clash derived from an added
    item counts as new."""
    engine = memory.engine
    if not _clashing_keys(engine.relation_keys(), engine.constraints().values()):
        return frozenset()
    if clauses is not None and not could_clash(engine, clauses):
        return None
    if engine.fresh_for(max_steps):
        return frozenset(engine.violations())
    try:
        return frozenset(memory.violations(max_steps))
    except UserError:
        return None


def new_clashes(memory: WorkingMemory, earlier: frozenset[Violation] | None, added: list[Item],
                max_steps: int | None = None) -> list[Violation]:
    """The clashes memory has now that it did not have before `added` was stored (`earlier`: what
    `before` said then; None: a clash counts as new when it is derived from an added item)."""
    clauses = [it.clause for it in added if not it.soft]
    if not clauses or not could_clash(memory.engine, clauses):
        return []
    found = memory.violations(max_steps)
    if earlier is not None:
        return [v for v in found if v not in earlier]
    ids = {it.id for it in added}
    return [v for v in found[:TRACED] if _support(memory, v) & ids]


def _support(memory: WorkingMemory, violation: Violation) -> set[str]:
    def fact_id(atom: Atom) -> str | None:
        iid = item_id(atom)
        return iid if iid in memory.items else None

    ids, _naf = support(memory.engine, violation, fact_id)
    return ids


def items_of(memory: WorkingMemory, violation: Violation) -> list[Item]:
    """The stored items a clash was derived from, in the order they were stored."""
    ids = _support(memory, violation)
    return [it for it in memory.items.values() if it.id in ids]


def warning(memory: WorkingMemory, clashes: list[Violation]) -> str:
    """One line: the first new clash, the items it comes from, how many more there are."""
    if not clashes:
        return ""
    first = clashes[0]
    if first.constraint is None:
        what = " and ".join(str(f) for f in first.facts)
    else:
        what = f"constraint {first.constraint_id} '{first.constraint}' violated by {', '.join(map(str, first.facts))}"
    items = items_of(memory, first)
    named = ", ".join(f"{it.id} '{it.nl or it.text}'" for it in items[:NAMED_ITEMS])
    if len(items) > NAMED_ITEMS:
        named += f" and {len(items) - NAMED_ITEMS} more"
    more = f" (and {len(clashes) - 1} more: /show violations)" if len(clashes) > 1 else ""
    return f"memory is now inconsistent: {what}" + (f" — from {named}" if named else "") + more
