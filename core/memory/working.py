"""WorkingMemory: the asserted facts and rules of one workspace, with ids, sources and answers.

Every change goes through here so ids, sources and events stay consistent with the
engine. Additions are all-or-nothing: a batch that fails a check changes nothing.
Persistence (Chroma) plugs in behind this class; nothing here knows about screens.
"""

from __future__ import annotations

import difflib
import hashlib
import time
from dataclasses import dataclass, field
from typing import Iterable

from core.errors import UserError
from core.events import Emit, InferenceFinished, ItemAdded, ItemRemoved, ignore
from core.logic.engine import FALSE, TRUE, UNKNOWN, Engine, Inference, Violation
from core.logic.plan import compare_op
from core.logic.provenance import ProofNode, proof_tree
from core.logic.terms import Atom, Naf, Query, Rule, Var, clause_text, is_anonymous


@dataclass(frozen=True)
class Item:
    """One asserted fact, rule or constraint."""

    id: str
    kind: str                 # fact | rule | constraint
    clause: Atom | Rule
    nl: str = ""
    source: str = "typed"     # typed, FILE:LINE, tell, llm, …
    created_at: float = field(default_factory=time.time)

    @property
    def text(self) -> str:
        return clause_text(self.clause)

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "text": self.text, "nl": self.nl,
                "source": self.source, "created_at": self.created_at}


def item_id(clause: Atom | Rule) -> str:
    """A stable id from the clause's canonical text: same clause, same id, in every session."""
    kind = "f" if isinstance(clause, Atom) else ("c" if clause.head is None else "r")
    return kind + hashlib.sha1(clause_text(clause).encode()).hexdigest()[:7]


@dataclass
class Answer:
    """The answer to a query: bindings for one with variables, a truth value for a ground one."""

    query: Query
    variables: list[str]
    bindings: list[dict[str, object]]
    truth: str | None = None          # true | false | unknown, for ground queries
    complete: bool = True


def _kleene_and(values: Iterable[str]) -> str:
    values = list(values)
    if FALSE in values:
        return FALSE
    return UNKNOWN if UNKNOWN in values else TRUE


