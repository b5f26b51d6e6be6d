"""Terms of the logic language: constants, variables, atoms, literals, clauses.

Datalog semantics: arguments are constants (str atoms, int/float numbers) or variables,
never compound terms. This room only represents and prints; parsing lives in `parser`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

Const = str | int | float

_BARE_ATOM = re.compile(r"[^\W\dA-Z_\u00C0-\u00D6\u00D8-\u00DE\u0391-\u03A9\u0410-\u042F]\w*\Z")   # as grammar.lark's NAME
RESERVED = frozenset({"not", "false"})


@dataclass(frozen=True, slots=True)
class Var:
    """A logic variable: starts with an upper-case letter or `_`."""

    name: str

    def __str__(self) -> str:
        return format_term(self)


Term = Const | Var


def format_const(value: Const) -> str:
    """Print a constant so that the parser reads it back as the same constant."""
    if isinstance(value, bool):  # bool is an int subclass; never a logic constant
        raise TypeError("booleans are not logic constants")
    if isinstance(value, (int, float)):
        return repr(value)
    if _BARE_ATOM.match(value) and value not in RESERVED:
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


ANONYMOUS_PREFIX = "_#"


def is_anonymous(var: Var) -> bool:
    """`_` in the source: the parser names each occurrence `_#1`, `_#2`, … (names no user can
    write) to keep them distinct."""
    return var.name.startswith(ANONYMOUS_PREFIX)


def format_term(term: Term) -> str:
    if isinstance(term, Var):
        return "_" if is_anonymous(term) else term.name
    return format_const(term)


class Atom(NamedTuple):
    """`pred(args…)`, or its strong negation `~pred(args…)` when `neg` is set.

    A named tuple rather than a dataclass: programs hold millions of atoms and a tuple is
    several times cheaper to build."""

    pred: str
    args: tuple[Any, ...] = ()
    neg: bool = False

    @property
    def key(self) -> str:
        """The relation this atom belongs to, e.g. `father_of/2` or `~green/1`."""
        return relation_key(self.pred, len(self.args), self.neg)

    @property
    def is_ground(self) -> bool:
        return not any(isinstance(a, Var) for a in self.args)

    def variables(self) -> list[Var]:
        return [a for a in self.args if isinstance(a, Var)]

    def negate(self) -> Atom:
        """The complementary literal under strong negation."""
        return Atom(self.pred, self.args, not self.neg)

    def __str__(self) -> str:
        head = ("~" if self.neg else "") + format_const(self.pred)
        if not self.args:
            return head
        return f"{head}({', '.join(format_term(a) for a in self.args)})"


def relation_key(pred: str, arity: int, neg: bool = False) -> str:
    return f"{'~' if neg else ''}{pred}/{arity}"


@dataclass(frozen=True, slots=True)
class Naf:
    """Negation as failure: `not atom` holds when the atom is not derivable."""

    atom: Atom

    def variables(self) -> list[Var]:
        return self.atom.variables()

    def __str__(self) -> str:
        return f"not {self.atom}"


COMPARISONS = ("=", "\\=", "<", ">", "=<", ">=")


@dataclass(frozen=True, slots=True)
class Compare:
    """A built-in comparison between two terms."""

    op: str
    left: Term
    right: Term

    def variables(self) -> list[Var]:
        return [t for t in (self.left, self.right) if isinstance(t, Var)]

    def __str__(self) -> str:
        if self == TRUE_GOAL or self == FAIL_GOAL:
            return str(self.left)
        return f"{format_term(self.left)} {self.op} {format_term(self.right)}"


# The goals `true` and `fail` (`false` in a body) are comparisons of constants: they need no
# relation, schema entry or stratum, and every evaluator already decides them. They print back
# as `true` and `fail`.
TRUE_GOAL = Compare("=", "true", "true")
FAIL_GOAL = Compare("\\=", "fail", "fail")

Literal = Atom | Naf | Compare


def literal_atoms(body: tuple[Literal, ...]) -> list[Atom]:
    """The positive atoms of a body (the ones that bind variables)."""
    return [lit for lit in body if isinstance(lit, Atom)]


@dataclass(frozen=True, slots=True)
class Rule:
    """`head :- body.`; a rule with no head is an integrity constraint (`:- body.`)."""

    head: Atom | None
    body: tuple[Literal, ...]

    @property
    def is_constraint(self) -> bool:
        return self.head is None

    def __str__(self) -> str:
        body = ", ".join(str(lit) for lit in self.body)
        return f":- {body}." if self.head is None else f"{self.head} :- {body}."


@dataclass(frozen=True, slots=True)
class Query:
    """`?- body.` — a conjunction to answer against the model."""

    body: tuple[Literal, ...]

    def variables(self) -> list[Var]:
        """Named variables in order of first appearance (anonymous `_…` ones left out)."""
        seen: dict[Var, None] = {}
        for lit in self.body:
            for v in lit.variables():
                if not v.name.startswith("_"):
                    seen.setdefault(v)
        return list(seen)

    @property
    def is_ground(self) -> bool:
        return not any(lit.variables() for lit in self.body)

    def __str__(self) -> str:
        return "?- " + ", ".join(str(lit) for lit in self.body) + "."


class Located(NamedTuple):
    """A parsed clause with where it came from (for error messages and item sources)."""

    clause: Atom | Rule | Query
    line: int
    column: int = 1


def clause_atoms(clause: Atom | Rule | Query) -> list[Atom]:
    """Every atom a clause mentions: the head, positive and negated body atoms (not comparisons)."""
    if isinstance(clause, Atom):
        return [clause]
    head = [clause.head] if isinstance(clause, Rule) and clause.head is not None else []
    return head + [lit.atom if isinstance(lit, Naf) else lit for lit in clause.body if not isinstance(lit, Compare)]


def clause_text(clause: Atom | Rule | Query) -> str:
    """The canonical text of a clause, as the parser would read it back."""
    return f"{clause}." if isinstance(clause, Atom) else str(clause)
