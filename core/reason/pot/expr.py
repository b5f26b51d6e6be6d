"""Expression strings → a small AST (no eval). The grammar admits Z3-style calls,
arithmetic and comparisons only; `build` gives the names meaning from a whitelist.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

from sym.core.errors import UserError

MAX_EXPR_CHARS = 20_000
MAX_NESTING = 200


@dataclass(frozen=True)
class Num:
    text: str            # "3", "2.45"
    is_int: bool
    col: int


@dataclass(frozen=True)
class Name:
    name: str
    col: int


@dataclass(frozen=True)
class Call:
    fn: str
    args: tuple[Expr, ...]
    col: int


@dataclass(frozen=True)
class BinOp:
    op: str              # + - * / % == != < <= > >=
    left: Expr
    right: Expr
    col: int


@dataclass(frozen=True)
class Neg:
    operand: Expr
    col: int


@dataclass(frozen=True)
class Binders:
    """`[x, y]` (declared variables) or `[{'name': 'p', 'sort': 'Person'}]` (inline)."""

    items: tuple[tuple[str, str | None, int], ...]         # of (name, sort | None, col)
    col: int


Expr = Num | Name | Call | BinOp | Neg | Binders

_INFIX = {"and_op": "And", "or_op": "Or", "implies_op": "Implies"}
# Connectives called in lower case, as small models write them; a program cannot declare these
# names (they would shadow the connectives), so reading them as the connectives changes no meaning.
_LOWER_CONNECTIVES = {"and": "And", "or": "Or", "not": "Not", "implies": "Implies", "xor": "Xor"}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark

    grammar = (Path(__file__).with_name("expr.lark")).read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _col(meta: object) -> int:
    return getattr(meta, "column", 0) or 0


def _tok(node: object) -> Token:
    from lark import Token

    assert isinstance(node, Token)   # the grammar puts a token here
    return node


def _to_ast(tree: Tree[Token] | Token, where: str) -> Expr:
    """Convert the Lark tree iteratively-bounded (nesting is capped before parsing)."""
    from lark import Token, Tree

    if isinstance(tree, Token):
        if tree.type == "INT":
            return Num(str(tree), True, tree.column or 0)
        if tree.type == "DECIMAL":
            return Num(str(tree), False, tree.column or 0)
        if tree.type == "NAME":
            return Name(str(tree), tree.column or 0)
        raise UserError(f"{where}: unexpected {tree!s}")
    assert isinstance(tree, Tree)
    kind, kids, col = tree.data, tree.children, _col(tree.meta)
    if kind == "int":
        return Num(str(kids[0]), True, _tok(kids[0]).column or 0)
    if kind == "decimal":
        return Num(str(kids[0]), False, _tok(kids[0]).column or 0)
    if kind == "name":
        return Name(str(kids[0]), _tok(kids[0]).column or 0)
    if kind == "call":
        fn = _tok(kids[0])
        name = _LOWER_CONNECTIVES.get(str(fn), str(fn))     # not(x) as Not(x): never a name of the program's
        return Call(name, tuple(_to_ast(k, where) for k in kids[1:] if k is not None), fn.column or 0)
    if kind in ("binop", "compare"):
        left, op, right = kids
        return BinOp(str(op), _to_ast(left, where), _to_ast(right, where), _tok(op).column or 0)
    if kind == "neg":
        return Neg(_to_ast(kids[0], where), col)
    if kind in _INFIX:            # `a & b` is And(a, b): the call it stands for, at the operator's column
        left, op, right = kids
        return Call(_INFIX[kind], (_to_ast(left, where), _to_ast(right, where)), _tok(op).column or 0)
    if kind == "not_op":
        op, operand = kids
        return Call("Not", (_to_ast(operand, where),), _tok(op).column or 0)
    if kind == "binders":
        items: list[tuple[str, str | None, int]] = []
        for b in kids:
            if b is None:
                continue
            assert isinstance(b, Tree)
            if b.data == "bare_binder":
                items.append((str(b.children[0]), None, _tok(b.children[0]).column or 0))
            else:
                fields: dict[str, str] = {}
                for pair in b.children:
                    assert isinstance(pair, Tree)
                    key, value = (str(t)[1:-1] for t in pair.children)
                    fields[key] = value
                if set(fields) != {"name", "sort"}:
                    raise UserError(f"{where}: column {_col(b.meta)}: a binder is {{'name': …, 'sort': …}}")
                items.append((fields["name"], fields["sort"], _col(b.meta)))
        return Binders(tuple(items), col)
    raise UserError(f"{where}: unexpected {kind}")


def _nesting(text: str) -> int:
    depth = deepest = 0
    for ch in text:
        if ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth -= 1
    return deepest


def parse_expr(text: str, where: str = "expression") -> Expr:
    """Parse one expression string; raises UserError naming `where` (a JSON path) and the column."""
    from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    if not isinstance(text, str):
        raise UserError(f"{where}: expected an expression string")
    if len(text) > MAX_EXPR_CHARS:
        raise UserError(f"{where}: expression longer than {MAX_EXPR_CHARS} characters")
    if not text.strip():
        raise UserError(f"{where}: empty expression")
    if _nesting(text) > MAX_NESTING:
        raise UserError(f"{where}: expression nests deeper than {MAX_NESTING}")
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as err:
        raise UserError(f"{where}: column {err.column}: unexpected character {text[err.pos_in_stream or 0]!r}",
                        hint="expressions use calls like And(a, b), arithmetic and comparisons only") from None
    except UnexpectedEOF:
        raise UserError(f"{where}: the expression ends too early") from None
    except UnexpectedToken as err:
        tok = "end of expression" if err.token.type == "$END" else repr(str(err.token))
        raise UserError(f"{where}: column {err.column}: unexpected {tok}") from None
    except (UnexpectedInput, LarkError) as err:
        raise UserError(f"{where}: cannot parse: {str(err).splitlines()[0]}") from None
    try:
        return _to_ast(tree, where)
    except RecursionError:
        raise UserError(f"{where}: expression nests too deeply") from None
