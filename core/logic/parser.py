"""Parse logic text (facts, rules, constraints, queries) into terms, with located errors.

The grammar is `grammar.lark` (LALR). A text either parses whole or raises one
`ParseError` naming source, line, column and a hint, so nothing is ever half-added.
Plain ground facts take a regex fast path; everything else goes through Lark. The fast path
takes only what the grammar takes, to the same terms (a property test holds them to it).
SWI-Prolog spellings read as the language's own: `\\+ G` is `not G`, and `true`, `fail` (and
`false` in a body) are the built-in goals TRUE_GOAL and FAIL_GOAL.

Numbers have one identity, decided here: a number is its value. A whole value is an integer,
however it is written (`1`, `1.0`, `1e0` and `10e-1` are the constant 1, stored and printed
as `1`); any other value is a float (`2.5`). So `p(1)` and `p(1.0)` are one fact. Integers
have at most MAX_DIGITS digits; a float must be finite.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from itertools import count
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError
from lark.tree import Meta

from sym.core.errors import ParseError
from sym.core.logic import body as body_read
from sym.core.logic.pause import gc_paused
from sym.core.logic.safety import check_clause as check_clause  # callers import it from here
from sym.core.logic.safety import local_variables as local_variables
from sym.core.logic.syntax_errors import KEYWORDS, Lines, located_error, position
from sym.core.logic.terms import (
    ANONYMOUS_PREFIX,
    Atom,
    Located,
    Query,
    Rule,
    Var,
)

_anonymous = count(1)

_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}


def _unquote(text: str) -> str:
    """The value of a quoted atom: backslash escapes, and `''` for a quote inside '…'."""
    quote, inner = text[0], text[1:-1]
    out, i = [], 0
    while i < len(inner):
        ch = inner[i]
        if ch == "\\" and i + 1 < len(inner):
            out.append(_ESCAPES.get(inner[i + 1], inner[i + 1]))
            i += 2
        elif ch == quote and inner[i + 1:i + 2] == quote:
            out.append(quote)
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


MAX_DIGITS = 4300     # Python's own limit for turning text into an int and back


def _number(text: str) -> int | float:
    """The value of a NUMBER token (see the module docstring: whole values are ints)."""
    if re.fullmatch(r"-?[0-9]+", text):
        if len(text.lstrip("-")) > MAX_DIGITS:
            raise ValueError(f"a number of {len(text.lstrip('-'))} digits is too long (at most {MAX_DIGITS})")
        return int(text)
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text[:40]} is out of range")
    return int(value) if value.is_integer() else value


# names a fact or a rule head may not have: built-in goals, and the commands SWI-Prolog users type
RESERVED_HEADS = {"true": "a built-in goal (it always holds)", "fail": "a built-in goal (it never holds)",
                  "halt": "a command (typed on its own, halt. leaves sym)",
                  "listing": "a command (typed on its own, listing. lists memory)"}


class _Build(Transformer[Any, Any]):
    """Turns the parse tree into terms; anonymous `_` variables become distinct. Given `lines`
    (a text with a lone CR, which Lark does not count as a line end), lines are counted by it."""

    def __init__(self, lines: Lines | None = None) -> None:
        super().__init__()
        self.lines = lines

    def _at(self, line: int, column: int, pos: int | None) -> tuple[int, int]:
        return self.lines.locate(pos) if self.lines is not None and pos is not None else (line, column)

    def var(self, children: list[Token]) -> Var:
        (tok,) = children
        return Var(f"{ANONYMOUS_PREFIX}{next(_anonymous)}") if tok == "_" else Var(str(tok))

    def const(self, children: list[Token]) -> str:
        return str(children[0])

    def quoted(self, children: list[Token]) -> str:
        return _unquote(str(children[0]))

    def number(self, children: list[Token]) -> int | float:
        tok = children[0]
        try:
            return _number(str(tok))
        except ValueError as err:
            line, column = self._at(tok.line or 1, tok.column or 1, tok.start_pos)
            raise ParseError(str(err), line=line, column=column,
                             hint=f"numbers are integers of at most {MAX_DIGITS} digits or finite floats") from None

    def name(self, children: list[Token]) -> str:
        tok = children[0]
        return _unquote(str(tok)) if tok.type == "QUOTED" else str(tok)

    def atom(self, children: list[Any]) -> Atom:
        neg = bool(children) and isinstance(children[0], Token) and children[0].type == "NEG"
        if neg:
            children = children[1:]
        return Atom(children[0], tuple(children[1:]), neg)

    # -- a body: goals read as terms, then told apart (body.py) ---------------------------

    @v_args(meta=True)
    def compound(self, meta: Meta, children: list[Any]) -> body_read.Compound:
        neg = bool(children) and isinstance(children[0], Token) and children[0].type == "NEG"
        if neg:
            children = children[1:]
        return body_read.Compound(children[0], tuple(children[1:]), neg, self._where(meta))

    @v_args(meta=True)
    def paren(self, meta: Meta, children: list[Any]) -> body_read.Paren:
        return body_read.Paren(tuple(children), self._where(meta))

    def false_goal(self, children: list[Any]) -> body_read.FalseWord:
        return body_read.FALSE_WORD

    def binary(self, children: list[Any]) -> Any:
        left, op, right = children
        return body_read.binary(left, str(op), right)

    def negative(self, children: list[Any]) -> Any:
        return body_read.negative(children[-1])

    @v_args(meta=True)
    def compare(self, meta: Meta, children: list[Any]) -> Any:
        left, op, right = children
        return body_read.compare(left, str(op), right, self._where(meta))

    @v_args(meta=True)
    def is_goal(self, meta: Meta, children: list[Any]) -> Any:
        left, _is, right = children
        return body_read.is_goal(left, right, self._where(meta))

    @v_args(meta=True)
    def naf(self, meta: Meta, children: list[Any]) -> Any:
        return body_read.naf(children[-1], self._where(meta))

    def body(self, children: list[Any]) -> tuple[Any, ...]:
        return body_read.goals(children)

    def _where(self, meta: Meta) -> body_read.Where:
        if getattr(meta, "empty", True):
            return body_read.Where()
        line, column = self._at(meta.line, meta.column, meta.start_pos)
        return body_read.Where(line, column)

    @v_args(meta=True)
    def fact(self, meta: Meta, children: list[Any]) -> Located:
        return Located(children[0], *self._at(meta.line, meta.column, meta.start_pos))

    @v_args(meta=True)
    def rule(self, meta: Meta, children: list[Any]) -> Located:
        return Located(Rule(children[0], children[-1]), *self._at(meta.line, meta.column, meta.start_pos))

    @v_args(meta=True)
    def constraint(self, meta: Meta, children: list[Any]) -> Located:
        return Located(Rule(None, children[-1]), *self._at(meta.line, meta.column, meta.start_pos))

    constraint_false = constraint

    @v_args(meta=True)
    def query(self, meta: Meta, children: list[Any]) -> Located:
        return Located(Query(children[-1]), *self._at(meta.line, meta.column, meta.start_pos))

    def start(self, children: list[Located]) -> list[Located]:
        return children


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = resources.files("sym.core.logic").joinpath("grammar.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


# the fast path takes `name(arg, arg).` with bare-atom or short integer arguments; its spaces and
# digits are the grammar's (ASCII: `\s` and `\d` would also take U+3000 and other scripts' digits)
_S = r"[ \t\r\f]*"
_ARG = r"(?:[a-z][A-Za-z0-9_]*|-?[0-9]{1,18})"
_SIMPLE_FACT = re.compile(
    rf"{_S}([a-z][A-Za-z0-9_]*)\({_S}({_ARG}(?:{_S},{_S}{_ARG})*){_S}\){_S}\.{_S}\Z"
)
_NUMBER_ARGUMENT = re.compile(r"(?:^|,)[ \t\r\f]*-?[0-9]")
_NUMBER_START = frozenset("-0123456789")


def _fast_fact(line: str) -> Atom | None:
    """Plain ground facts (`p(a, b, 3).`) skip the general parser; anything else returns None."""
    m = _SIMPLE_FACT.match(line)
    if m is None:
        return None
    pred, raw = m.groups()
    if pred in KEYWORDS:
        return None  # `false(x).` and `not(x).`: the grammar reads a keyword there and reports it
    parts = raw.split(",")
    if " " in raw or "\t" in raw or "\r" in raw or "\f" in raw:
        parts = [p.strip(" \t\r\f") for p in parts]
    if KEYWORDS.intersection(parts):
        return None  # keywords as arguments: let the grammar report them
    if _NUMBER_ARGUMENT.search(raw):
        parts = [int(p) if p[0] in _NUMBER_START else p for p in parts]
    return Atom(pred, tuple(parts))


def parse_program(text: str, *, source: str | None = None, line_offset: int = 0) -> list[Located]:
    """Parse a whole program. Raises ParseError (nothing partial is returned)."""
    if not text.isascii():
        _check_encodable(text, source, line_offset)
    lines = text.split("\n")
    if len(lines) > 64:  # large files: split off runs of plain facts, parse the rest with Lark
        with gc_paused():
            return _parse_mixed(lines, source, line_offset)
    return _parse_lark(text, source, line_offset)


def _check_encodable(text: str, source: str | None, line_offset: int) -> None:
    """Refuse a lone surrogate (from undecodable input): no store, log or file could hold it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        line, column = position(text, err.start)
        raise ParseError(f"character U+{ord(text[err.start]):04X} is half of a surrogate pair, not a character",
                         line=line + line_offset, column=column, source=source,
                         hint="the text was not valid UTF-8; fix its encoding") from None


