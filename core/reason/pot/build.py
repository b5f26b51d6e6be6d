"""A loaded program's expressions → Z3 terms, from a whitelist, with type checking.

Every name is looked up among what the program declared (sorts, constants, functions,
variables); every operator comes from a fixed table. Errors name the JSON path, the column
and the problem: undefined symbol, arity, sort mismatch, unbound variable.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from sym.core.errors import UserError
from sym.core.reason.pot.declare import BuildError, Env, declare, is_bool, is_numeric, sort_name, variable_sorts
from sym.core.reason.pot.expr import Binders, BinOp, Call, Expr, Name, Neg, Num, parse_expr
from sym.core.reason.pot.schema import Assertion, Implication, Program, Variable

if TYPE_CHECKING:
    from z3 import ArithRef, BoolRef, Context, ExprRef, SortRef  # z3 ships no type information: to mypy these are Any

MAX_SUM_TERMS = 10_000
ARITH = {"+", "-", "*", "/", "%"}
ORDER = {"<", "<=", ">", ">="}


@dataclass
class Verification:
    name: str
    where: str
    quantifier: str | None          # "forall" | "exists" | None
    bound: list[ExprRef]            # z3 constants the quantifier binds
    body: BoolRef                   # over `bound`
    binder_names: list[str]

    @property
    def formula(self) -> BoolRef:
        import z3

        if not self.bound:
            return self.body
        return (z3.ForAll if self.quantifier == "forall" else z3.Exists)(self.bound, self.body)


@dataclass
class Objective:
    kind: str                       # minimize | maximize
    text: str
    term: ArithRef


@dataclass
class Built:
    env: Env
    background: list[tuple[str, BoolRef]]     # knowledge base entries and rules
    verifications: list[Verification]
    constraints: list[tuple[str, BoolRef]] = field(default_factory=list)     # optimization constraints (label, term)
    objectives: list[Objective] = field(default_factory=list)
    decisions: dict[str, ExprRef] = field(default_factory=dict)       # optimization variable name -> z3 const
    has_optimization: bool = False
    order: dict[str, int] | None = None       # core label -> rank (SMT-LIB scripts: the source's order)


class Builder:
    """Builds the expressions of one JSON entry; `local` holds that entry's declared variables."""

    def __init__(self, env: Env, where: str, local: dict[str, Any] | None = None, free: dict[str, Any] | None = None) -> None:
        self.env, self.where = env, where
        self.local = local or {}          # extra declared variables (entry-local, optimization)
        self.free = free or {}            # names usable without a binder (optimization decision variables)
        self.repeats = 1                  # how often the term being built is built: product of enclosing Sums

    def fail(self, col: int, problem: str, hint: str | None = None) -> NoReturn:
        at = f"column {col}: " if col else ""
        raise BuildError(f"{self.where}: {at}{problem}", hint=hint)

    def formula(self, text: str, scope: dict[str, Any] | None = None) -> BoolRef:
        term = self.term(parse_expr(text, self.where), dict(scope or {}))
        if not is_bool(term.sort()):
            self.fail(1, f"expected a true/false formula, got a term of sort {sort_name(term.sort())}")
        return term

    def numeric(self, text: str, scope: dict[str, Any] | None = None) -> ArithRef:
        term = self.term(parse_expr(text, self.where), dict(scope or {}))
        if not is_numeric(term.sort()):
            self.fail(1, f"expected a number, got a term of sort {sort_name(term.sort())}")
        return term

    # -- terms -------------------------------------------------------------------

    def term(self, node: Expr, scope: dict[str, Any]) -> ExprRef:
        import z3

        ctx = self.env.ctx
        if isinstance(node, Num):
            return z3.IntVal(node.text, ctx) if node.is_int else z3.RealVal(node.text, ctx)
        if isinstance(node, Name):
            return self.name(node, scope)
        if isinstance(node, Neg):
            inner = self.term(node.operand, scope)
            if not is_numeric(inner.sort()):
                self.fail(node.col, f"cannot negate a term of sort {sort_name(inner.sort())}")
            return -inner
        if isinstance(node, BinOp):
            return self.binop(node, scope)
        if isinstance(node, Binders):
            self.fail(node.col, "a variable list [...] only goes first in ForAll, Exists or Sum")
        assert isinstance(node, Call)
        special = _SPECIAL.get(node.fn)
        if special is not None:
            return special(self, node, scope)
        return self.apply(node, scope)

    def name(self, node: Name, scope: dict[str, Any]) -> ExprRef:
        import z3

        n = node.name
        if n in scope:
            return scope[n]
        if n in ("True", "False"):
            return z3.BoolVal(n == "True", self.env.ctx)
        if n in self.env.constants:
            return self.env.constants[n]
        if n in self.free:
            return self.free[n]
        if n in self.env.functions:
            decl, domain, _ = self.env.functions[n]
            if domain:
                self.fail(node.col, f"{n} takes {len(domain)} argument(s), used without any")
            return decl
        if n in self.local or n in self.env.variables:
            self.fail(node.col, f"unbound variable {n}", hint=f"bind it: ForAll([{n}], …) or Exists([{n}], …)")
        self.fail(node.col, f"undefined symbol {n}", hint="declare it under constants, functions or variables")

    def apply(self, node: Call, scope: dict[str, Any]) -> ExprRef:
        env = self.env
        if node.fn not in env.functions:
            if node.fn in env.variables or node.fn in scope:
                self.fail(node.col, f"unbound variable {node.fn}", hint="declare it under functions")
            self.fail(node.col, f"undefined function {node.fn}", hint=self._declaration_hint(node, scope))
        decl, domain, _ = env.functions[node.fn]
        if len(node.args) != len(domain):
            self.fail(node.col, f"{node.fn} takes {len(domain)} argument(s), got {len(node.args)}")
        if not domain:
            return decl
        args = [self.coerce(self.term(a, scope), s, a, f"argument {i + 1} of {node.fn}")
                for i, (a, s) in enumerate(zip(node.args, domain))]
        return decl(*args)

    def _declaration_hint(self, node: Call, scope: dict[str, Any]) -> str:
        """How to declare a function the program calls without declaring: the declaration its
        arguments' sorts give, as a true/false property, for the model to copy (or to correct)."""
        try:
            sorts = [_json_sort(self.term(a, scope).sort()) for a in node.args]
        except UserError:         # an argument that does not build either: the plain advice
            return "declare it under functions"
        if not sorts:
            return "declare it under functions"
        declaration = json.dumps({"name": node.fn, "domain": sorts, "range": "BoolSort"})
        return f"declare it under functions, e.g. {declaration} if it is a true/false property"

    def coerce(self, term: ExprRef, sort: SortRef, node: Expr, what: str) -> ExprRef:
        import z3

        if term.sort() == sort:
            return term
        if sort.kind() == z3.Z3_REAL_SORT and term.sort().kind() == z3.Z3_INT_SORT:
            return z3.ToReal(term)
        self.fail(getattr(node, "col", 0), f"sort mismatch: {what} is {sort_name(sort)}, "
                                           f"got {sort_name(term.sort())}")

    def binop(self, node: BinOp, scope: dict[str, Any]) -> ExprRef:
        import z3

        left, right = self.term(node.left, scope), self.term(node.right, scope)
        ls, rs = left.sort(), right.sort()
        if node.op in ARITH or node.op in ORDER:
            for t, side in ((ls, "left"), (rs, "right")):
                if not is_numeric(t):
                    self.fail(node.col, f"sort mismatch: {node.op} needs numbers, the {side} side is {sort_name(t)}")
            if node.op == "%" and (ls.kind() != z3.Z3_INT_SORT or rs.kind() != z3.Z3_INT_SORT):
                self.fail(node.col, "% needs integers")
        elif ls != rs and not (is_numeric(ls) and is_numeric(rs)):
            self.fail(node.col, f"sort mismatch: cannot compare {sort_name(ls)} with {sort_name(rs)}")
        return _OPS[node.op](left, right)

    # -- binders -----------------------------------------------------------------

    def binders(self, node: Expr, scope: dict[str, Any], body: Expr | None = None) -> tuple[list[str], list[ExprRef]]:
        """Names and Z3 constants for a binder list: declared variables, inline {'name', 'sort'}, or
        a name whose sort its `body` settles (every place it is an argument wants the same sort)."""
        if not isinstance(node, Binders):
            self.fail(getattr(node, "col", 0), "expected a variable list such as [x, y] first")
        if not node.items:
            self.fail(node.col, "empty variable list")
        names: list[str] = []
        consts: list[ExprRef] = []
        for name, given, col in node.items:
            if given is not None:
                if given not in self.env.sorts:
                    self.fail(col, f"undefined sort {given!r}")
                sort = self.env.sorts[given]
            elif name in self.local:
                sort = self.local[name]
            elif name in self.env.variables:
                sort = self.env.variables[name]
            else:
                wanted = self.argument_sorts(name, body) if body is not None else []
                named = sorted({sort_name(w) for w in wanted})
                if len(named) != 1:
                    used = f" (it is used as {' and '.join(named)})" if named else ""
                    self.fail(col, f"{name} is not a declared variable{used}",
                              hint=f"declare it under variables, or write {{'name': '{name}', 'sort': 'S'}}")
                sort = wanted[0]
            names.append(name)
            consts.append(self.env.bound_const(name, sort))
        return names, consts

    def argument_sorts(self, name: str, node: Expr) -> list[Any]:
        """The sorts the declared functions want where `name` is one of their arguments in `node`
        (not below a binder that binds `name` again)."""
        out: list[Any] = []
        if isinstance(node, Call):
            if node.fn in ("ForAll", "Exists", "Sum") and node.args and isinstance(node.args[0], Binders) \
                    and name in [item[0] for item in node.args[0].items]:
                return out
            domain = self.env.functions[node.fn][1] if node.fn in self.env.functions else []
            for i, a in enumerate(node.args):
                if isinstance(a, Name) and a.name == name and i < len(domain):
                    out.append(domain[i])
                out += self.argument_sorts(name, a)
        elif isinstance(node, BinOp):
            out += self.argument_sorts(name, node.left) + self.argument_sorts(name, node.right)
        elif isinstance(node, Neg):
            out += self.argument_sorts(name, node.operand)
        return out