class WorkingMemory:
    def __init__(self, workspace: str = "default", *, emit: Emit = ignore):
        self.workspace = workspace
        self.emit = emit
        self.engine = Engine()
        self.items: dict[str, Item] = {}

    # -- changing memory ---------------------------------------------------------

    def add(self, clauses: Iterable[tuple[Atom | Rule, str]], *, nl: str = "") -> tuple[list[Item], int]:
        """Assert (clause, source) pairs; returns (new items, duplicates). All or nothing."""
        new: dict[str, Item] = {}
        duplicates = 0
        for clause, source in clauses:
            if isinstance(clause, Query):
                raise UserError("a query cannot be stored", hint="ask it with ?- … instead")
            iid = item_id(clause)
            if iid in self.items or iid in new:
                duplicates += 1
                continue
            kind = "fact" if isinstance(clause, Atom) else ("constraint" if clause.head is None else "rule")
            new[iid] = Item(iid, kind, clause, nl, source)
        rules = {i: it.clause for i, it in new.items() if it.kind != "fact"}
        self.engine.check_rules(rules)  # raises before anything changes
        self.engine.add_facts(it.clause for it in new.values() if it.kind == "fact")
        self.engine.add_rules(rules)
        self.items.update(new)
        for it in new.values():
            self.emit(ItemAdded(it.id, it.kind, it.text, it.source))
        return list(new.values()), duplicates

    def remove(self, ids: Iterable[str]) -> list[Item]:
        removed = []
        for iid in ids:
            it = self.items.pop(iid, None)
            if it is None:
                continue
            if it.kind == "fact":
                self.engine.remove_fact(it.clause)
            else:
                self.engine.remove_rule(iid)
            removed.append(it)
            self.emit(ItemRemoved(it.id, it.kind, it.text))
        return removed

    # -- finding items -----------------------------------------------------------

    def resolve(self, ref: str) -> Item:
        """An item by id or unique id prefix."""
        ref = ref.strip()
        if ref in self.items:
            return self.items[ref]
        matches = [i for i in self.items if i.startswith(ref)] if len(ref) >= 2 else []
        if len(matches) == 1:
            return self.items[matches[0]]
        if matches:
            raise UserError(f"id {ref!r} is ambiguous ({len(matches)} items)", hint="type more of the id")
        raise UserError(f"no item with id {ref!r}", hint="/listing shows ids")

    def matching(self, pattern: Atom) -> list[Item]:
        """Asserted facts that unify with a pattern (variables match anything, consistently)."""
        out = []
        for it in self.items.values():
            if it.kind == "fact" and _matches(pattern, it.clause):
                out.append(it)
        return out

    def listing(self, pred: str | None = None) -> list[Item]:
        """Items in insertion order, optionally of one predicate (`name` or `name/arity`)."""
        if pred is None:
            return list(self.items.values())
        name, _, arity = pred.partition("/")
        if arity and not arity.isdigit():
            raise UserError(f"bad predicate indicator {pred!r}", hint="write name or name/arity, e.g. father_of/2")
        def relevant(it: Item) -> bool:
            atom = it.clause if isinstance(it.clause, Atom) else it.clause.head
            if atom is None:
                return any(isinstance(lit, Atom) and lit.pred == name for lit in it.clause.body)
            return atom.pred == name and (not arity or len(atom.args) == int(arity))
        found = [it for it in self.items.values() if relevant(it)]
        if not found:
            self._unknown(f"{name}/{arity}" if arity else name)
        return found

    def counts(self) -> dict[str, int]:
        out = {"fact": 0, "rule": 0, "constraint": 0}
        for it in self.items.values():
            out[it.kind] += 1
        return out

    # -- reasoning ---------------------------------------------------------------

    def infer(self, max_steps: int | None = None) -> Inference:
        result = self.engine.infer(max_steps)
        self.emit(InferenceFinished(result.steps, result.derived, result.complete, len(result.violations)))
        return result

    def _model(self, max_steps: int | None) -> None:
        if not self.engine.fresh_for(max_steps):
            self.infer(max_steps)

    def ask(self, query: Query, *, open_world: bool = False, max_steps: int | None = None) -> Answer:
        """Answer a query against the model (computed first if memory changed)."""
        self.check_known(query)
        self._model(max_steps)
        names = [v.name for v in query.variables()]
        complete = self.engine.complete
        if query.is_ground:
            return Answer(query, [], [], self._truth(query, open_world), complete)
        rows = self.engine.solve(query)
        return Answer(query, names, [{v.name: val for v, val in row.items()} for row in rows], None, complete)

    def _truth(self, query: Query, open_world: bool) -> str:
        values = []
        for lit in query.body:
            if isinstance(lit, Atom):
                values.append(self.engine.truth(lit, open_world=open_world))
            elif isinstance(lit, Naf):
                values.append(FALSE if self.engine.holds(lit.atom) else TRUE)
            else:
                values.append(TRUE if compare_op(lit.op)(lit.left, lit.right) else FALSE)
        return _kleene_and(values)

    def why(self, atom: Atom, *, max_depth: int = 12, max_steps: int | None = None) -> ProofNode:
        self.check_known(Query((atom,)))
        self._model(max_steps)
        return proof_tree(self.engine, atom, max_depth=max_depth)

    def violations(self, max_steps: int | None = None) -> list[Violation]:
        self._model(max_steps)
        return self.engine.violations()

    def check_known(self, query: Query) -> None:
        """Unknown predicates in a query are a user error (with a did-you-mean)."""
        known = self.engine.relation_keys()
        for lit in query.body:
            atom = lit.atom if isinstance(lit, Naf) else lit
            if isinstance(atom, Atom) and atom.key not in known and atom.negate().key not in known:
                self._unknown(atom.key, known)

    def _unknown(self, key: str, known: set[str] | None = None) -> None:
        known = self.engine.relation_keys() if known is None else known
        names = sorted({k.lstrip("~") for k in known})
        close = difflib.get_close_matches(key, names, n=1)
        hint = f"did you mean {close[0]}?" if close else ("memory is empty" if not names else "/listing shows what is known")
        raise UserError(f"unknown predicate {key}", hint=hint)


def _matches(pattern: Atom, fact: Atom) -> bool:
    if pattern.pred != fact.pred or pattern.neg != fact.neg or len(pattern.args) != len(fact.args):
        return False
    bound: dict[Var, object] = {}
    for p, v in zip(pattern.args, fact.args):
        if isinstance(p, Var):
            if is_anonymous(p):
                continue
            if bound.setdefault(p, v) != v:
                return False
        elif p != v:
            return False
    return True