def _parse_lark(text: str, source: str | None, line_offset: int) -> list[Located]:
    try:
        located = _lark().parse(text)
        located = _Build(Lines(text) if "\r" in text.replace("\r\n", "") else None).transform(located)
    except UnexpectedInput as err:
        raise located_error(err, text, source, line_offset) from None
    except VisitError as err:  # a transformer callback refused a token: re-anchor its location
        orig = err.orig_exc
        if isinstance(orig, ParseError):
            line, column = orig.line, orig.column
            meta = getattr(err.obj, "meta", None)
            if line is None and meta is not None and not getattr(meta, "empty", True):
                line, column = meta.line, meta.column     # the goal or body the refusal is about
            line = line + line_offset if line is not None else None
            raise ParseError(orig.problem, line=line, column=column, source=source, hint=orig.hint) from None
        raise ParseError(str(orig), source=source) from None
    out = []
    for item in located:
        item = Located(item.clause, item.line + line_offset, item.column)
        check_clause(item.clause, source=source, line=item.line)
        out.append(item)
    return out


def _parse_mixed(lines: list[str], source: str | None, line_offset: int) -> list[Located]:
    out: list[Located] = []
    pending: list[str] = []
    pending_start = 0
    inside = False  # the pending text ends inside a clause (its last content is not a final '.')
    for i, line in enumerate(lines):
        fact = None if inside else _fast_fact(line)
        if fact is not None:
            if pending:
                out.extend(_parse_lark("\n".join(pending), source, line_offset + pending_start))
                pending = []
            out.append(Located(fact, i + 1 + line_offset, 1))
            continue
        if not pending:
            pending_start = i
        pending.append(line)
        ends = ends_clause(line)
        if ends is not None:
            inside = not ends
    if pending:
        out.extend(_parse_lark("\n".join(pending), source, line_offset + pending_start))
    return out


