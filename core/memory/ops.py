"""Whole-memory operations built on `WorkingMemory`'s own add / remove: restoring the items a
session ended with. Each takes the memory explicitly and changes nothing when it fails.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sym.core.logic.terms import Atom, Query, Rule
    from sym.core.memory.working import WorkingMemory


def resumable(items: dict[str, dict[str, Any]], *, source: str) -> list[tuple[Atom | Rule | Query, str]]:
    """(clause, source) pairs for `items` (id -> a session's memory event: text, source); `source`
    names where the texts come from, for parse errors. Raises UserError when a text does not
    parse or the rules cannot be stratified, so a resume is refused before anything changes."""
    from sym.core.logic.parser import parse_program
    from sym.core.logic.strata import stratify
    from sym.core.logic.terms import Rule
    from sym.core.memory.working import SOFT

    clauses = parse_program("\n".join(e["text"] for e in items.values()), source=source) if items else []
    wanted = [(loc.clause, e.get("source", "resumed")) for loc, e in zip(clauses, items.values())]
    stratify([c for c, src in wanted if isinstance(c, Rule) and c.head is not None
              and not str(src).startswith(SOFT)])
    return wanted


def restore(memory: WorkingMemory, wanted: list[tuple[Atom | Rule | Query, str]],
            keep: set[str] | dict[str, Any]) -> tuple[int, int]:
    """Make `memory` hold exactly `wanted` (from `resumable`): items whose id is not in `keep`
    go, the wanted clauses are added. Returns (items added, items removed); a failed add puts
    back what was removed."""
    extra = [i for i in memory.items if i not in keep]
    removed = memory.remove(extra)
    try:
        outcome = memory.add(wanted, merge="off")
    except BaseException:   # put back what was removed: a failed resume changes nothing
        for it in removed:
            memory.add([(it.clause, it.source)], nl=it.nl, merge="off")
        raise
    return len(outcome.items), len(extra)