def _bools(b: Builder, node: Call, scope: dict[str, Any], lo: int, hi: int | None) -> list[BoolRef]:
    n = len(node.args)
    if n < lo or (hi is not None and n > hi):
        want = f"{lo}" if hi == lo else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
        b.fail(node.col, f"{node.fn} takes {want} argument(s), got {n}")
    out: list[BoolRef] = []
    for i, a in enumerate(node.args):
        t = b.term(a, scope)
        if not is_bool(t.sort()):
            b.fail(getattr(a, "col", node.col), f"sort mismatch: argument {i + 1} of {node.fn} must be true/false, "
                                                f"got {sort_name(t.sort())}")
        out.append(t)
    return out


def _and(b: Builder, node: Call, scope: dict[str, Any]) -> BoolRef:
    import z3

    args = _bools(b, node, scope, 0, None)
    if not args:
        return z3.BoolVal(True, b.env.ctx)
    return z3.And(*args) if len(args) > 1 else args[0]


def _or(b: Builder, node: Call, scope: dict[str, Any]) -> BoolRef:
    import z3

    args = _bools(b, node, scope, 0, None)
    if not args:
        return z3.BoolVal(False, b.env.ctx)
    return z3.Or(*args) if len(args) > 1 else args[0]


def _not(b: Builder, node: Call, scope: dict[str, Any]) -> BoolRef:
    import z3

    return z3.Not(_bools(b, node, scope, 1, 1)[0])


