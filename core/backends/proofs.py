"""Proofs of facts a relational backend derived: re-derived on the native engine from the facts
the answer needs, fetched from the backend.

From the fact asked about, each rule whose head matches is instantiated and its body's solutions
looked up in the backend's model (a few per rule), their atoms (and an aggregate's solutions)
followed the same way, breadth first, down to asserted facts: at most DEPTH levels below the fact
asked about and MOST facts looked up (a proof shown deeper is gathered again from where it goes
on), so a proof costs what it shows, never the model. The native engine then answers goal-directed
over just those asserted facts (only what the fact needs, bounded by the same cancel, deadline and
`max_facts` as the question): its first derivations are the proof, with steps that are well
founded. Where the facts fetched do not derive the fact on their own (a proof deeper than DEPTH, a
cap reached), the proof shows the rule instance the backend found, one level at a time.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from sym.core.logic.derivation import Derivation, instantiate, instantiate_atom
from sym.core.logic.engine import Engine
from sym.core.logic.terms import Aggregate, Atom, Rule, Var, literal_atoms

if TYPE_CHECKING:
    from sym.core.backends.engine import RelationalEngine

PER_RULE = 20        # solutions of one rule instance fetched
MOST = 1_000         # facts one gathering looks up in the backend (a query per rule whose head matches)
DEPTH = 16           # levels one gathering follows below its fact (a proof tree shows 12 by default)


class Proofs:
    def __init__(self, engine: RelationalEngine) -> None:
        self.engine = engine
        self.seen: set[Atom] = set()
        self.base: set[Atom] = set()
        self.first: dict[Atom, tuple[str, Rule, tuple[Any, ...]]] = {}    # a rule instance the backend found
        self.native: Engine | None = None

    def derivation(self, atom: Atom) -> Derivation | None:
        if not self._derived_relation(atom.key) or self._asserted(atom):
            return None
        if atom not in self.seen:
            self._gather(atom)
            self.native = None
        if self.native is None:
            native = Engine()           # goal-directed: each fact asked evaluates only what it needs
            native.add_facts(sorted(self.base, key=str))
            native.add_rules({rid: r for rid, r in self.engine.rules.items() if r.head is not None})
            self.native = native
        bounded = self.native       # by what bounds this question (its memory arms them per question)
        bounded.stops_as(self.engine)
        found = bounded.provenance(atom)
        if found is not None:
            return found
        first = self.first.get(atom)
        if first is None:
            return None
        rid, rule, premises = first
        return Derivation(atom, rid, rule, 0, premises)

    def _derived_relation(self, key: str) -> bool:
        return any(r.head is not None and r.head.key == key for r in self.engine.rules.values())

    def _asserted(self, atom: Atom) -> bool:
        if self.engine.is_asserted(atom):
            return True
        if atom.key in self.engine.attached:     # loaded straight into the backend: look in its tables
            program = self.engine.program()
            types = program.col_types(atom.key)
            if any((t == "str") != isinstance(v, str) for t, v in zip(types, atom.args)):
                return False
            where = " AND ".join(f"c{i} = ?" for i in range(len(atom.args))) or "TRUE"
            sql = f"SELECT 1 FROM {program.base_source(atom.key).sql} AS s WHERE {where}"
            return bool(self.engine.executor.fetch(sql, atom.args, limit=1))
        return False

    def _gather(self, start: Atom) -> None:
        """Look up the rule instances below `start`, breadth first, DEPTH levels and MOST facts at
        most; a fact left at the edge is not `seen`: asked about later, it is gathered from."""
        program = self.engine.program()
        rules = [(rid, r) for rid, r in self.engine.rules.items() if r.head is not None]
        queue, looked = deque([(start, 0)]), 0
        while queue and looked < MOST:
            atom, depth = queue.popleft()
            if atom in self.seen:
                continue
            derived = self._derived_relation(atom.key)
            if not derived or self._asserted(atom):
                self.base.add(atom)
                if not derived:
                    self.seen.add(atom)
                    continue
            if depth == DEPTH:
                continue
            self.seen.add(atom)
            looked += 1
            for rid, rule in rules:
                assert rule.head is not None
                binding = _match(rule.head, atom)
                if binding is None:
                    continue
                body = tuple(instantiate(lit, binding) for lit in rule.body)
                named = list(dict.fromkeys(v for a in literal_atoms(body) for v in a.args if isinstance(v, Var)))
                for row in program.query(body, named, limit=PER_RULE):
                    full = dict(zip(named, row))
                    premises = tuple(instantiate(lit, full) for lit in body)
                    self.first.setdefault(atom, (rid, rule, premises))
                    for lit in premises:
                        if isinstance(lit, Atom) and lit.is_ground:
                            queue.append((lit, depth + 1))
                        elif isinstance(lit, Aggregate):
                            queue += [(a, depth + 1) for a in self._solutions(lit)]

    def _solutions(self, agg: Aggregate) -> list[Atom]:
        """The atoms of an aggregate's solutions (its outer variables already bound)."""
        named = list(dict.fromkeys(v for a in literal_atoms(agg.goal) for v in a.args if isinstance(v, Var)))
        rows = self.engine.program().query(agg.goal, named, limit=MOST)
        return [instantiate_atom(a, dict(zip(named, row))) for row in rows for a in literal_atoms(agg.goal)]


def _match(head: Atom, atom: Atom) -> dict[Var, object] | None:
    if head.key != atom.key:
        return None
    binding: dict[Var, object] = {}
    for h, a in zip(head.args, atom.args):
        if isinstance(h, Var):
            if binding.setdefault(h, a) != a:
                return None
        elif h != a:
            return None
    return binding
