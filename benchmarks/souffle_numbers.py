"""Soufflé's own tests with numbers, translated into sym's language and run through its engine.

Picks the tests of souffle-lang/souffle (tests/evaluation, tests/semantic) that need only what
sym's logic covers (relations over symbols and numbers, rules, negation, `+ - * / %`, comparisons,
count/sum/min/max aggregates), translates them, runs them and compares every output relation
with Soufflé's expected tuples; every other test is refused with a reason. With --write, the
agreeing ones (small enough for CI) become fixtures under tests/engine/souffle/.

    python benchmarks/souffle_numbers.py [--repo GIT_DIR] [--write] [--verbose]
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_program, parse_query
from sym.core.logic.terms import format_const

REPO = "/work/.mirror/souffle-lang+souffle/repo"
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "engine" / "souffle"
MAX_FIXTURE_FACTS = 3000             # keep the CI run to a few seconds
MAX_FIXTURE_SECONDS = 0.5
MAX_FACTS = 1_000_000                # a test that derives more is reported as differing, not run to the end
SECONDS = 20.0


class Refused(Exception):
    """A test (or a part of it) that sym's language does not cover, with the reason."""


# --- reading Soufflé ------------------------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<num>0x[0-9a-fA-F]+|0b[01]+|\d+\.\d+(?:[eE][-+]?\d+)?|\d+[uU]?)
  | (?P<id>[A-Za-z_?][A-Za-z0-9_?]*(?:\.[A-Za-z_?][A-Za-z0-9_?]*)*)
  | (?P<op>:-|!=|<=|>=|<:|[-+*/%^<>=(){}\[\],.:;!$@|#&~])
""", re.VERBOSE | re.DOTALL)


def tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise Refused(f"unreadable text at {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
    return out


@dataclass(frozen=True)
class V:                     # a Soufflé variable
    name: str


@dataclass(frozen=True)
class Call:                  # an atom, or a functor applied to arguments
    name: str
    args: tuple


@dataclass(frozen=True)
class Op:                    # arithmetic: op in + - * / % ^ neg max min
    op: str
    args: tuple


@dataclass(frozen=True)
class Agg:                   # count / sum / min / max over a body
    op: str
    target: Any
    body: tuple


@dataclass(frozen=True)
class Lit:                   # a body literal: atom, negated atom, or constraint
    kind: str                # "atom", "not", "cmp"
    atom: Call | None = None
    op: str = ""
    left: Any = None
    right: Any = None


ARITH = {"+", "-", "*", "/", "%", "^"}
CMP = {"=", "!=", "<", ">", "<=", ">="}
ANON = V("_")


class Reader:
    """A recursive-descent reader for the part of Soufflé's syntax the translation takes."""

    def __init__(self, toks: list[tuple[str, str]]):
        self.t, self.i = toks, 0

    def peek(self, k: int = 0) -> str:
        return self.t[self.i + k][1] if self.i + k < len(self.t) else ""

    def kind(self) -> str:
        return self.t[self.i][0] if self.i < len(self.t) else ""

    def take(self, want: str | None = None) -> str:
        if self.i >= len(self.t):
            raise Refused("unexpected end of program")
        tok = self.t[self.i][1]
        if want is not None and tok != want:
            raise Refused(f"expected {want!r}, found {tok!r}")
        self.i += 1
        return tok

    # terms, by Soufflé's precedence: + - < * / % < unary - < ^
    def term(self) -> Any:
        left = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            left = Op(op, (left, self.product()))
        if self.peek() in ("band", "bor", "bxor", "land", "lor", "bshl", "bshr", "lxor"):
            raise Refused(f"bitwise/logical operator {self.peek()}")
        return left

    def product(self) -> Any:
        left = self.unary()
        while self.peek() in ("*", "/", "%"):
            op = self.take()
            left = Op(op, (left, self.unary()))
        return left

    def unary(self) -> Any:
        if self.peek() == "-":
            self.take()
            inner = self.unary()
            return -inner if isinstance(inner, int) else Op("neg", (inner,))
        return self.power()

    def power(self) -> Any:
        base = self.primary()
        if self.peek() == "^":
            self.take()
            return Op("^", (base, self.unary()))
        return base

    def primary(self) -> Any:
        kind, tok = self.kind(), self.peek()
        if kind == "num":
            self.take()
            if "." in tok:
                raise Refused("float numbers")
            if tok[-1] in "uU":
                raise Refused("unsigned numbers")
            return int(tok, 0)
        if kind == "str":
            self.take()
            return bytes(tok[1:-1], "utf-8").decode("unicode_escape") if "\\" in tok else tok[1:-1]
        if tok == "(":
            self.take()
            inner = self.term()
            self.take(")")
            return inner
        if tok in ("count", "sum", "min", "max", "mean", "range") and self.peek(1) != "(":
            return self.aggregate()
        if kind == "id":
            self.take()
            if tok == "nil":
                raise Refused("records")
            if tok in ("true", "false"):
                raise Refused(f"the literal {tok}")
            if self.peek() == "(":
                self.take()
                args = [] if self.peek() == ")" else [self.term()]
                while self.peek() == ",":
                    self.take()
                    args.append(self.term())
                self.take(")")
                return Call(tok, tuple(args))
            return ANON if tok == "_" else V(tok)
        if tok == "[":
            raise Refused("records")
        if tok == "$":
            raise Refused("ADT branches or the counter $")
        if tok == "@":
            raise Refused("user-defined functors")
        raise Refused(f"term starting {tok!r}")

    def aggregate(self) -> Agg:
        op = self.take()
        if op in ("mean", "range"):
            raise Refused(f"the {op} aggregate")
        target = None if op == "count" else self.term()
        self.take(":")
        if self.peek() == "{":
            self.take()
            body = self.body("}")
            self.take("}")
        else:
            body = (self.literal(),)
        return Agg(op, target, body)

    def literal(self) -> Lit:
        if self.peek() == "!":
            self.take()
            atom = self.primary()
            if not isinstance(atom, Call):
                raise Refused("negation of a non-atom")
            return Lit("not", atom)
        left = self.term()
        if self.peek() in CMP:
            op = self.take()
            return Lit("cmp", None, op, left, self.term())
        if isinstance(left, Call):
            return Lit("atom", left)
        raise Refused(f"a literal that is not an atom or a constraint: {left}")

    def body(self, end: str) -> tuple[Lit, ...]:
        lits = [self.literal()]
        while self.peek() == ",":
            self.take()
            lits.append(self.literal())
        if self.peek() == ";":
            raise Refused("disjunction in a body")
        if self.peek() != end:
            raise Refused(f"expected {end!r}, found {self.peek()!r}")
        return tuple(lits)


@dataclass
class Program:
    types: dict[str, str] = field(default_factory=dict)            # user type -> number|symbol|?
    decls: dict[str, list[str]] = field(default_factory=dict)      # relation -> column kinds
    inputs: dict[str, dict[str, str]] = field(default_factory=dict)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    clauses: list[tuple[tuple[Call, ...], tuple[Lit, ...]]] = field(default_factory=list)


BASE = {"number": "number", "symbol": "symbol"}
REFUSED_TYPES = {"unsigned": "unsigned numbers", "float": "float numbers"}


def read_program(text: str) -> Program:
    if re.search(r"^\s*#", text, re.M):
        raise Refused("the C preprocessor (#include/#define)")
    r, prog = Reader(tokens(text)), Program()
    while r.i < len(r.t):
        if r.peek() == "." and r.kind() == "op":
            r.take()
            directive(r, r.take(), prog)
            continue
        heads = [r.primary()]
        while r.peek() == ",":
            r.take()
            heads.append(r.primary())
        if not all(isinstance(h, Call) for h in heads):
            raise Refused("a head that is not an atom")
        body: tuple[Lit, ...] = ()
        if r.peek() == ":-":
            r.take()
            body = r.body(".")
        if r.peek() == "<=":
            raise Refused("subsumption")
        r.take(".")
        prog.clauses.append((tuple(heads), body))
    return prog


def kind_of(prog: Program, typ: str) -> str:
    if typ in REFUSED_TYPES:
        raise Refused(REFUSED_TYPES[typ])
    if typ in BASE:
        return BASE[typ]
    if prog.types.get(typ) in ("number", "symbol"):
        return prog.types[typ]
    raise Refused(f"the type {typ} ({prog.types.get(typ, 'unknown')})")


def directive(r: Reader, name: str, prog: Program) -> None:
    if name == "decl":
        rels = [r.take()]
        while r.peek() == ",":
            r.take()
            rels.append(r.take())
        r.take("(")
        cols: list[str] = []
        while r.peek() != ")":
            r.take()
            r.take(":")
            cols.append(kind_of(prog, r.take()))
            if r.peek() == ",":
                r.take()
        r.take(")")
        while r.kind() == "id" and r.peek() in ("btree", "brie", "eqrel", "inline", "magic", "no_magic",
                                                 "override", "no_inline", "btree_delete", "input", "output"):
            q = r.take()
            if q == "eqrel":
                raise Refused("eqrel relations")
        if r.peek() == "choice":
            raise Refused("choice-domain")
        for rel in rels:
            prog.decls[rel] = cols
    elif name in ("type", "number_type", "symbol_type"):
        tname = r.take()
        if name != "type":
            prog.types[tname] = name.split("_")[0]
            return
        sep = r.take()
        parts = [r.take()]
        if parts[0] in ("[", "$") or r.peek() == "{":
            prog.types[tname] = "record or ADT"
            depth = 1 if parts[0] == "[" else 0
            while depth or r.peek() in ("{", "|"):
                tok = r.take()
                depth += tok in "[{" and 1 or tok in "]}" and -1 or 0
            return
        while r.peek() == "|" and sep == "=":
            r.take()
            parts.append(r.take())
        kinds = {BASE.get(p, prog.types.get(p, p)) for p in parts}
        prog.types[tname] = kinds.pop() if len(kinds) == 1 else "mixed union"
    elif name in ("input", "output", "printsize"):
        rels = [r.take()]
        params: dict[str, str] = {}
        if r.peek() == "(":
            r.take()
            while r.peek() != ")":
                key = r.take()
                r.take("=")
                params[key] = r.take().strip('"')
                if r.peek() == ",":
                    r.take()
            r.take(")")
        while r.peek() == ",":
            r.take()
            rels.append(r.take())
        if name == "printsize":
            return
        for key, value in params.items():
            if not (key in ("filename", "delimiter") or (key == "IO" and value == "file")):
                raise Refused(f".{name} with {key}={value}")
        for rel in rels:
            (prog.inputs if name == "input" else prog.outputs)[rel] = params
    elif name == "pragma":
        r.take()
        if r.kind() == "str":
            r.take()
    else:
        raise Refused(f"the directive .{name}")


# --- writing sym ----------------------------------------------------------------------------

SYM_OPS = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "rem", "^": "^"}


def pred(name: str) -> str:
    return format_const(name if name not in ("is", "aggregate_all", "not", "false", "true") else "r_" + name)


def term_vars(t: Any) -> set[str]:
    if isinstance(t, V):
        return set() if t is ANON or t.name == "_" else {t.name}
    if isinstance(t, (Op, Call)):
        return set().union(*(term_vars(a) for a in t.args)) if t.args else set()
    if isinstance(t, Agg):
        out = term_vars(t.target) if t.target is not None else set()
        return out.union(*(lit_vars(x) for x in t.body))
    return set()


def plain_vars(t: Any) -> set[str]:
    """The variables of `t` outside any aggregate in it (Soufflé's scope: an aggregate's own
    variables are local to it unless they occur outside every aggregate)."""
    if isinstance(t, Agg):
        return set()
    if isinstance(t, (Op, Call)):
        return set().union(*(plain_vars(a) for a in t.args)) if t.args else set()
    return term_vars(t)


def lit_vars(lit: Lit) -> set[str]:
    if lit.kind in ("atom", "not"):
        return term_vars(lit.atom)
    return term_vars(lit.left) | term_vars(lit.right)


class Clause:
    """One Soufflé clause as sym literals, ordered so each literal's inputs are bound before it."""

    def __init__(self, prog: Program, counter: list[int]):
        self.prog, self.counter = prog, counter
        self.types: dict[str, str] = {}

    def fresh(self) -> str:
        self.counter[0] += 1
        return f"T{self.counter[0]}"

    def var(self, name: str) -> str:
        return "_" if name == "_" else "V" + name.replace("?", "Q")

    def const(self, c: Any) -> str:
        return format_const(c) if isinstance(c, str) else (f"({c})" if c < 0 else str(c))

    def expr(self, t: Any, pre: list[Any]) -> str:
        if isinstance(t, V):
            if t.name == "_":
                raise Refused("_ in an expression")
            return self.var(t.name)
        if isinstance(t, (int, str)):
            return self.const(t)
        if isinstance(t, Agg):
            v = self.fresh()
            pre.append(("agg", t, v))
            return v
        if isinstance(t, Call):
            if t.name in ("max", "min") and len(t.args) == 2:
                return f"{t.name}({self.expr(t.args[0], pre)}, {self.expr(t.args[1], pre)})"
            raise Refused(f"the functor {t.name}")
        if isinstance(t, Op):
            if t.op == "neg":
                return f"(-{self.expr(t.args[0], pre)})"
            a, b = (self.expr(x, pre) for x in t.args)
            return f"({a} {SYM_OPS[t.op]} {b})"
        raise Refused(f"term {t!r}")

    def infer(self, lits: tuple[Lit, ...]) -> None:
        for lit in lits:
            if lit.kind in ("atom", "not"):
                cols = self.prog.decls.get(lit.atom.name)
                if cols is None:
                    raise Refused(f"undeclared relation {lit.atom.name}")
                for a, k in zip(lit.atom.args, cols):
                    if isinstance(a, V):
                        self.types.setdefault(a.name, k)
            elif lit.kind == "cmp":
                for side in (lit.left, lit.right):
                    if isinstance(side, Agg):
                        self.infer(side.body)

    def is_symbol(self, t: Any) -> bool:
        return isinstance(t, str) or (isinstance(t, V) and self.types.get(t.name) == "symbol")

    def translate(self, lits: tuple[Lit, ...], outside: set[str], bound: frozenset[str] = frozenset()) -> list[str]:
        """`lits` (a body, or an aggregate's) as ordered sym goals; `outside`: variables bound
        or used outside this body."""
        self.infer(lits)
        pending: list[tuple[str, Any, Any]] = []
        for lit in lits:
            if lit.kind == "atom":
                pending.append(("atom", lit.atom, None))
            elif lit.kind == "not":
                pending.append(("not", lit.atom, None))
            else:
                if lit.op in ("<", ">", "<=", ">=") and (self.is_symbol(lit.left) or self.is_symbol(lit.right)):
                    raise Refused("order comparison of symbols")
                pending.append(("cmp", lit, None))
        return self.schedule(pending, lits, outside, set(bound))

    def atom_text(self, atom: Call, pre: list[Any], post: list[Any]) -> str:
        if atom.name not in self.prog.decls:
            raise Refused(f"undeclared relation {atom.name}")
        args = []
        for a in atom.args:
            if isinstance(a, V):
                args.append(self.var(a.name))
            elif isinstance(a, (int, str)):
                args.append(format_const(a))
            else:                               # an expression as an argument: a filter on a fresh variable
                v = V(self.fresh())
                args.append(self.var(v.name))
                post.append(Lit("cmp", None, "=", v, a))
        return pred(atom.name) + ("(" + ", ".join(args) + ")" if args else "")

    def schedule(self, pending: list[tuple[str, Any, Any]], lits: tuple[Lit, ...], outside: set[str],
                 bound: set[str]) -> list[str]:
        out: list[str] = []
        for kind, atom, _ in pending:
            if kind == "atom":
                post: list[Any] = []
                out.append(self.atom_text(atom, [], post))
                bound |= {self.var(n) for n in term_vars(atom)}
                pending.extend(("cmp", lit, None) for lit in post)
                bound |= {self.var(lit.left.name) for lit in post}
        rest = [p for p in pending if p[0] != "atom"]
        while rest:
            for i, item in enumerate(rest):
                text = self.try_place(item, bound, lits, outside)
                if text is not None:
                    out.extend(text)
                    del rest[i]
                    break
            else:
                raise Refused("a literal whose variables no atom binds (cannot order the body)")
        return out

    def needs(self, t: Any) -> set[str]:
        return {self.var(n) for n in term_vars(t)}

    def try_place(self, item: tuple[str, Any, Any], bound: set[str], lits: tuple[Lit, ...],
                  outside: set[str]) -> list[str] | None:
        kind, x, _ = item
        if kind == "not":
            if not self.needs(x) <= bound:
                return None
            post: list[Any] = []
            text = self.atom_text(x, [], post)
            if post:
                raise Refused("an expression inside a negated atom")
            return [f"\\+ {text}"]
        lit: Lit = x
        left, right, op = lit.left, lit.right, lit.op
        if op == "=":
            for a, b in ((left, right), (right, left)):
                if isinstance(a, V) and a.name != "_" and self.var(a.name) not in bound:
                    if isinstance(b, Agg):
                        if not self.agg_ready(b, lit, lits, outside, bound, result=a.name):
                            continue
                        bound.add(self.var(a.name))
                        return [self.agg_text(b, self.var(a.name), lit, lits, outside)]
                    if self.needs(b) <= bound and not self.has_agg(b):
                        bound.add(self.var(a.name))
                        plain = isinstance(b, (V, int, str))
                        return [f"{self.var(a.name)} {'=' if plain else 'is'} {self.expr(b, [])}"]
        if not (self.needs(left) | self.needs(right)) - self.agg_locals(lit, lits, outside) <= bound:
            return None
        pre: list[Any] = []
        sides = [self.expr(s, pre) for s in (left, right)]
        aggs = []
        for _, agg, v in pre:
            if not self.agg_ready(agg, lit, lits, outside, bound, result=None):
                return None
            aggs.append(self.agg_text(agg, v, lit, lits, outside))
        plain = all(isinstance(s, (V, int, str)) or isinstance(s, Agg) for s in (left, right))
        sym_op = {"=": "=" if plain else "=:=", "!=": "\\=" if plain else "=\\=",
                  "<": "<", ">": ">", "<=": "=<", ">=": ">="}[op]
        return aggs + [f"{sides[0]} {sym_op} {sides[1]}"]

    def has_agg(self, t: Any) -> bool:
        return isinstance(t, Agg) or (isinstance(t, (Op, Call)) and any(self.has_agg(a) for a in t.args))

    def agg_locals(self, lit: Lit, lits: tuple[Lit, ...], outside: set[str]) -> set[str]:
        found: set[str] = set()
        for side in (lit.left, lit.right):
            for agg in self.aggs_in(side):
                found |= self.needs(agg)
        return found

    def aggs_in(self, t: Any) -> list[Agg]:
        if isinstance(t, Agg):
            return [t]
        if isinstance(t, (Op, Call)):
            return [a for x in t.args for a in self.aggs_in(x)]
        return []

    def shared(self, agg: Agg, lit: Lit, lits: tuple[Lit, ...], outside: set[str], result: str | None) -> set[str]:
        """Variables of `agg` that occur elsewhere in the clause: the group-by ones (Soufflé's
        injected variables); the rest are local to the aggregate."""
        others: set[str] = set(outside)
        for other in lits:
            if other is not lit:
                others |= plain_vars(other.atom) | plain_vars(other.left) | plain_vars(other.right)
        others |= plain_vars(lit.left) | plain_vars(lit.right)
        if result is not None:
            others.discard(result)              # Soufflé: the result's name inside is a local variable
        return term_vars(agg) & others

    def agg_ready(self, agg: Agg, lit: Lit, lits: tuple[Lit, ...], outside: set[str], bound: set[str],
                  result: str | None) -> bool:
        return {self.var(n) for n in self.shared(agg, lit, lits, outside, result)} <= bound

    def agg_text(self, agg: Agg, result: str, lit: Lit, lits: tuple[Lit, ...], outside: set[str]) -> str:
        shared = self.shared(agg, lit, lits, outside, result[1:] if result.startswith("V") else None)
        renamed = _rename(agg, {n: f"{n}_{self.fresh()}" for n in term_vars(agg) - shared})
        sub = Clause(self.prog, self.counter)
        sub.types = dict(self.types)
        goals = sub.translate(renamed.body, {*shared, *(term_vars(renamed.target) if renamed.target else ())},
                              frozenset(self.var(n) for n in shared))
        goal = goals[0] if len(goals) == 1 else "(" + ", ".join(goals) + ")"
        spec = "count" if agg.op == "count" else f"{agg.op}({sub.expr(renamed.target, [])})"
        return f"aggregate_all({spec}, {goal}, {result})"


def _rename(t: Any, names: dict[str, str]) -> Any:
    if isinstance(t, V):
        return V(names.get(t.name, t.name))
    if isinstance(t, Call):
        return Call(t.name, tuple(_rename(a, names) for a in t.args))
    if isinstance(t, Op):
        return Op(t.op, tuple(_rename(a, names) for a in t.args))
    if isinstance(t, Agg):
        return Agg(t.op, _rename(t.target, names) if t.target is not None else None,
                   tuple(_rename(x, names) for x in t.body))
    if isinstance(t, Lit):
        return Lit(t.kind, _rename(t.atom, names) if t.atom else None, t.op,
                   _rename(t.left, names), _rename(t.right, names))
    return t


def translate_clause(prog: Program, heads: tuple[Call, ...], body: tuple[Lit, ...], counter: list[int]) -> list[str]:
    out = []
    for head in heads:
        c = Clause(prog, counter)
        if head.name not in prog.decls:
            raise Refused(f"undeclared relation {head.name}")
        if not body and all(isinstance(a, (int, str)) for a in head.args):
            out.append(c.atom_text(head, [], []) + ".")
            continue
        goals = c.translate(body, term_vars(head)) if body else []
        args, extra = [], []
        for a in head.args:
            if isinstance(a, V):
                if a.name == "_":
                    raise Refused("_ in a head")
                args.append(c.var(a.name))
            elif isinstance(a, (int, str)):
                args.append(format_const(a))
            else:
                v = c.fresh()
                args.append(v)
                extra.append(f"{v} is {c.expr(a, [])}")
        head_text = pred(head.name) + ("(" + ", ".join(args) + ")" if args else "")
        goals = goals + extra
        out.append(f"{head_text} :- {', '.join(goals)}." if goals else head_text + ".")
    return out


# --- a test ---------------------------------------------------------------------------------

class Tree:
    """The tests' files, unpacked once from the git dir (one `git show` per file is slow)."""

    def __init__(self, repo: str):
        self.dir = Path(tempfile.mkdtemp(prefix="souffle-tests-"))
        archive = subprocess.run(["git", "--git-dir", repo, "archive", "HEAD", "tests/evaluation", "tests/semantic"],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(self.dir, filter="data")
        self.files = {str(p.relative_to(self.dir)) for p in self.dir.rglob("*") if p.is_file()}

    def read(self, path: str) -> str:
        return (self.dir / path).read_text(errors="replace")


def parse_value(text: str, kind: str) -> Any:
    if kind == "number":
        return int(text)
    return text


@dataclass
class Translated:
    name: str
    program: str
    expected: dict[str, dict[str, Any]]
    facts: int


def translate_test(tree: Tree, d: str) -> Translated:
    files = tree.files
    name = d.rsplit("/", 1)[1]
    err = tree.read(f"{d}/{name}.err") if f"{d}/{name}.err" in files else ""
    if "Error" in err:
        raise Refused("Soufflé rejects it (an expected error)")
    prog = read_program(tree.read(f"{d}/{name}.dl"))
    if not prog.outputs:
        raise Refused("no output relation")
    counter = [0]
    lines = [f"% {name}: translated from souffle-lang/souffle {d}/{name}.dl (UPL-1.0)"]
    facts = 0
    for rel, params in prog.inputs.items():
        path = f"{d}/facts/{params.get('filename', rel + '.facts')}"
        if path not in files:
            path = f"{d}/{params.get('filename', rel + '.facts')}"
        if path not in files:
            raise Refused(f"no input file for {rel}")
        cols = prog.decls[rel]
        for row in tree.read(f"{path}").splitlines():
            if not row.strip() and cols:
                continue
            vals = row.split(params.get("delimiter", "\t")) if cols else []
            if len(vals) != len(cols):
                raise Refused(f"a row of {rel}.facts with {len(vals)} fields for {len(cols)} columns")
            try:
                consts = [format_const(parse_value(v, k)) for v, k in zip(vals, cols)]
            except ValueError:
                raise Refused(f"a number column of {rel}.facts holds {vals}") from None
            lines.append(pred(rel) + ("(" + ", ".join(consts) + ")" if consts else "") + ".")
            facts += 1
    for heads, body in prog.clauses:
        lines.extend(translate_clause(prog, heads, body, counter))
        facts += not body
    expected = {}
    for rel, params in prog.outputs.items():
        path = f"{d}/{params.get('filename', rel + '.csv')}"
        if path not in files:
            raise Refused(f"no expected output for {rel}")
        cols = prog.decls[rel]
        rows = [r for r in tree.read(f"{path}").splitlines()]
        tuples = set()
        for row in rows:
            if not cols:
                tuples.add(())
                continue
            vals = row.split(params.get("delimiter", "\t"))
            if len(vals) != len(cols):
                raise Refused(f"an expected row of {rel} with {len(vals)} fields")
            tuples.add(tuple(parse_value(v, k) for v, k in zip(vals, cols)))
        expected[rel] = {"columns": cols, "tuples": sorted(tuples, key=repr)}
    return Translated(name, "\n".join(lines) + "\n", expected, facts)


def run_program(program: str, relations: dict[str, dict[str, Any]]) -> dict[str, set[tuple]]:
    """Each relation's tuples as sym derives them from `program`."""
    engine = Engine()
    engine.max_facts = MAX_FACTS
    engine.deadline.arm(SECONDS)
    engine.add_program([item.clause for item in parse_program(program)])
    got = {}
    for rel, spec in relations.items():
        n = len(spec["columns"])
        query = pred(rel) + ("(" + ", ".join(f"A{i}" for i in range(n)) + ")" if n else "")
        answers = engine.solve(parse_query(query))
        got[rel] = {tuple(a[v] for v in sorted(a, key=lambda v: int(v.name[1:]))) for a in answers}
    return got


def differences(got: dict[str, set[tuple]], expected: dict[str, dict[str, Any]]) -> list[str]:
    out = []
    for rel, spec in expected.items():
        want = {tuple(t) for t in spec["tuples"]}
        if got[rel] != want:
            missing, extra = sorted(want - got[rel], key=repr), sorted(got[rel] - want, key=repr)
            out.append(f"{rel}: {len(missing)} missing {missing[:3]}, {len(extra)} extra {extra[:3]}")
    return out


def uses_numbers(program: str) -> bool:
    return bool(re.search(r"\b(is|aggregate_all)\b|=:=|=\\=|[<>]|=<|>=", program))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=REPO, help="souffle-lang/souffle's git dir (from the fetch)")
    ap.add_argument("--write", action="store_true", help="write the agreeing tests as fixtures")
    ap.add_argument("--all", action="store_true", help="keep tests without numbers too")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    tree = Tree(args.repo)
    try:
        return report(tree, args)
    finally:
        shutil.rmtree(tree.dir, ignore_errors=True)


def report(tree: Tree, args: argparse.Namespace) -> int:
    files = tree.files
    dirs = sorted({f.rsplit("/", 1)[0] for f in files
                   if f.endswith(".dl") and f.rsplit("/", 2)[1] == f.rsplit("/", 1)[1][:-3]})
    refusals: collections.Counter[str] = collections.Counter()
    translated, agree, differ, kept = 0, [], [], 0
    for d in dirs:
        try:
            t = translate_test(tree, d)
        except Refused as why:
            refusals[str(why)] += 1
            if args.verbose:
                print(f"refused {d}: {why}")
            continue
        if not args.all and not uses_numbers(t.program):
            refusals["no arithmetic, comparison or aggregate"] += 1
            continue
        translated += 1
        start = time.perf_counter()
        try:
            got = run_program(t.program, t.expected)
        except Exception as e:              # noqa: BLE001 - a UserError, a stop at the budget: reported
            differ.append((d, f"sym stops: {type(e).__name__}: {e}"))
            continue
        seconds = time.perf_counter() - start
        diff = differences(got, t.expected)
        if diff:
            differ.append((d, "; ".join(diff)))
            continue
        agree.append(d)
        if args.write and t.facts <= MAX_FIXTURE_FACTS and seconds <= MAX_FIXTURE_SECONDS:
            FIXTURES.mkdir(parents=True, exist_ok=True)
            (FIXTURES / f"{t.name}.pl").write_text(t.program)
            (FIXTURES / f"{t.name}.json").write_text(json.dumps(
                {"source": f"souffle-lang/souffle {d}", "relations": t.expected}, indent=1) + "\n")
            kept += 1
    print(f"{len(dirs)} Soufflé tests found, {translated} translated, {len(agree)} agree, {len(differ)} differ"
          + (f", {kept} written as fixtures" if args.write else ""))
    for d, why in differ:
        print(f"  differs {d}: {why}")
    print("refused:")
    for why, n in refusals.most_common():
        print(f"  {n:4d}  {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
