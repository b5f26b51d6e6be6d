"""Putting an exploration into the working memory: its Horn program as propositional facts,
rules and constraints, sourced `explore:RUN`. The memory is passed in; nothing else is touched.
"""

from __future__ import annotations

from core.reason.explore.program import CONSTRAINT, FAIL


def exploration_clauses(exploration) -> list[tuple[object, str]]:
    """(clause, source) pairs for the program's clauses (failing clauses add nothing)."""
    from core.logic.terms import Atom, Rule

    source = f"explore:{exploration.run}"
    clauses: list[tuple[object, str]] = []
    for c in exploration.program.clauses:
        if c.kind == FAIL:
            continue
        body = tuple(Atom(b) for b in c.body)
        if c.kind == CONSTRAINT:
            clauses.append((Rule(None, body), source))
        elif body:
            clauses.append((Rule(Atom(c.head), body), source))
        else:
            clauses.append((Atom(c.head), source))
    return clauses


def add_exploration(memory, exploration):
    """Assert the exploration's program in `memory` (all or nothing); its AddOutcome."""
    return memory.add(exploration_clauses(exploration), merge="off")
