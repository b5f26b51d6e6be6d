"""/check's Horn part: the engine's model of the memory decides consistency (the part of it that
constraints and p / ~p clashes read), and a clash is traced back through provenance to the
stored items it came from (a core), shrunk to a minimal one when that is cheap. Reads the
engine through its public API; changes nothing.

Semantics are the program's own, the ones /ask, /why and /infer use: `~p` is a relation of
its own that must not meet `p`, `not p` is negation as failure under stratification (the
model is unique, so a clash in it is an inconsistency of the memory, even though adding
an item may remove it: consistency is not monotone under `not`), `:- body` must not hold.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.logic.engine import Engine, Violation
from sym.core.logic.terms import Atom, Naf, Query, Rule, clause_atoms, is_anonymous
from sym.core.memory.working import item_id
from sym.core.stop import UNBOUNDED, Stop

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from sym.core.memory.working import Item, WorkingMemory

MINIMISE_ITEMS = 120        # a longer support is reported as found, not shrunk
MINIMISE_SECONDS = 0.5      # deletion-based shrinking is anytime: stop here with a valid core
CANDIDATES = 16             # violations whose support is traced; the smallest is reported


@dataclass
class HornVerdict:
    """What the engine found: no clash, or one clash with the items it was derived from."""

    violations: int = 0                          # how many clashes the model has
    clash: str = ""                              # the reported one, in words
    core: list[str] = field(default_factory=list)
    minimal: bool = False                        # no proper subset of the core clashes
    uses_naf: bool = False                       # the clash depends on something not being derivable


def beyond_horn(clause: Atom | Rule) -> bool:
    """Whether a clause's classical reading (`~p` as not-p) says more than the engine derives:
    a strongly negated atom in a body is a positive literal of the clause, so it licenses
    reasoning by cases and by contraposition, which forward chaining does not do. A body
    holding both p(…) and ~p(…) is classically true of nothing: the engine's own clash check."""
    if not isinstance(clause, Rule):
        return False
    body = {lit for lit in clause.body if isinstance(lit, Atom)}
    return any(lit.neg and lit.negate() not in body for lit in body)


def holds_in_model(engine: Engine, clause: Rule) -> bool:
    """Whether the engine's model, read classically (p true iff derived), satisfies a clause
    with a ~ premise: no binding makes its body true and its head false. False also where
    that cannot be asked (a variable bound only by a ~ premise ranges over every constant).
    When the model satisfies every such clause it is a classical model of the whole memory."""
    goal: list[Any] = []
    needed: set[Any] = set()          # variables that must be bound: all but `_` inside the clause's own `not`
    for lit in clause.body:
        if isinstance(lit, Atom) and lit.neg:
            lit = Naf(lit.negate())
            needed.update(lit.variables())
        else:
            needed.update(v for v in lit.variables() if not (isinstance(lit, Naf) and is_anonymous(v)))
        goal.append(lit)
    if clause.head is not None:
        goal.append(clause.head.negate() if clause.head.neg else Naf(clause.head))
        needed.update(clause.head.variables())
    if not needed <= {v for lit in goal if isinstance(lit, Atom) for v in lit.variables()}:
        return False
    return not engine.solve(Query(tuple(goal)))


def uses_naf(clause: Atom | Rule) -> bool:
    return isinstance(clause, Rule) and any(isinstance(lit, Naf) for lit in clause.body)


def check_horn(memory: WorkingMemory, items: list[Item], *, stop: Stop = UNBOUNDED, minimise: bool = True) -> HornVerdict:
    """Report the memory's first, smallest clash (no step limit). Goal-directed: only the relations
    constraints and p / ~p clashes read are evaluated (the whole model where it is current), and
    a clash is traced through the derivations that model keeps."""
    engine = memory.engine
    engine.unlimited()          # a model an /infer N left does not decide consistency
    found = memory.violations()
    if not found:
        return HornVerdict()
    ids = _FactIds(memory)
    best: tuple[Any, ...] | None = None
    for v in found[:CANDIDATES]:
        core, naf = support(engine, v, ids)
        if best is None or len(core) < len(best[1]):
            best = (v, core, naf)
    assert best is not None   # `found` is not empty
    violation, core, naf = best
    order = {i: n for n, i in enumerate(memory.items)}
    by_id = {it.id: it for it in items}
    chosen = [by_id[i] for i in sorted(core, key=lambda i: order.get(i, len(order))) if i in by_id]
    minimal = False
    if minimise and len(chosen) <= MINIMISE_ITEMS:
        chosen, minimal = shrink(chosen, stop=stop)
    naf = naf or any(uses_naf(it.clause) for it in chosen)
    return HornVerdict(len(found), _describe(violation), [it.id for it in chosen], minimal and not naf, naf)