def _implies(b: Builder, node: Call, scope: dict[str, Any]) -> BoolRef:
    import z3

    return z3.Implies(*_bools(b, node, scope, 2, 2))


def _xor(b: Builder, node: Call, scope: dict[str, Any]) -> BoolRef:
    import z3

    return z3.Xor(*_bools(b, node, scope, 2, 2))


def _if(b: Builder, node: Call, scope: dict[str, Any]) -> ExprRef:
    import z3

    if len(node.args) != 3:
        b.fail(node.col, f"If takes 3 arguments, got {len(node.args)}")
    cond = _bools(b, Call("If", node.args[:1], node.col), scope, 1, 1)[0]
    then, other = b.term(node.args[1], scope), b.term(node.args[2], scope)
    if then.sort() != other.sort() and not (is_numeric(then.sort()) and is_numeric(other.sort())):
        b.fail(node.col, f"sort mismatch: If branches are {sort_name(then.sort())} and {sort_name(other.sort())}")
    return z3.If(cond, then, other)


def _distinct(b: Builder, node: Call, scope: dict[str, Any]) -> BoolRef:
    import z3

    if len(node.args) < 2:
        b.fail(node.col, f"Distinct takes at least 2 arguments, got {len(node.args)}")
    terms = [b.term(a, scope) for a in node.args]
    first = terms[0].sort()
    for a, t in zip(node.args[1:], terms[1:]):
        if t.sort() != first and not (is_numeric(t.sort()) and is_numeric(first)):
            b.fail(getattr(a, "col", node.col), f"sort mismatch: Distinct mixes {sort_name(first)} and "
                                                f"{sort_name(t.sort())}")
    return z3.Distinct(*terms)


