"""Random stratified programs for checking a backend against the native engine (and clingo).

`program(seed)` writes a program as text: base facts over a small domain (numbers and atoms kept in
their own columns), derived relations in layers, each rule's positive atoms from its own layer or
below (so recursion, linear, non-linear and mutual, happens) and its `not` and aggregates from layers
strictly below (so it is stratified), with comparisons, arithmetic (`is`, `=:=`, `<`; bounded where
it feeds recursion, so every program terminates and never divides by zero) and aggregates (count,
sum, max, min, max/min with a witness). `clingo=True` keeps to what clingo computes the same way
(integers, + - * only). `relations(text)` lists the relations worth comparing. Helper for the
DuckDB and Spark backend tests and benchmarks/duckdb_backend.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sym.core.backends.engine import RelationalEngine
from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_program

INT, STR = "int", "str"
BASE = {"e": (INT, INT), "w": (INT, INT), "v": (INT,), "lab": (INT, STR), "s": (STR, STR)}
NUMBERS = range(0, 6)
ATOMS = ("a", "b", "c", "d")


@dataclass
class Pred:
    name: str
    sorts: tuple[str, ...]
    layer: int                    # -1: base
    rules: list[str] = field(default_factory=list)


def _facts(rng: random.Random) -> list[str]:
    out = []
    for name, sorts in BASE.items():
        for _ in range(rng.randint(3, 12)):
            args = [str(rng.choice(NUMBERS)) if s == INT else rng.choice(ATOMS) for s in sorts]
            out.append(f"{name}({', '.join(args)}).")
    return sorted(set(out))


class _Body:
    """One rule body under construction: its literals and its bound variables by sort."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lits: list[str] = []
        self.bound: dict[str, str] = {}      # var -> sort
        self.count = 0

    def new(self, sort: str) -> str:
        self.count += 1
        return f"V{self.count}"

    def of(self, sort: str) -> list[str]:
        return [v for v, s in self.bound.items() if s == sort]

    def atom(self, pred: Pred, *, reuse: float = 0.6, negated: bool = False) -> str | None:
        args = []
        for s in pred.sorts:
            have = self.of(s)
            if negated:
                if not have:
                    args.append("_" if self.rng.random() < 0.5 else
                                (str(self.rng.choice(NUMBERS)) if s == INT else self.rng.choice(ATOMS)))
                else:
                    args.append(self.rng.choice(have) if self.rng.random() < 0.8 else "_")
            elif have and self.rng.random() < reuse:
                args.append(self.rng.choice(have))
            elif self.rng.random() < 0.1:
                args.append(str(self.rng.choice(NUMBERS)) if s == INT else self.rng.choice(ATOMS))
            else:
                v = self.new(s)
                args.append(v)
        if not negated:
            for a, s in zip(args, pred.sorts):
                if a[0].isupper():
                    self.bound.setdefault(a, s)
        text = pred.name + (f"({', '.join(args)})" if args else "")
        return f"not {text}" if negated else text