def ends_clause(line: str) -> bool | None:
    """Whether a line's last content (outside quotes and `%` comments) ends an input: a clause's
    final '.', or the '?' of a question in English (no clause ends in '?', so a question typed
    into a script never swallows the lines after it); None for a line with no content."""
    quote = None
    last = ""
    for ch in line:
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "%":
            break
        if not ch.isspace():
            last = ch
    if not last:
        return None
    return last in ".?" and quote is None


def parse_one(text: str, *, source: str | None = None) -> Atom | Rule | Query:
    """Exactly one clause (the final '.' may be left off)."""
    text = text.strip()
    if text and not text.endswith("."):
        text += "."
    items = parse_program(text, source=source)
    if len(items) != 1:
        raise ParseError(f"expected one clause, found {len(items)}", source=source,
                         hint="enter one fact, rule or query at a time")
    return items[0].clause


def parse_query(text: str) -> Query:
    """A query, with or without the leading `?-` and the final '.'."""
    text = text.strip()
    shift = 0
    if not text.startswith("?-"):
        text, shift = "?- " + text, 3
    try:
        clause = parse_one(text)
    except ParseError as err:  # point at the column the user typed, not the one of the added `?- `
        if not shift or (err.line or 1) != 1 or not err.column or err.column <= shift:
            raise
        raise ParseError(err.problem, line=err.line, column=err.column - shift, source=err.source,
                         hint=err.hint) from None
    assert isinstance(clause, Query)
    return clause


def parse_atom(text: str, *, allow_variables: bool = True) -> Atom:
    """A single atom such as `father_of(joshua, X)` (for /why, /forget, /listing)."""
    text = text.strip()
    if not text:
        raise ParseError("expected an atom such as p(a, b)")
    body = parse_query(text.removeprefix("?-")).body
    if len(body) != 1 or not isinstance(body[0], Atom):
        raise ParseError(f"expected one atom such as p(a, b), got {text!r}")
    clause = body[0]
    if not allow_variables and not clause.is_ground:
        raise ParseError(f"{clause} has variables; give a ground atom", hint="e.g. father_of(joshua, don)")
    return clause


def check_reserved(clause: Atom | Rule | Query, *, source: str | None = None, line: int | None = None) -> None:
    """Refuse a new fact or rule head named `true`, `fail`, `halt` or `listing` (arity 0). Checked
    where clauses come in to be stored, not in every parse: a workspace that stored such a fact
    before they were reserved still reads back."""
    head = clause if isinstance(clause, Atom) else clause.head if isinstance(clause, Rule) else None
    if head is not None and not head.args and head.pred in RESERVED_HEADS:
        what = "stored as a fact" if isinstance(clause, Atom) else "defined by a rule"
        raise ParseError(f"{head} cannot be {what}: {head.pred} is {RESERVED_HEADS[head.pred]}",
                         source=source, line=line, hint="give the predicate another name")