def _quantifier(b: Builder, node: Call, scope: dict[str, Any]) -> BoolRef:
    import z3

    if len(node.args) != 2:
        b.fail(node.col, f"{node.fn} takes a variable list and a formula, got {len(node.args)} argument(s)")
    names, consts = b.binders(node.args[0], scope, node.args[1])
    inner = {**scope, **dict(zip(names, consts))}
    body = b.term(node.args[1], inner)
    if not is_bool(body.sort()):
        b.fail(node.col, f"the body of {node.fn} must be true/false, got {sort_name(body.sort())}")
    return (z3.ForAll if node.fn == "ForAll" else z3.Exists)(consts, body)


def _sum(b: Builder, node: Call, scope: dict[str, Any]) -> ArithRef:
    import z3

    if not node.args:
        b.fail(node.col, "Sum takes a variable list and a term, or terms to add")
    if not isinstance(node.args[0], Binders):
        terms = [b.term(a, scope) for a in node.args]
        for a, t in zip(node.args, terms):
            if not is_numeric(t.sort()):
                b.fail(getattr(a, "col", node.col), f"sort mismatch: Sum adds numbers, got {sort_name(t.sort())}")
        return z3.Sum(*terms) if len(terms) > 1 else terms[0]
    if len(node.args) != 2:
        b.fail(node.col, "Sum([vars], term) takes a variable list and one term")
    names, consts = b.binders(node.args[0], scope, node.args[1])
    domains: list[list[ExprRef]] = []
    for name, c in zip(names, consts):
        sort = c.sort()
        if is_bool(sort):
            domains.append([z3.BoolVal(True, b.env.ctx), z3.BoolVal(False, b.env.ctx)])
        elif is_numeric(sort):
            b.fail(node.args[0].col, f"Sum ranges over a finite sort; {name} is {sort_name(sort)}")
        else:
            domains.append([b.env.constants[m] for m in b.env.members.get(sort_name(sort), [])])
    size = 1
    for d in domains:
        size *= len(d)
    total = size * b.repeats            # a Sum inside a Sum is expanded once per outer term
    if total > MAX_SUM_TERMS or b.env.expanded + total > MAX_SUM_TERMS:
        b.fail(node.col, f"Sum would expand to {total:,} terms; a program may expand at most {MAX_SUM_TERMS:,}",
               hint="sum over smaller sorts, or state the total with a function")
    b.env.expanded, outer, b.repeats, terms = b.env.expanded + size, b.repeats, max(1, total), []
    for combo in itertools.product(*domains):   # (a failure ends the whole build: no need to restore)
        t = b.term(node.args[1], {**scope, **dict(zip(names, combo))})
        if not is_numeric(t.sort()):
            b.fail(node.col, f"sort mismatch: Sum adds numbers, got {sort_name(t.sort())}")
        terms.append(t)
    b.repeats = outer
    if not terms:
        return z3.IntVal(0, b.env.ctx)
    return z3.Sum(*terms) if len(terms) > 1 else terms[0]


def _json_sort(sort: SortRef) -> str:
    """A Z3 sort as a program names it: IntSort, RealSort, BoolSort, or the declared sort's name."""
    name = sort_name(sort)
    return {"Int": "IntSort", "Real": "RealSort", "Bool": "BoolSort"}.get(name, name)


_SPECIAL: dict[str, Callable[[Builder, Call, dict[str, Any]], ExprRef]] = {
    "And": _and, "Or": _or, "Not": _not, "Implies": _implies, "Xor": _xor, "If": _if,
    "Distinct": _distinct, "ForAll": _quantifier, "Exists": _quantifier, "Sum": _sum}