def _rule(rng: random.Random, head: Pred, preds: list[Pred], clingo: bool) -> str | None:
    body = _Body(rng)
    same = [p for p in preds if p.layer == head.layer]
    below = [p for p in preds if p.layer < head.layer]
    recursive = bool(same) and rng.random() < 0.6
    positives = rng.randint(1, 3)
    for i in range(positives):
        pool = same if recursive and (i == 0 or rng.random() < 0.3) else below
        body.lits.append(body.atom(rng.choice(pool)) or "")
    uses_same = any(lit.split("(")[0] in {p.name for p in same} for lit in body.lits)
    ints = body.of(INT)
    if ints and rng.random() < 0.35:                 # arithmetic
        x = rng.choice(ints)
        y = rng.choice(ints)
        n = body.new(INT)
        ops = ["+", "-", "*"] if clingo else ["+", "-", "*", "//", "mod", "/"]
        op = rng.choice(ops)
        if op in ("//", "mod", "/"):
            expr = f"{x} {op} {rng.randint(1, 3)}"
        else:
            expr = f"{x} {op} {y if rng.random() < 0.5 else rng.randint(1, 3)}"
        body.lits.append(f"{n} is {expr}")
        if uses_same or rng.random() < 0.5:         # bounded where it may feed recursion
            body.lits.append(f"{n} >= 0")
            body.lits.append(f"{n} =< 7")
        if op == "/":
            body.bound[n] = "num"
            body.lits.append(f"{n} > {rng.randint(0, 3)}")
        else:
            body.bound[n] = INT
    ints = body.of(INT)
    if len(ints) >= 2 and rng.random() < 0.3:
        a, b = rng.sample(ints, 2)
        op = rng.choice(["<", "=<", "\\=", ">"])
        body.lits.append(f"{a} {op} {b}")
    elif ints and rng.random() < 0.2:
        body.lits.append(f"{rng.choice(ints)} {rng.choice(['<', '>=', '=:='])} {rng.randint(0, 5)}")
    if below and rng.random() < 0.3:                 # negation, of a layer below
        body.lits.append(body.atom(rng.choice(below), negated=True) or "")
    if below and rng.random() < 0.3 and body.of(INT):    # an aggregate over a layer below
        outer = rng.choice(body.of(INT))
        target = rng.choice([p for p in below if p.sorts and p.sorts[0] == INT] or [None])
        if target is not None:
            inner = [outer] + ["_" if s == STR else f"A{k}" for k, s in enumerate(target.sorts[1:])]
            goal = f"{target.name}({', '.join(inner)})"
            n = body.new(INT)
            inner_ints = [a for a in inner[1:] if a != "_"]
            kinds = ["count", "sum"] if clingo else ["count", "sum", "max", "min", "maxw"]
            kind = rng.choice(kinds if inner_ints else ["count"])
            if kind == "count":
                body.lits.append(f"aggregate_all(count, {goal}, {n})")
            elif kind == "maxw":
                m, w = body.new(INT), body.new(INT)
                body.lits.append(f"aggregate_all(max({inner_ints[0]}, {inner_ints[0]}), {goal}, max({m}, {w}))")
                body.bound[m] = INT
                n = m
            else:
                op = "max" if kind == "maxw" else kind
                body.lits.append(f"aggregate_all({op}({inner_ints[0]}), {goal}, {n})")
            body.bound[n] = INT
    args = []
    for s in head.sorts:
        have = body.of(s)
        if not have:
            return None
        args.append(rng.choice(have))
    head_text = head.name + (f"({', '.join(args)})" if args else "")
    return f"{head_text} :- {', '.join(body.lits)}."


def program(seed: int, *, clingo: bool = False, size: int = 4) -> str:
    """A random stratified program (facts and rules) as text."""
    rng = random.Random(seed)
    preds = [Pred(n, s, -1) for n, s in BASE.items()]
    layers = rng.randint(1, 3)
    for i in range(rng.randint(2, size + 1)):
        arity = rng.choice([1, 2, 2])
        sorts = tuple(INT if rng.random() < 0.85 else STR for _ in range(arity))
        preds.append(Pred(f"p{i}", sorts, rng.randint(0, layers - 1)))
    lines = _facts(rng)
    for head in preds:
        if head.layer < 0:
            continue
        for _ in range(rng.randint(1, 3)):
            for _try in range(5):
                rule = _rule(rng, head, preds, clingo)
                if rule is not None:
                    lines.append(rule)
                    break
    return "\n".join(lines) + "\n"


def relations(text: str) -> list[str]:
    """The predicates a program defines or reads, as `name/arity` (for comparing models)."""
    from sym.core.logic.parser import parse_program
    from sym.core.logic.terms import clause_atoms

    keys = set()
    for item in parse_program(text):
        for atom in clause_atoms(item.clause):
            keys.add(atom.key)
    return sorted(keys)


def engines(text: str, executor) -> tuple[Engine, RelationalEngine]:
    """The native engine and a relational one over `executor`, each given the program `text`."""
    clauses = [item.clause for item in parse_program(text)]
    native, relational = Engine(), RelationalEngine(executor)
    native.add_program(clauses)
    relational.add_program(clauses)
    return native, relational
