"""Names in the user's words: schema templates for the predicates the grammar introduces, and
how a constant was written ("the mouse", "Rex", "Box 1") for answers. Reads memory, writes only
the schema's templates."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sym.core.logic.terms import Atom, Rule
from sym.core.reason.swm import english

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sym.core.logic.terms import Query
    from sym.core.memory.working import WorkingMemory


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
    """How the user wrote each thing, from a sentence that mentions it: "the mouse", "Rex" (one
    pass over memory, stopping once every thing is found; things no sentence names are left out)."""
    wanted = {c: re.compile(r"\b(the\s+)?(" + re.escape(str(c).replace("_", " ")) + r")\b", re.I)
              for c in consts}
    found: dict[str, Any] = {}
    for item in memory.items.values():
        if len(found) == len(wanted):
            break
        if not item.nl:
            continue
        for const in set(getattr(item.clause, "args", ())) & wanted.keys() - found.keys():
            match = wanted[const].search(item.nl)
            if match:
                found[const] = f"the {match.group(2)}" if match.group(1) else match.group(2)
    return found
