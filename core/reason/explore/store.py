"""Putting an exploration into the working memory: its Horn program as propositional facts,
rules and constraints, sourced `explore:RUN`. The memory is passed in; nothing else is touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sym.core.logic.terms import Atom, Rule
from sym.core.reason.explore.program import CONSTRAINT, FAIL

if TYPE_CHECKING:
    from sym.core.logic.terms import Atom, Rule
    from sym.core.memory.working import AddOutcome, WorkingMemory
    from sym.core.reason.explore.recursor import Exploration


def exploration_clauses(exploration: Exploration) -> list[tuple[Atom | Rule, str]]:
    """(clause, source) pairs for the program's clauses (failing clauses add nothing)."""
    source = f"explore:{exploration.run}"
    clauses: list[tuple[Atom | Rule, str]] = []
    for c in exploration.program.clauses:
        if c.kind == FAIL:
            continue
        body = tuple(Atom(b) for b in c.body)
        if c.kind == CONSTRAINT:
            clauses.append((Rule(None, body), source))
            continue
        assert c.head is not None   # only a constraint has none
        if body:
            clauses.append((Rule(Atom(c.head), body), source))
        else:
            clauses.append((Atom(c.head), source))
    return clauses


def add_exploration(memory: WorkingMemory, exploration: Exploration) -> AddOutcome:
    """Assert the exploration's program in `memory` (all or nothing); its AddOutcome."""
    return memory.add(exploration_clauses(exploration), merge="off")
