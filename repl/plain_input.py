"""Plain input read without building the grammar: lines of ground facts (`p(a, 3).`) and a query of
one atom (`?- parent_of(p1, X).`). Building the Lark parser costs a start-up 0.2-0.4 s, more than
the rest of a one-line script; what these readers do not take (None) goes to the parser, which
reads the same input as the same clauses (tests/shell/test_plain_input.py compares them).
"""

from __future__ import annotations

import re

from sym.core.logic.parser import _fast_fact
from sym.core.logic.terms import Atom, Located, Query, Var

# the grammar's keywords, which it reads as operators (or refuses) where a name would be
_WORDS = frozenset({"not", "false", "is", "mod", "rem", "aggregate_all", "true", "fail"})
_S = r"[ \t]*"
_ARG = r"(?:[a-z][A-Za-z0-9_]*|[A-Z][A-Za-z0-9_]*|[0-9]{1,18})"
_QUERY = re.compile(rf"{_S}(?:\?-{_S})?([a-z][A-Za-z0-9_]*)\({_S}({_ARG}(?:{_S},{_S}{_ARG})*){_S}\){_S}\.?{_S}\Z")


def plain_facts(text: str, line_offset: int = 0) -> list[Located] | None:
    """Every clause of `text` when each of its lines is a plain ground fact starting the line, or
    blank; else None."""
    out = []
    for n, line in enumerate(text.split("\n"), start=1 + line_offset):
        if not line or line.isspace():
            continue
        if line[0] in " \t\r\f":
            return None              # (the parser would place the clause at its column)
        fact = _fast_fact(line)
        if fact is None:
            return None
        out.append(Located(fact, n, 1))
    return out


def plain_query(text: str) -> Query | None:
    """`?- name(arg, …).` whose arguments are atoms, variables (not `_…`) and natural numbers, as
    the parser reads it; else None."""
    m = _QUERY.match(text)
    if m is None:
        return None
    name, raw = m.groups()
    parts = [p.strip(" \t") for p in raw.split(",")]
    if name in _WORDS or _WORDS.intersection(parts):
        return None
    args = tuple(Var(p) if p[0].isupper() else int(p) if p[0].isdigit() else p for p in parts)
    return Query((Atom(name, args),))
