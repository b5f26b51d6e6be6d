"""Names in the user's words: schema templates for the predicates the grammar introduces, and
how a constant was written ("the mouse", "Rex", "Box 1") for answers. Reads memory, writes only
the schema's templates."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from sym.core.logic.terms import Atom, Rule
from sym.core.reason.swm import english

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sym.core.logic.terms import Query
    from sym.core.memory.working import Item, WorkingMemory


def name_predicates(memory: WorkingMemory, clauses: Iterable[Atom | Rule | Query]) -> None:
    """Predicates the grammar introduced get the template it reads them by ("{0} is afraid of {1}")."""
    atoms = [a for c in clauses for a in ([c] if isinstance(c, Atom) else [c.head if isinstance(c, Rule) else None, *c.body])
             if isinstance(a, Atom)]
    templates: dict[str, str] = {}
    for atom in atoms:
        pred = memory.schema.predicates.get(f"{atom.pred}/{len(atom.args)}")
        template = english.template_for(atom.pred, len(atom.args)) if pred is not None and not pred.template else None
        if template and pred is not None:
            templates.setdefault(pred.key, template)
    if templates:
        memory.set_templates(templates)     # stored with the schema, in one transaction


def written(memory: WorkingMemory, consts: Iterable[object]) -> dict[str, Any]:
    """How the user wrote each thing, from a sentence that mentions it: "the mouse", "Rex" (the
    first item with a sentence that names it; things no sentence names are left out). Items are
    found through an index of the things their facts name, kept up to date as items come and go,
    so a /tell does not read all of memory once per sentence."""
    wanted = {c: re.compile(r"\b(the\s+)?(" + re.escape(str(c).replace("_", " ")) + r")\b", re.I)
              for c in consts}
    found: dict[Any, Any] = {}
    mentions = _mentions(memory)
    items = memory.items
    for const, pattern in wanted.items():
        for item in mentions.get(const, ()):
            if items.get(item.id) is not item:     # removed since (or stored again, further on)
                continue
            match = pattern.search(item.nl)
            if match:
                found[const] = f"the {match.group(2)}" if match.group(1) else match.group(2)
                break
    return found


class _Mentions:
    """The items with a sentence, by the things their facts name, in the order they were stored."""

    def __init__(self) -> None:
        self.by_thing: dict[object, list[Item]] = {}
        self.seen: dict[str, Item] = {}

    def update(self, items: dict[str, Item]) -> dict[object, list[Item]]:
        if len(self.seen) > 2 * len(items) + 1024:     # mostly removed: start again
            self.by_thing, self.seen = {}, {}
        new: list[Item] = []
        for iid in reversed(items):       # those stored since the last look are at the end
            item = items[iid]
            if self.seen.get(iid) is item:
                break
            new.append(item)
        for item in reversed(new):
            self.seen[item.id] = item
            if item.nl:
                for thing in dict.fromkeys(getattr(item.clause, "args", ())):
                    self.by_thing.setdefault(thing, []).append(item)
        return self.by_thing


_INDEXES: WeakKeyDictionary[WorkingMemory, _Mentions] = WeakKeyDictionary()


def _mentions(memory: WorkingMemory) -> dict[object, list[Item]]:
    index = _INDEXES.get(memory)
    if index is None:
        index = _INDEXES[memory] = _Mentions()
    return index.update(memory.items)