_OPS: dict[str, Callable[[ExprRef, ExprRef], ExprRef]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "%": lambda a, b: a % b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _quantified(b: Builder, variables: list[Variable], implies: Implication | None, constraint: str | None, where: str,
                kind: str) -> tuple[list[str], list[ExprRef], BoolRef]:
    """(names, bound consts, body) for a rule or verification with forall/exists + implies/constraint."""
    import z3

    decls = variable_sorts(b.env, variables, f"{where}.{kind}")
    names = list(decls)
    consts = [b.env.bound_const(n, s) for n, s in decls.items()]
    scope = dict(zip(names, consts))
    if implies is not None:
        b.where = f"{where}.implies.antecedent"
        ante = b.formula(implies.antecedent, scope)
        b.where = f"{where}.implies.consequent"
        body = z3.Implies(ante, b.formula(implies.consequent, scope))
    else:
        b.where = f"{where}.constraint"
        assert constraint is not None     # the schema asks for `implies` or `constraint`
        body = b.formula(constraint, scope)
    return names, consts, body


def build(program: Program, z3_context: Context | None = None) -> Built:
    """Declare and build every expression of a program (in `z3_context`, a fresh one by default);
    raises BuildError on the first problem."""
    import z3

    env = declare(program, z3_context)
    background: list[tuple[str, BoolRef]] = []
    for i, entry in enumerate(program.knowledge_base):
        where = f"knowledge_base[{i}]"
        if isinstance(entry, Assertion):
            local = variable_sorts(env, entry.variables, f"{where}.variables")
            f = Builder(env, f"{where}.assertion", local).formula(entry.assertion)
            background.append((where, f if entry.value else z3.Not(f)))
        else:
            background.append((where, Builder(env, where).formula(entry)))
    for i, rule in enumerate(program.rules):
        where = f"rules[{i}]"
        names, consts, body = _quantified(Builder(env, where), rule.forall, rule.implies, rule.constraint,
                                          where, "forall")
        label = f"{where} {rule.name}".rstrip()
        background.append((label, z3.ForAll(consts, body) if consts else body))
    verifications: list[Verification] = []
    for i, v in enumerate(program.verifications):
        where = f"verifications[{i}]"
        kind = "exists" if v.exists else "forall"
        names, consts, body = _quantified(Builder(env, where), v.exists or v.forall, v.implies, v.constraint,
                                          where, kind)
        verifications.append(Verification(v.name or where, where, kind if consts else None, consts, body, names))
    built = Built(env, background, verifications)
    opt = program.optimization
    if opt is not None:
        built.has_optimization = True
        decls = variable_sorts(env, opt.variables, "optimization.variables")
        built.decisions = {n: env.bound_const(n, s) for n, s in decls.items()}
        for i, text in enumerate(opt.constraints):
            where = f"optimization.constraints[{i}]"
            built.constraints.append((where, Builder(env, where, decls, built.decisions).formula(text)))
        for i, o in enumerate(opt.objectives):
            where = f"optimization.objectives[{i}].expression"
            built.objectives.append(Objective(o.type, o.expression,
                                              Builder(env, where, decls, built.decisions).numeric(o.expression)))
    return built


def entry_texts(program: Program) -> dict[str, str]:
    """Each knowledge-base entry and rule as the program wrote it, keyed by the label `build`
    gives it (what an unsat core names): `knowledge_base[2]` -> `Not(Wearing(carol, hardHat))`."""
    out: dict[str, str] = {}
    for i, entry in enumerate(program.knowledge_base):
        if isinstance(entry, Assertion):
            text = entry.assertion if entry.value else f"Not({entry.assertion})"
            out[f"knowledge_base[{i}]"] = f"{entry.name}: {text}" if entry.name else text
        else:
            out[f"knowledge_base[{i}]"] = entry
    for i, rule in enumerate(program.rules):
        body = (f"Implies({rule.implies.antecedent}, {rule.implies.consequent})" if rule.implies is not None
                else rule.constraint or "")
        if rule.forall:
            body = f"ForAll([{', '.join(v.name for v in rule.forall)}], {body})"
        out[f"rules[{i}] {rule.name}".rstrip()] = f"{rule.name}: {body}" if rule.name else body
    return out
