"""Whole-memory operations built on `WorkingMemory`'s own add / remove: restoring the items a
session ended with, merging two predicates and undoing the last merge. Each takes the memory
explicitly and changes nothing when it fails; events, the snapshot and session logs follow from
add / remove as for any other change.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from sym.core.errors import UserError
from sym.core.logic.strata import stratify
from sym.core.logic.terms import Atom, Query, Rule, rename_predicates
from sym.core.memory.store import Record, dumps
from sym.core.memory.working import SOFT, item_id

if TYPE_CHECKING:
    from sym.core.memory.working import Item, WorkingMemory


def resumable(items: dict[str, dict[str, Any]], *, source: str) -> list[tuple[Atom | Rule | Query, str, str]]:
    """(clause, source, English) for `items` (id -> a session's memory event: text, source, nl);
    `source` names where the texts come from, for errors. Each event is one item, so its text
    must be one clause: a text that does not parse, or holds several clauses (a log sym did not
    write), or rules that cannot be stratified, refuse the resume (naming the event's `seq`)
    before anything changes."""
    from sym.core.logic.parser import parse_program

    wanted: list[tuple[Atom | Rule | Query, str, str]] = []
    for e in items.values():
        where = f"{source}: memory event seq {e.get('seq', '?')}"
        located = parse_program(e["text"], source=where)
        if len(located) != 1:
            raise UserError(f"{where} holds {len(located)} clauses; a memory event is one item (damaged log?)",
                            hint="a log sym writes has one clause per memory event; nothing was changed")
        src, nl = e.get("source"), e.get("nl")
        wanted.append((located[0].clause, src if isinstance(src, str) and src else "resumed",
                       nl if isinstance(nl, str) else ""))
    stratify([c for c, src, _ in wanted if isinstance(c, Rule) and c.head is not None
              and not str(src).startswith(SOFT)])
    return wanted


def restore(memory: WorkingMemory, wanted: list[tuple[Atom | Rule | Query, str, str]],
            keep: set[str] | dict[str, Any]) -> tuple[int, int]:
    """Make `memory` hold exactly `wanted` (from `resumable`): items whose id is not in `keep`
    go, the wanted clauses are added with their sources and English. Returns (items added, items
    removed); a failed add puts back what was removed."""
    extra = [i for i in memory.items if i not in keep]
    removed = memory.remove(extra)
    nls = {item_id(c): nl for c, _, nl in wanted if nl and not isinstance(c, Query)}
    try:
        outcome = memory.add([(c, src) for c, src, _ in wanted], merge="off", nls=nls)
    except BaseException:   # put back what was removed: a failed resume changes nothing
        for it in removed:
            memory.add([(it.clause, it.source)], nl=it.nl, merge="off")
        raise
    return len(outcome.items), len(extra)


# -- merging predicates, and undoing the last merge ---------------------------------------------

UNDO_ID = "schema-undo"     # the schema record that holds a workspace's last merge, to undo it
_process_undo: WeakKeyDictionary[WorkingMemory, dict[str, Any]] = WeakKeyDictionary()   # memory without a store


@dataclass(frozen=True)
class MergePlan:
    """What `/schema merge OLD INTO` would do, worked out without changing anything."""

    old: str                                     # name/arity
    into: str
    rewritten: list[tuple[Item, Atom | Rule]]    # each item that uses OLD, and the clause it becomes
    added: list[str]                             # ids of the rewritten clauses memory does not hold yet
    template: str                                # OLD's NL template
    into_template: str | None                    # INTO's template before the merge (None: INTO is new)

    @property
    def duplicates(self) -> int:
        """Rewritten clauses memory holds already (or that two items both become): dropped."""
        return len(self.rewritten) - len(self.added)

    def counts(self) -> dict[str, int]:
        out = {"fact": 0, "rule": 0, "constraint": 0}
        for item, _ in self.rewritten:
            out[item.kind] += 1
        return out


def _indicator(text: str) -> tuple[str, int]:
    name, _, arity = text.strip().partition("/")
    if not name or not arity.isdecimal() or not arity.isascii():
        raise UserError(f"bad predicate indicator {text!r}", hint="write name/arity, e.g. located_in/2")
    return name, int(arity)


def plan_merge(memory: WorkingMemory, old: str, into: str) -> MergePlan:
    """The merge of predicate `old` into `into` (both name/arity), checked: raises UserError when it
    cannot be done (other arities, the same predicate, an unknown one, rules that would not stratify)."""
    (old_name, old_arity), (new_name, new_arity) = _indicator(old), _indicator(into)
    old, into = f"{old_name}/{old_arity}", f"{new_name}/{new_arity}"
    if old_arity != new_arity:
        raise UserError(f"cannot merge {old} into {into}: the arities differ",
                        hint="only predicates with the same number of arguments can be merged")
    if old_name == new_name:
        raise UserError(f"cannot merge {old} into itself", hint="/schema merge OLD/N INTO/N")
    if old not in memory.schema.predicates:
        raise UserError(f"unknown predicate {old}", hint="/schema lists predicates")
    renames = {(old_name, old_arity): new_name}
    rewritten = [(it, new) for it in memory.items.values() if (new := rename_predicates(it.clause, renames)) != it.clause]
    touched = {it.id for it, _ in rewritten}
    stratify([*(it.clause for it in memory.items.values() if isinstance(it.clause, Rule) and not it.soft
                and it.id not in touched),
              *(new for it, new in rewritten if isinstance(new, Rule) and not it.soft)])   # refused before any change
    added = list(dict.fromkeys(i for _, new in rewritten if (i := item_id(new)) not in memory.items))
    target = memory.schema.predicates.get(into)
    return MergePlan(old, into, rewritten, added, memory.schema.predicates[old].template,
                     target.template if target is not None else None)


def merge(memory: WorkingMemory, old: str, into: str) -> tuple[MergePlan, list[Item]]:
    """Merge predicate `old` into `into` through the memory's own remove / add, and keep what it
    takes to undo it: one level per workspace, stored with it (an embedded one: in the same transaction)."""
    plan = plan_merge(memory, old, into)
    record = {"old": plan.old, "into": plan.into, "at": time.time(),
              "removed": [it.to_dict() for it, _ in plan.rewritten],
              "template": plan.template, "into_template": plan.into_template}
    with memory.unit():
        items = memory.merge_predicates(plan.old, plan.into)
        _keep_undo(memory, {**record, "added": [it.id for it in items]})
    return plan, items


def last_merge(memory: WorkingMemory) -> dict[str, Any] | None:
    """The workspace's last merge, as kept to undo it (None when there is none)."""
    store = memory.store
    if store is None:
        return _process_undo.get(memory)
    for rec in store.all("schema"):
        if rec.id == UNDO_ID:
            try:
                data = json.loads(rec.text)
            except ValueError:
                return None
            return data if isinstance(data, dict) and {"old", "into", "removed", "added"} <= data.keys() else None
    return None


def _keep_undo(memory: WorkingMemory, record: dict[str, Any] | None) -> None:
    store = memory.store
    if store is None:
        if record is None:
            _process_undo.pop(memory, None)
        else:
            _process_undo[memory] = record
    elif record is None:
        store.delete("schema", [UNDO_ID])
    else:
        store.add("schema", [Record(UNDO_ID, dumps(record), {"kind": "schema-undo"})], ["last schema merge"])


@dataclass(frozen=True)
class Undone:
    old: str
    into: str
    restored: list[Item]       # the items that used OLD, back as they were
    removed: list[Item]        # the items the merge had written


def undo_merge(memory: WorkingMemory) -> Undone:
    """Revert the workspace's last merge: the items it wrote go, the items it rewrote come back
    (same ids, NL forms, sources and times), and the templates it moved go back. Refused, changing
    nothing, when there is no merge to undo or memory has lost what the merge wrote since."""
    from sym.core.logic.parser import parse_program

    record = last_merge(memory)
    if record is None:
        raise UserError("there is no merge to undo", hint="/schema undo reverts the last /schema merge of this workspace")
    old, into, added = str(record["old"]), str(record["into"]), [str(i) for i in record["added"]]
    gone = [i for i in added if i not in memory.items]
    if gone:
        raise UserError(f"cannot undo the merge of {old} into {into}: {len(gone)} of the items it wrote were "
                        "removed since", hint="memory is left as it is")
    originals: list[dict[str, Any]] = list(record["removed"])
    located = parse_program("\n".join(str(e["text"]) for e in originals), source="the last merge") if originals else []
    clauses = [loc.clause for loc in located]
    if len(clauses) != len(originals) or not all(isinstance(c, (Atom, Rule)) for c in clauses):
        raise UserError("the record of the last merge does not read back", hint="memory is left as it is")
    wanted = [(c, e) for c, e in zip(clauses, originals) if isinstance(c, (Atom, Rule))]
    doomed = set(added)
    stratify([*(it.clause for it in memory.items.values() if isinstance(it.clause, Rule) and not it.soft
                and it.id not in doomed),
              *(c for c, e in wanted if isinstance(c, Rule) and not str(e.get("source", "")).startswith(SOFT))])
    groups: dict[str, list[tuple[Atom | Rule, dict[str, Any]]]] = {}
    for clause, entry in wanted:
        groups.setdefault(str(entry.get("nl", "")), []).append((clause, entry))
    with memory.unit():
        removed = memory.remove(added)
        restored: list[Item] = []
        try:
            for nl, group in groups.items():
                restored += memory.add([(c, str(e.get("source", "typed"))) for c, e in group], nl=nl, merge="off",
                                       created_at={str(e["id"]): float(e.get("created_at", 0.0)) for _, e in group}).items
        except BaseException:   # put back what the merge had written: a failed undo changes nothing
            memory.remove(it.id for it in restored)
            for it in removed:
                memory.add([(it.clause, it.source)], nl=it.nl, merge="off", created_at={it.id: it.created_at})
            raise
        templates = _templates_back(memory, record)
        if templates:
            memory.set_templates(templates)
        _keep_undo(memory, None)
    return Undone(old, into, restored, removed)


def _templates_back(memory: WorkingMemory, record: dict[str, Any]) -> dict[str, str]:
    """The templates an undo puts back: OLD's, and INTO's when the merge gave it OLD's."""
    old, into = str(record["old"]), str(record["into"])
    template, before = str(record.get("template") or ""), record.get("into_template")
    out = {}
    now = memory.schema.predicates.get(old)
    if template and (now is None or not now.template):
        out[old] = template
    target = memory.schema.predicates.get(into)
    if template and not before and target is not None and target.template == template:
        out[into] = ""
    return out
