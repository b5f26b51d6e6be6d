"""A reader of the Prolog terms in APE's test files: a small LALR grammar for exactly the operators
those files declare or use (`-` and `~` prefix at 400, `=>` and `v` at 500 xfx, `-` at 500 yfx,
`/` at 400 yfx, `:` at 200 xfy). It builds plain Python values; nothing read is ever evaluated.

    text_drs_eval(0, 1, 'there is a man.', drs([A], [object(A, man, countable, na, eq, 1)-1]), …).
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer

GRAMMAR = r"""
?start: t500
?t500: t400
     | t500 "-" t400        -> minus
     | t400 "=>" t400       -> implies
     | t400 OR t400         -> disjunction
?t400: t200
     | t400 "/" t200        -> slash
     | "-" t200             -> neg
     | "~" t200             -> naf
?t200: primary
     | primary ":" t200     -> colon
?primary: ATOM "(" args ")" -> compound
     | QATOM "(" args ")"   -> compound
     | "[" "]"              -> empty
     | "[" args ("|" t500)? "]" -> plist
     | "(" t500 ")"
     | ATOM                 -> atom
     | QATOM                -> qatom
     | SYMATOM              -> atom
     | SOLO                 -> atom
     | "-"                  -> minus_atom
     | STRING               -> string
     | VAR                  -> var
     | NUMBER               -> number
args: t500 ("," t500)*

OR.2: /v(?![A-Za-z0-9_])/
ATOM: /(?![A-Z_\d])\w+/
SYMATOM: /[#$&*+.\/:<=>?@^\\][#$&*+\-.\/:<=>?@^~\\]*|[-~][#$&*+\-.\/:<=>?@^~\\]+/
SOLO: /[!;]/
QATOM: /'(?:[^'\\]|\\.|'')*'/
STRING: /"(?:[^"\\]|\\.|"")*"/
VAR: /[A-Z_]\w*/
NUMBER: /\d+(\.\d+)?([eE][+-]?\d+)?/
%ignore /\s+/
"""


@dataclass(frozen=True)
class Var:
    """A Prolog variable (a discourse referent, in a DRS)."""

    name: str


@dataclass(frozen=True)
class Struct:
    """A compound term `functor(args…)`; operators are structs too (`-`, `=>`, `v`, `/`, `:`, `~`)."""

    functor: str
    args: tuple[Any, ...]


@dataclass(frozen=True)
class PString:
    """A double-quoted Prolog string."""

    text: str


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "`": "`", "a": "\a", "b": "\b", "f": "\f",
            "v": "\v", "r": "\r", "0": "\0", "e": "\x1b", "s": " ", "\n": ""}


def _unquote(body: str, quote: str) -> str:
    body = body[1:-1].replace(quote * 2, quote)
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body, flags=re.S)


class _Build(Transformer[Token, Any]):
    def minus(self, kids: list[Any]) -> Struct:
        return Struct("-", (kids[0], kids[1]))

    def implies(self, kids: list[Any]) -> Struct:
        return Struct("=>", (kids[0], kids[1]))

    def disjunction(self, kids: list[Any]) -> Struct:
        return Struct("v", (kids[0], kids[2]))

    def slash(self, kids: list[Any]) -> Struct:
        return Struct("/", (kids[0], kids[1]))

    def neg(self, kids: list[Any]) -> Struct:
        return Struct("-", (kids[0],))

    def naf(self, kids: list[Any]) -> Struct:
        return Struct("~", (kids[0],))

    def colon(self, kids: list[Any]) -> Struct:
        return Struct(":", (kids[0], kids[1]))

    def compound(self, kids: list[Any]) -> Struct:
        name = kids[0]
        functor = _unquote(str(name), "'") if name.type == "QATOM" else str(name)
        return Struct(functor, tuple(kids[1]))

    def args(self, kids: list[Any]) -> list[Any]:
        return list(kids)

    def empty(self, _kids: list[Any]) -> list[Any]:
        return []

    def plist(self, kids: list[Any]) -> list[Any]:
        if len(kids) == 2:                              # [a, b | Tail]
            return [*kids[0], Struct("|", (kids[1],))]
        return list(kids[0])

    def minus_atom(self, _kids: list[Token]) -> str:
        return "-"

    def atom(self, kids: list[Token]) -> str | Var:
        text = str(kids[0])
        return Var(text) if text[0].isupper() else text     # "Õ…" is a variable, as in Prolog

    def qatom(self, kids: list[Token]) -> str:
        return _unquote(str(kids[0]), "'")

    def string(self, kids: list[Token]) -> PString:
        return PString(_unquote(str(kids[0]), '"'))

    def var(self, kids: list[Token]) -> Var:
        return Var(str(kids[0]))

    def number(self, kids: list[Token]) -> int | float:
        text = str(kids[0])
        return float(text) if any(c in text for c in ".eE") else int(text)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", transformer=_Build(), maybe_placeholders=False)


def read_term(text: str) -> Any:
    """One Prolog term (without its final full stop) → Python values: str for an atom, int/float,
    Var, PString, list, Struct. Raises lark's errors on text that is not such a term."""
    return _parser().parse(text)


@dataclass(frozen=True)
class Entry:
    """One `text_drs_eval(Eval, Id, Text, DRS, Trees, Timestamp, Author, Comment)` fact."""

    evaluation: int
    id: int
    text: str
    drs: Any
    line: str          # the fact as it stood in the file, for writing a sample back unchanged


def entries(path: Path, *, correct_only: bool = True) -> Iterator[Entry]:
    """The facts of an acetexts.pl file (or .pl.gz), one per line as APE writes them; `correct_only` keeps
    evaluation 0 (a correct analysis, the regression cases) and skips the bugs (1)."""
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    for raw in data.decode("utf-8").splitlines():
        if not raw.startswith("text_drs_eval("):
            continue
        if correct_only and not raw.startswith("text_drs_eval(0,"):
            continue
        term = read_term(raw.rstrip().removesuffix("."))
        if not isinstance(term, Struct) or term.functor != "text_drs_eval" or len(term.args) != 8:
            raise ValueError(f"not a text_drs_eval/8 fact: {raw[:80]}")
        evaluation, ident, text, drs = term.args[:4]
        yield Entry(evaluation, ident, text, drs, raw)