def _describe(v: Violation) -> str:
    facts = ", ".join(str(f) for f in v.facts)
    if v.constraint_id is None:
        return f"contradiction: {facts}"
    return f"constraint {v.constraint} violated by {facts}"


class _FactIds:
    """The item id of an asserted fact: its canonical id, else looked up by clause."""

    def __init__(self, memory: WorkingMemory) -> None:
        self.memory = memory
        self.by_clause: dict[Atom | Rule, str] | None = None

    def __call__(self, atom: Atom) -> str | None:
        iid = item_id(atom)
        it = self.memory.items.get(iid)
        if it is not None and it.clause == atom:
            return iid
        if self.by_clause is None:
            self.by_clause = {it.clause: it.id for it in self.memory.items.values() if it.kind == "fact"}
        return self.by_clause.get(atom)


def support(engine: Engine, violation: Violation, fact_id: Callable[[Atom], str | None]) -> tuple[set[str], bool]:
    """The stored items a violation was derived from, following each fact's first derivation;
    and whether a derivation used `not`."""
    ids: set[str] = {violation.constraint_id} if violation.constraint_id else set()
    naf = violation.constraint is not None and uses_naf(violation.constraint)
    seen: set[Atom] = set()
    stack = list(violation.facts)
    while stack:
        atom = stack.pop()
        if atom in seen:
            continue
        seen.add(atom)
        derivation = engine.provenance(atom)
        if derivation is None:
            iid = fact_id(atom)
            if iid is not None:
                ids.add(iid)
            continue
        ids.add(derivation.rule_id)
        for premise in derivation.premises:
            if isinstance(premise, Atom):
                stack.append(premise)
            elif isinstance(premise, Naf):
                naf = True
    return ids, naf


def clashes(items: list[Item], *, stop: Stop = UNBOUNDED) -> bool:
    """Whether these items alone have a clash (a fresh engine: the memory's stays as it is)."""
    engine = Engine()
    engine.stop = stop
    engine.add_facts(it.clause for it in items if isinstance(it.clause, Atom))
    engine.add_rules({it.id: it.clause for it in items if isinstance(it.clause, Rule)})
    return bool(engine.infer().violations)


def shrink(items: list[Any], *, stop: Stop = UNBOUNDED, seconds: float = MINIMISE_SECONDS) -> tuple[list[Any], bool]:
    """Deletion-based minimisation: drop each item whose absence keeps a clash. Returns the
    core and whether the pass completed (then no single item can go; without `not` in the
    core that makes it minimal, as consistency is then monotone). A support that does not
    clash on its own (it leaned on something being absent) is returned unchanged."""
    if not clashes(items, stop=stop):
        return items, False
    deadline = time.perf_counter() + seconds
    core, i = list(items), 0
    while i < len(core):
        if time.perf_counter() > deadline:
            return core, False
        trial = core[:i] + core[i + 1:]
        if clashes(trial, stop=stop):
            core = trial
        else:
            i += 1
    return core, True


def relevant_part(items: list[Item], seeds: Iterable[Item]) -> list[Item]:
    """The items that share a predicate, directly or through rules, with the seed items (`p`
    and `~p` count as one predicate). A minimal classical clash lies within one such part."""
    parent: dict[str, str] = {}

    def find(k: str) -> str:
        while parent.setdefault(k, k) != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def keys(clause: Atom | Rule) -> list[str]:
        return [f"{a.pred}/{len(a.args)}" for a in clause_atoms(clause)]

    for it in items:
        if isinstance(it.clause, Rule):
            ks = keys(it.clause)
            for k in ks[1:]:
                a, b = find(ks[0]), find(k)
                if a != b:
                    parent[a] = b
    roots = {find(k) for it in seeds for k in keys(it.clause)}
    return [it for it in items if any(find(k) in roots for k in keys(it.clause))]
