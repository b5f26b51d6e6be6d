"""Names in the user's words: schema templates for the predicates the grammar introduces, and
how a constant was written ("the mouse", "Rex", "Box 1") for answers. Reads memory, writes only
the schema's templates."""

from __future__ import annotations

import re

from core.logic.terms import Atom
from core.reason.swm import english


def name_predicates(memory, clauses) -> None:
    """Predicates the grammar introduced get the template it reads them by ("{0} is afraid of {1}")."""
    atoms = [a for c in clauses for a in ([c] if isinstance(c, Atom) else [c.head, *c.body]) if isinstance(a, Atom)]
    changed = False
    for atom in atoms:
        pred = memory.schema.predicates.get(f"{atom.pred}/{len(atom.args)}")
        template = english.template_for(atom.pred, len(atom.args)) if pred is not None and not pred.template else None
        if template:
            memory.schema.set_template(pred.key, template)
            changed = True
    if changed and memory.store is not None:
        from core.memory.persist import save_schema

        save_schema(memory.store, memory.schema)


def written(memory, const) -> str | None:
    """How the user wrote a thing, from a sentence that mentions it: "the mouse", "Rex"; None
    when no stored sentence does."""
    words = str(const).replace("_", " ")
    pattern = re.compile(r"\b(the\s+)?(" + re.escape(words) + r")\b", re.I)
    for item in memory.items.values():
        if item.nl and const in getattr(item.clause, "args", ()):
            found = pattern.search(item.nl)
            if found:
                return f"the {found.group(2)}" if found.group(1) else found.group(2)
    return None
