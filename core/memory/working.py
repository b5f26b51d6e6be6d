"""WorkingMemory: the asserted facts and rules of one workspace, with ids, sources and answers.

Every change goes through here so ids, sources and events stay consistent with the
engine. Additions are all-or-nothing: a batch that fails a check changes nothing.
Persistence (the workspace's store) plugs in behind this class; nothing here knows about screens.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.events import Emit, InferenceFinished, ItemRemoved, SchemaChanged, ignore, item_added
from sym.core.logic.derivation import ground_holds
from sym.core.logic.engine import FALSE, TRUE, UNKNOWN, Engine, Inference, Violation
from sym.core.logic.provenance import ProofNode, proof_tree
from sym.core.logic.strata import stratify
from sym.core.logic.terms import (
    Aggregate,
    Atom,
    Naf,
    Query,
    Rule,
    Var,
    clause_atoms,
    is_anonymous,
    rename_predicates,
)
from sym.core.memory.bindings import Bindings
from sym.core.memory.items import SOFT as SOFT  # callers import SOFT, Item and item_id from here
from sym.core.memory.items import Item as Item
from sym.core.memory.items import item_id as item_id
from sym.core.memory.items import made, text_of
from sym.core.memory.schema import Schema, check_template, parse_key
from sym.core.stop import UNBOUNDED, Stop

if TYPE_CHECKING:
    from contextlib import AbstractContextManager
    from threading import Event

    from sym.core.logic.goal import Goals
    from sym.core.memory.local import LocalStore
    from sym.core.memory.store import ChromaStore


@dataclass
class Answer:
    """The answer to a query: bindings for one with variables, a truth value for a ground one."""

    query: Query
    variables: list[str]
    bindings: Sequence[dict[str, object]]   # a `Bindings` over the engine's rows, or a list
    truth: str | None = None          # true | false | unknown, for ground queries
    complete: bool = True


def _kleene_and(values: Iterable[str]) -> str:
    values = list(values)
    if FALSE in values:
        return FALSE
    return UNKNOWN if UNKNOWN in values else TRUE


@dataclass
class AddOutcome:
    items: list[Item]
    duplicates: int = 0
    notes: list[str] = field(default_factory=list)   # schema remarks: near-duplicate predicates, merges


class WorkingMemory:
    def __init__(self, workspace: str = "default", *, emit: Emit = ignore, store: LocalStore | ChromaStore | None = None) -> None:
        self.workspace = workspace
        self.emit = emit
        self.store = store                  # a LocalStore or ChromaStore, or None for a memory that lives in the process
        self.engine = Engine()
        self.stop = UNBOUNDED               # what stops its reasoning (bound): none until a run binds it
        self.items: dict[str, Item] = {}
        self.schema = Schema()

    @classmethod
    def open(cls, store: LocalStore | ChromaStore, *, emit: Emit = ignore, engine: Engine | None = None) -> WorkingMemory:
        """A memory rebuilt from a workspace's store (an embedded workspace's snapshot, or a Chroma
        server's collections): items, engine index, schema; `engine` (core/backends) else a native one."""
        from sym.core.memory.persist import items_from_rows, load_items, load_templates

        memory = cls(store.workspace, emit=emit, store=store)
        memory.engine = engine if engine is not None else memory.engine
        try:
            if hasattr(store, "item_rows"):
                items = items_from_rows(store.item_rows(), f"workspace {store.workspace}")
            else:
                items = load_items(store)
        except (UserError, ValueError) as err:
            raise UserError(f"workspace {store.workspace!r} could not be read back: {err}",
                            hint="it may be corrupt; /reindex or move it aside") from None
        memory.engine.add_facts(it.clause for it in items if isinstance(it.clause, Atom))   # the facts
        memory.engine.add_rules({it.id: it.clause for it in items if isinstance(it.clause, Rule) and not it.soft})
        memory.items = {it.id: it for it in items}
        memory.schema.observe_clauses(it.clause for it in items)
        load_templates(store, memory.schema)
        if hasattr(store, "clause_of"):
            store.clause_of = memory._clause_of
        return memory

    def _clause_of(self, iid: str) -> Atom | Rule | None:
        item = self.items.get(iid)       # read from the background writer's thread: one dict lookup
        return item.clause if item is not None else None

    def unit(self) -> AbstractContextManager[object]:
        """Changes made inside one `with memory.unit():` are stored as one transaction (all or
        nothing under a crash); memory without a local store needs none."""
        store = self.store
        return store.command() if store is not None and hasattr(store, "command") else nullcontext()

    def embedding_backlog(self) -> tuple[int, int] | None:
        """(records embedded, records in all) of an embedded workspace's vector store, else None."""
        store = self.store
        return store.coverage() if store is not None and hasattr(store, "coverage") else None

    # -- changing memory ---------------------------------------------------------

    def add(self, clauses: Sequence[tuple[Atom | Rule | Query, str]], *, nl: str = "", merge: str = "ask",
            progress: Callable[[int, int], object] | None = None,
            created_at: Mapping[str, float] | None = None, nls: Mapping[str, str] | None = None) -> AddOutcome:
        """Assert (clause, source) pairs. All or nothing: a bad rule or a failed write changes nothing.
        `created_at` (item id -> time) puts items back with the times they were first made, `nls`
        (item id -> English) with the words they were told in (else every item gets `nl`)."""
        new: dict[str, Item] = {}
        duplicates = 0
        notes: list[str] = []
        renames = self._schema_check([c for c, _ in clauses], merge, notes) if merge != "off" else {}
        for clause, source in clauses:
            if progress is not None and len(new) % 8192 == 8191:  # a big file: Esc need not wait for the store
                progress(0, len(clauses))
            if isinstance(clause, Query):
                raise UserError("a query cannot be stored", hint="ask it with ?- … instead")
            clause = rename_predicates(clause, renames) if renames else clause
            text = text_of(clause)
            iid = item_id(clause, text)
            if iid in self.items or iid in new:
                duplicates += 1
                continue
            kind = "fact" if isinstance(clause, Atom) else ("constraint" if clause.head is None else "rule")
            at = created_at.get(iid) if created_at else None
            words = nls.get(iid, nl) if nls else nl
            new[iid] = made(iid, kind, clause, words, source, time.time() if at is None else at, text)  # printed once
        rules = {i: it.clause for i, it in new.items() if isinstance(it.clause, Rule) and not it.soft}   # not facts
        self.engine.check_rules(rules)  # raises before anything changes
        if self.store is not None and new:
            from sym.core.memory.persist import save_items

            save_items(self.store, list(new.values()), progress)
        self.engine.add_facts(it.clause for it in new.values() if isinstance(it.clause, Atom))   # the facts
        self.engine.add_rules(rules)
        self.items.update(new)
        touched: set[str] = set()
        self.schema.observe_clauses((it.clause for it in new.values()), touched)
        emit, workspace = self.emit, self.workspace
        for it in new.values():
            emit(item_added(it.id, it.kind, it.text, it.source, workspace, it.nl))
        self._schema_changed(touched)
        return AddOutcome(list(new.values()), duplicates, notes)

    def remove(self, ids: Iterable[str]) -> list[Item]:
        doomed = [self.items[i] for i in dict.fromkeys(ids) if i in self.items]
        if self.store is not None and doomed:
            from sym.core.memory.persist import delete_items

            delete_items(self.store, doomed)
        touched: set[str] = set()
        for it in doomed:
            del self.items[it.id]
            if isinstance(it.clause, Atom):   # kind "fact"
                self.engine.remove_fact(it.clause)
            else:
                self.engine.remove_rule(it.id)
            self._observe(it.clause, -1, touched)
            self.emit(ItemRemoved(it.id, it.kind, it.text, self.workspace))
        self._schema_changed(touched)
        return doomed

    def forget_derived(self) -> int:
        """Drop the derived facts (the model); asserted items stay. Returns how many were dropped."""
        count = sum(1 for _ in self.engine.facts(derived=True)) if self.engine.complete else 0
        self.engine.clear_model()
        return count

    # -- schema ------------------------------------------------------------------

    def _observe(self, clause: Atom | Rule, sign: int, touched: set[str] | None = None) -> None:
        for atom in clause_atoms(clause):
            if touched is not None:
                touched.add(f"{atom.pred}/{len(atom.args)}")
            ground = tuple(a for a in atom.args if not isinstance(a, Var))
            if sign > 0:
                self.schema.observe(atom.pred, ground if isinstance(clause, Atom) else (), arity=len(atom.args))
            else:
                self.schema.forget(atom.pred, ground if isinstance(clause, Atom) else (), arity=len(atom.args))

    def _schema_check(self, clauses: list[Any], merge: str, notes: list[str]) -> dict[tuple[str, int], str]:
        """Near-duplicate predicates among new clauses: noted (ask) or renamed (auto)."""
        renames: dict[tuple[str, int], str] = {}
        seen: set[tuple[str, int]] = set()
        embedder = self.store.embedder if self.store is not None else None
        for clause in clauses:
            for atom in clause_atoms(clause):
                sig = (atom.pred, len(atom.args))
                if sig in seen or f"{atom.pred}/{len(atom.args)}" in self.schema.predicates:
                    continue
                seen.add(sig)
                found = self.schema.near_duplicates(atom.pred, len(atom.args), embedder)
                key = f"{atom.pred}/{len(atom.args)}"
                # only a predicate of the same arity can be merged; one of another arity is only pointed out
                same = [f for f in found if f[0].arity == len(atom.args)]
                if same:
                    best, score, reason = same[0]
                    if merge == "auto":
                        renames[sig] = best.name
                        notes.append(f"{key} merged into {best.key} ({reason}, {score:.2f})")
                    else:
                        notes.append(f"{key} looks like {best.key} ({reason}, {score:.2f}); "
                                     f"/schema merge {key} {best.key} to merge them")
                elif found:
                    other = found[0][0]
                    notes.append(f"{key} has the same name as {other.key} but another arity; "
                                 "not a merge (the arities differ): check the number of arguments")
        return renames

    def merge_predicates(self, old: str, into: str) -> list[Item]:
        """Rewrite every item using predicate `old` (name/arity) to use `into`; returns the new items."""
        (old_name, old_arity), (new_name, new_arity) = _indicator(old), _indicator(into)
        if old_arity != new_arity:
            raise UserError(f"cannot merge {old} into {into}: the arities differ")
        if old_name == new_name:
            raise UserError(f"cannot merge {old} into itself", hint="/schema merge OLD/N INTO/N")
        if old not in self.schema.predicates:
            raise UserError(f"unknown predicate {old}", hint="/schema lists predicates")
        renames = {(old_name, old_arity): new_name}
        affected = [it for it in self.items.values() if rename_predicates(it.clause, renames) != it.clause]
        replacement = [(rename_predicates(it.clause, renames), it.source) for it in affected]
        rules = {item_id(c): c for c, _ in replacement if isinstance(c, Rule)}
        remaining = {i: it.clause for i, it in self.items.items() if isinstance(it.clause, Rule) and it not in affected}
        stratify([*remaining.values(), *rules.values()])  # refuse before changing anything
        template = self.schema.predicates[old].template
        with self.unit():       # the rewritten items and the schema they leave: one transaction
            self.remove(it.id for it in affected)
            outcome = self.add(replacement, merge="off")
            self.schema.merge(old, into)
            target = self.schema.predicates.get(into)
            if template and target is not None and not target.template:
                target.template = template
            self._save_schema()
        self._schema_changed({f"{old_name}/{old_arity}", f"{new_name}/{new_arity}"})
        return outcome.items

    def set_templates(self, templates: dict[str, str]) -> None:
        """Give predicates (`name/arity`) their NL templates ("" removes one), stored with the
        schema in one transaction; a bad template or a failed write changes nothing."""
        keys = {}
        for key, template in templates.items():
            name, arity = parse_key(key)
            keys[f"{name}/{arity}"] = check_template(f"{name}/{arity}", arity, template)  # raises before any change
        before = {k: self.schema.predicates[k].template if k in self.schema.predicates else None for k in keys}
        try:
            with self.unit():
                for key, template in keys.items():
                    self.schema.set_template(key, template)
                self._save_schema()
        except BaseException:
            for key, old in before.items():
                if old is None:
                    self.schema.predicates.pop(key, None)
                else:
                    self.schema.predicates[key].template = old
            raise
        self._schema_changed(set(keys))

    def _save_schema(self) -> None:
        if self.store is not None:
            from sym.core.memory.persist import save_schema

            save_schema(self.store, self.schema)

    def _schema_changed(self, keys: set[str]) -> None:
        """One SchemaChanged for a batch of changes: what became of each of `keys`."""
        if keys:
            preds = self.schema.predicates
            self.emit(SchemaChanged(self.workspace,
                                    tuple((k, preds[k].count, preds[k].template) for k in sorted(keys) if k in preds),
                                    tuple(sorted(k for k in keys if k not in preds))))

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
            if isinstance(it.clause, Atom) and _matches(pattern, it.clause):   # a fact
                out.append(it)
        return out

    def listing(self, pred: str | None = None) -> list[Item]:
        """Items in insertion order, optionally of one predicate (`name` or `name/arity`)."""
        if pred is None:
            return list(self.items.values())
        name, _, arity = pred.partition("/")
        if arity and not arity.isdecimal():
            raise UserError(f"bad predicate indicator {pred!r}", hint="write name or name/arity, e.g. father_of/2")
        def relevant(it: Item) -> bool:
            clause = it.clause
            atom = clause if isinstance(clause, Atom) else clause.head
            if atom is None:
                assert isinstance(clause, Rule)   # a constraint
                return any(isinstance(lit, Atom) and lit.pred == name for lit in clause.body)
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

    def bound(self, stop: Stop | None = None, *, cancel: Event | None = None, max_facts: int | None = None) -> WorkingMemory:
        """Let reasoning be stopped by a run's `stop` (or `cancel`, a threading.Event, and `max_facts`):
        each query, inference and proof tree gets its own deadline, direct engine use one from now."""
        self.stop = stop if stop is not None else Stop(cancel, None, max_facts)
        self.engine.stop = self.stop
        self._arm()
        return self

    def _arm(self) -> None:   # the deadline of one query, inference or proof tree starts
        self.engine.deadline.arm(self.stop.query_timeout)

    def infer(self, max_steps: int | None = None) -> Inference:
        self._arm()
        result = self.engine.infer(max_steps)
        self.emit(InferenceFinished(result.steps, result.derived, result.complete, len(result.violations)))
        return result

    def _model(self, max_steps: int | None) -> None:
        if not self.engine.fresh_for(max_steps):
            result = self.engine.infer(max_steps, query=True)
            self.emit(InferenceFinished(result.steps, result.derived, result.complete, len(result.violations)))

    def _goals(self, max_steps: int | None) -> Goals | None:
        """Where a question is answered goal-directed (evaluating only what it needs): no step
        limit, and no whole model that is current already. None: from the whole model."""
        engine = self.engine
        if max_steps is not None or not engine.goal_directed or engine.fresh_for(None):
            return None
        return engine.goals

    def ask(self, query: Query, *, open_world: bool = False, max_steps: int | None = None) -> Answer:
        """Answer a query: goal-directed without a step limit, else against the (limited) model."""
        self.check_known(query)
        self._arm()
        names = [v.name for v in query.variables()]
        goals = self._goals(max_steps)
        if goals is None:
            self._model(max_steps)
        complete = goals is not None or self.engine.complete
        if query.is_ground:
            return Answer(query, [], [], self._truth(query, open_world, goals), complete)
        named = query.variables()
        rows = goals.rows(query.body, named) if goals is not None else self.engine.rows(query.body, named)
        return Answer(query, names, Bindings(names, rows), None, complete)

    def _truth(self, query: Query, open_world: bool, goals: Goals | None = None) -> str:
        model: Engine | Goals = self.engine if goals is None else goals
        values = []
        for lit in query.body:
            if isinstance(lit, Atom):
                values.append(model.truth(lit, open_world=open_world))
            elif isinstance(lit, Naf):
                values.append(FALSE if model.holds(lit.atom) else TRUE)
            elif isinstance(lit, Aggregate):   # a value of what is known: never false in an open world
                found = bool(model.rows((lit,), []))
                values.append(TRUE if found else UNKNOWN if open_world else FALSE)
            else:
                values.append(TRUE if ground_holds(lit) else FALSE)
        return _kleene_and(values)

    def why(self, atom: Atom, *, max_depth: int = 12, max_steps: int | None = None) -> ProofNode:
        self.check_known(Query((atom,)))
        self._arm()
        goals = self._goals(max_steps)
        if goals is None:
            self._model(max_steps)
            return proof_tree(self.engine, atom, max_depth=max_depth)
        goals.truth(atom, open_world=True)   # the atom and its strong negation, from one goal model
        return proof_tree(goals, atom, max_depth=max_depth)

    def violations(self, max_steps: int | None = None) -> list[Violation]:
        self._arm()
        goals = self._goals(max_steps)
        if goals is not None:
            return goals.violations()     # from the relations constraints and clashes read
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




def _indicator(text: str) -> tuple[str, int]:
    name, _, arity = text.strip().partition("/")
    if not name or not arity.isdecimal():
        raise UserError(f"bad predicate indicator {text!r}", hint="write name/arity, e.g. located_in/2")
    return name, int(arity)
