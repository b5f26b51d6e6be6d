"""Terms of the logic language: constants, variables, atoms, literals, clauses.

Datalog semantics: arguments are constants (str atoms, int/float numbers) or variables,
never compound terms. This room only represents and prints; parsing lives in `parser`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
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


@lru_cache(maxsize=1 << 16, typed=True)    # programs print the same names over and over
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


# -- numbers: arithmetic expressions, `is`, arithmetic comparisons, aggregates ----------------

# binary operators as SWI-Prolog writes and ranks them (a higher rank binds looser)
BINARY = {"+": 500, "-": 500, "*": 400, "/": 400, "//": 400, "mod": 400, "rem": 400, "**": 200, "^": 200}
FUNCTIONS = {"abs": 1, "min": 2, "max": 2, "sign": 1}     # evaluable functions, by arity
ARITH_COMPARISONS = ("=:=", "=\\=", "<", ">", "=<", ">=")


@dataclass(frozen=True, slots=True)
class Arith:
    """An arithmetic expression `op(args…)`: a binary operator, unary `-`, or a function (abs,
    min, max, sign). Its leaves are numbers and variables. Evaluated only where `is` or an
    arithmetic comparison asks for it (`arith`); never stored in a fact."""

    op: str
    args: tuple[Any, ...]

    def variables(self) -> list[Var]:
        return expr_variables(self)

    def __str__(self) -> str:
        return format_expr(self)


Expr = Const | Var | Arith


def expr_variables(expr: Any) -> list[Var]:
    """The variables of an expression, in order, with repeats."""
    if isinstance(expr, Var):
        return [expr]
    if isinstance(expr, Arith):
        return [v for a in expr.args for v in expr_variables(a)]
    return []


def _rank(expr: Any) -> int:
    if isinstance(expr, Arith):
        if len(expr.args) == 2 and expr.op in BINARY:
            return BINARY[expr.op]
        if expr.op == "-" and len(expr.args) == 1:
            return 200
    return 0


def format_expr(expr: Any) -> str:
    """An expression as SWI-Prolog reads it back (parentheses only where the ranks need them)."""
    if not isinstance(expr, Arith):
        return format_term(expr)
    if expr.op in BINARY and len(expr.args) == 2:
        rank = BINARY[expr.op]
        left, right = expr.args
        # left-associative (yfx), but for ** (xfx) and ^ (xfy)
        lmax = rank - 1 if expr.op in ("**", "^") else rank
        rmax = rank if expr.op == "^" else rank - 1
        ls, rs = format_expr(left), format_expr(right)
        if _rank(left) > lmax:
            ls = f"({ls})"
        if _rank(right) > rmax or (isinstance(right, (int, float)) and right < 0):
            rs = f"({rs})"
        return f"{ls} {expr.op} {rs}"
    if expr.op == "-" and len(expr.args) == 1:
        (arg,) = expr.args
        inner = format_expr(arg)
        return f"-({inner})" if _rank(arg) or isinstance(arg, (int, float)) else f"-{inner}"
    return f"{expr.op}({', '.join(format_expr(a) for a in expr.args)})"


@dataclass(frozen=True, slots=True)
class Is:
    """`X is Expr`: X is the value of the expression (bound by it, or compared with it)."""

    target: Any
    expr: Any

    def variables(self) -> list[Var]:
        return expr_variables(self.target) + expr_variables(self.expr)

    def __str__(self) -> str:
        return f"{format_term(self.target)} is {format_expr(self.expr)}"


@dataclass(frozen=True, slots=True)
class Eval:
    """An arithmetic comparison: both sides evaluated, compared as numbers (`=:=`, `=\\=`, `<`, …).
    A comparison of plain terms with no arithmetic stays a `Compare`."""

    op: str
    left: Any
    right: Any

    def variables(self) -> list[Var]:
        return expr_variables(self.left) + expr_variables(self.right)

    def __str__(self) -> str:
        return f"{format_expr(self.left)} {self.op} {format_expr(self.right)}"


AGGREGATES = ("count", "sum", "max", "min")


@dataclass(frozen=True, slots=True)
class Aggregate:
    """`aggregate_all(Spec, Goal, Result)` as SWI-Prolog has it: count, sum(E), max(E), min(E),
    max(E, W), min(E, W) over the solutions of `goal`, per binding of its outer variables (those
    it shares with the rest of the clause, bound before it). `witness` is W of max(E, W), and
    `found` the W' of its result max(M, W')."""

    op: str
    template: Any            # E (None for count)
    witness: Any             # W of max(E, W) / min(E, W), else None
    goal: tuple[Any, ...]    # the goal's literals (a conjunction)
    result: Any              # N, or M of max(M, W')
    found: Any = None        # W' of max(M, W'), else None

    def inner(self) -> list[Var]:
        """The variables of the goal and the template (outer or local to the aggregate)."""
        out = [v for lit in self.goal for v in lit.variables()]
        return out + expr_variables(self.template) + expr_variables(self.witness)

    def results(self) -> list[Var]:
        return expr_variables(self.result) + expr_variables(self.found)

    def variables(self) -> list[Var]:
        return self.inner() + self.results()

    def outer(self, others: list[Any]) -> list[Var]:
        """The inner variables that also occur in `others` (the clause's other literals)."""
        elsewhere = {v for lit in others if lit is not self for v in lit.variables()}
        return [v for v in dict.fromkeys(self.inner()) if v in elsewhere]

    def spec(self) -> str:
        if self.op == "count":
            return "count"
        if self.witness is not None:
            return f"{self.op}({format_expr(self.template)}, {format_term(self.witness)})"
        return f"{self.op}({format_expr(self.template)})"

    def __str__(self) -> str:
        goal = ", ".join(str(lit) for lit in self.goal)
        goal = f"({goal})" if len(self.goal) != 1 else goal
        result = format_term(self.result)
        if self.found is not None:
            result = f"{self.op}({result}, {format_term(self.found)})"
        return f"aggregate_all({self.spec()}, {goal}, {result})"


def is_numeric(lit: Any) -> bool:
    """Whether a literal computes (arithmetic, an aggregate): the paths that only join and
    compare (numpy columns, the fact queue) leave such rules to the tuple path."""
    return isinstance(lit, (Is, Eval, Aggregate))


def literal_keys(lit: Any) -> list[tuple[str, bool]]:
    """(relation, read whole?) for each relation a literal reads: an atom's own (False), a `not`'s
    or an aggregate's (True: they need the relation finished, a lower stratum)."""
    if isinstance(lit, Atom):
        return [(lit.key, False)]
    if isinstance(lit, Naf):
        return [(lit.atom.key, True)]
    if isinstance(lit, Aggregate):
        return [(key, True) for inner in lit.goal for key, _ in literal_keys(inner)]
    return []


def map_terms(lit: Literal, fn: Any) -> Literal:
    """The literal with `fn` applied to every variable and constant in it (renaming, binding)."""
    def expr(e: Any) -> Any:
        if isinstance(e, Arith):
            return Arith(e.op, tuple(expr(a) for a in e.args))
        return None if e is None else fn(e)

    if isinstance(lit, Atom):
        return Atom(lit.pred, tuple(fn(a) for a in lit.args), lit.neg)
    if isinstance(lit, Naf):
        return Naf(Atom(lit.atom.pred, tuple(fn(a) for a in lit.atom.args), lit.atom.neg))
    if isinstance(lit, Compare):
        return Compare(lit.op, fn(lit.left), fn(lit.right))
    if isinstance(lit, Is):
        return Is(fn(lit.target), expr(lit.expr))
    if isinstance(lit, Eval):
        return Eval(lit.op, expr(lit.left), expr(lit.right))
    assert isinstance(lit, Aggregate)
    return Aggregate(lit.op, expr(lit.template), expr(lit.witness), tuple(map_terms(g, fn) for g in lit.goal),
                     expr(lit.result), expr(lit.found))


# The goals `true` and `fail` (`false` in a body) are comparisons of constants: they need no
# relation, schema entry or stratum, and every evaluator already decides them. They print back
# as `true` and `fail`.
TRUE_GOAL = Compare("=", "true", "true")
FAIL_GOAL = Compare("\\=", "fail", "fail")

Literal = Atom | Naf | Compare | Is | Eval | Aggregate


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
            # an aggregate's own variables are not the query's: only its results and outer ones
            own = lit.results() + lit.outer(list(self.body)) if isinstance(lit, Aggregate) else None
            for v in lit.variables() if own is None else [v for v in lit.variables() if v in own]:
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
    return head + _body_atoms(clause.body)


def _body_atoms(body: tuple[Any, ...]) -> list[Atom]:
    out: list[Atom] = []
    for lit in body:
        if isinstance(lit, Atom):
            out.append(lit)
        elif isinstance(lit, Naf):
            out.append(lit.atom)
        elif isinstance(lit, Aggregate):
            out += _body_atoms(lit.goal)
    return out


def clause_text(clause: Atom | Rule | Query) -> str:
    """The canonical text of a clause, as the parser would read it back."""
    return f"{clause}." if isinstance(clause, Atom) else str(clause)


def rename_predicates(clause: Atom | Rule, renames: dict[tuple[str, int], str]) -> Atom | Rule:
    """The clause with predicates renamed per {(name, arity): new name}, inside aggregates too."""
    def atom(a: Atom) -> Atom:
        new = renames.get((a.pred, len(a.args)))
        return a if new is None else Atom(new, a.args, a.neg)

    def literal(lit: Any) -> Any:
        if isinstance(lit, Aggregate):
            return Aggregate(lit.op, lit.template, lit.witness, tuple(literal(g) for g in lit.goal), lit.result, lit.found)
        return atom(lit) if isinstance(lit, Atom) else Naf(atom(lit.atom)) if isinstance(lit, Naf) else lit

    if isinstance(clause, Atom):
        return atom(clause)
    return Rule(atom(clause.head) if clause.head is not None else None, tuple(literal(lit) for lit in clause.body))
