"""Column types of a program on a relational backend: one logical type per column (`int`, `num`,
`str`), inferred over the whole program.

Positions that share a variable in some rule share a class (union-find); a class takes the types of
the constants and stored columns in it and of the arithmetic that binds it (`int` widens to `num`;
a number is a double there, and a whole double reads back as the integer it equals, as the language
stores numbers). A class with both numbers and atoms cannot be one SQL column: `Refused`, one line,
never a wrong answer. This room only infers; `compile` writes SQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sym.core.logic.terms import Aggregate, Arith, Compare, Is, Rule, Var, clause_atoms

Node = tuple[Any, ...]      # ("r", key, i) a column, ("v", rule number, name) a rule's variable


class Refused(Exception):
    """A program (or value) the backend cannot evaluate exactly: the message is one line."""


def const_type(value: Any) -> str:
    if isinstance(value, str):
        return "str"
    return "int" if isinstance(value, int) else "num"


def join_types(a: str | None, b: str | None, where: str) -> str | None:
    if a is None or a == b:
        return b if a is None else a
    if b is None:
        return a
    if "str" in (a, b):
        raise Refused(f"{where} holds both numbers and atoms: the relational engine keeps one type per column")
    return "num"


class Types:
    """The inferred classes and their types; `column(key, i)` and `var(rule number, var)` read them."""

    def __init__(self) -> None:
        self._parent: dict[Node, Node] = {}
        self._type: dict[Node, str | None] = {}
        self._where: dict[Node, str] = {}

    def find(self, node: Node) -> Node:
        parent = self._parent.setdefault(node, node)
        if parent == node:
            if node not in self._type:
                self._type[node] = None
                self._where[node] = _describe(node)
            return node
        root = self.find(parent)
        self._parent[node] = root
        return root

    def union(self, a: Node, b: Node) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self._parent[rb] = ra
            self._type[ra] = join_types(self._type[ra], self._type.pop(rb), self._where[ra])

    def add(self, node: Node, logical: str | None) -> bool:
        """Widen the node's class by a type; whether it changed."""
        root = self.find(node)
        before = self._type[root]
        self._type[root] = join_types(before, logical, self._where[root])
        return self._type[root] != before

    def of(self, node: Node) -> str | None:
        return self._type[self.find(node)]

    def column(self, key: str, i: int) -> str:
        return self.of(("r", key, i)) or "int"

    def var(self, rule: int, var: Var) -> str:
        return self.of(("v", rule, var.name)) or "int"


def _describe(node: Node) -> str:
    if node[0] == "r":
        return f"{node[1]} argument {node[2] + 1}"
    return f"variable {node[2]}"


def infer(rules: list[Rule], stored: Mapping[str, Iterable[str | None]], keys: Iterable[str] = ()) -> Types:
    """The types of every column of the program: `rules` (numbered by position), `stored` (key ->
    the logical type of each stored column, None where a column has no value yet)."""
    types = Types()
    tests: list[tuple[Node, Any]] = []
    for key in keys:
        for i in range(int(key.rsplit("/", 1)[1])):
            types.find(("r", key, i))
    for key, cols in stored.items():
        for i, logical in enumerate(cols):
            types.add(("r", key, i), logical)
    for n, rule in enumerate(rules):
        atoms = clause_atoms(rule)
        for k, atom in enumerate(atoms):
            for i, arg in enumerate(atom.args):
                col = ("r", atom.key, i)
                if isinstance(arg, Var):
                    types.union(col, ("v", n, arg.name))
                elif k == 0 and rule.head is not None:    # a head's constant is a value of its column
                    types.add(col, const_type(arg))
                else:               # a body's only tests it: an atom against numbers matches nothing
                    tests.append((col, arg))
        for lit in _flat(rule.body):
            if isinstance(lit, Compare) and lit.op == "=":
                if isinstance(lit.left, Var) and isinstance(lit.right, Var):
                    types.union(("v", n, lit.left.name), ("v", n, lit.right.name))
            elif isinstance(lit, Aggregate) and isinstance(lit.witness, Var) and isinstance(lit.found, Var):
                types.union(("v", n, lit.witness.name), ("v", n, lit.found.name))
    changed = True
    while changed:        # arithmetic binds what it computes: widen to a fixpoint (int -> num at most)
        changed = False
        for n, rule in enumerate(rules):
            for lit in _flat(rule.body):
                changed |= _bind(types, n, lit)
    for col, value in tests:      # a column only tested against constants takes their type
        if types.of(col) is None:
            types.add(col, const_type(value))
    for n, rule in enumerate(rules):   # a variable bound only by X = c takes c's type
        for lit in _flat(rule.body):
            if isinstance(lit, Compare) and lit.op == "=":
                for var, other in ((lit.left, lit.right), (lit.right, lit.left)):
                    if isinstance(var, Var) and not isinstance(other, Var) and types.of(("v", n, var.name)) is None:
                        types.add(("v", n, var.name), const_type(other))
    return types


def _flat(body: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for lit in body:
        out.append(lit)
        if isinstance(lit, Aggregate):
            out += _flat(lit.goal)
    return out


def expr_type(expr: Any, var_type: Any) -> str:
    """The logical type of an arithmetic expression given its variables' types."""
    if isinstance(expr, Var):
        t = var_type(expr)
        return "num" if t == "num" else "int"
    if not isinstance(expr, Arith):
        return "num" if isinstance(expr, float) else "int"
    parts = [expr_type(a, var_type) for a in expr.args]
    if expr.op in ("/", "**"):
        return "num"
    if expr.op in ("//", "mod", "rem"):
        return "int"
    return "num" if "num" in parts else "int"


def _bind(types: Types, n: int, lit: Any) -> bool:
    var_type = lambda v: types.of(("v", n, v.name))  # noqa: E731
    if isinstance(lit, Is) and isinstance(lit.target, Var):
        return types.add(("v", n, lit.target.name), expr_type(lit.expr, var_type))
    if isinstance(lit, Aggregate) and isinstance(lit.result, Var):
        if lit.op == "count":
            return types.add(("v", n, lit.result.name), "int")
        return types.add(("v", n, lit.result.name), expr_type(lit.template, var_type))
    return False
