"""What a parse error says: where it is and a hint that names the actual mistake.

The parser (parser.py) hands Lark's exception and the text here; this room turns them into one
`ParseError`. Lines are counted over CR, LF and CRLF alike (a CRLF paste is one line break per
line, a CR-only text still has lines), columns from 1. It reads the text only to locate and
explain; it never changes what parses.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from sym.core.errors import ParseError

KEYWORDS = frozenset({"not", "false"})

_TOKEN_WORDS = {
    "DOT": "'.'", "COMMA": "','", "LPAR": "'('", "RPAR": "')'", "IF": "':-'",
    "NAME": "a name", "VAR": "a variable", "QUOTED": "a quoted atom", "NUMBER": "a number",
    "COMPOP": "a comparison", "NOT": "'not'", "NAF": "'\\+'", "FALSE": "'false'", "NEG": "'~'", "QUERY": "'?-'",
    "$END": "end of input",
}
_TERMS = frozenset({"NAME", "VAR", "QUOTED", "NUMBER"})
_BREAK = re.compile(r"\r\n|\r|\n")
_NAME_BEFORE = re.compile(r"(\w+|'[^'\n]*')\s*$")


class Lines:
    """Line starts of a text, where CR, LF and CRLF each end one line."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    def locate(self, pos: int) -> tuple[int, int]:
        """(line, column) of a character offset, both from 1."""
        line = bisect_right(self.starts, pos)
        return line, pos - self.starts[line - 1] + 1


def _scan(text: str, end: int) -> tuple[list[int], int]:
    """Reading text[:end] as the grammar does (quoted atoms, `%` comments): the offsets of the
    '(' still open there, and the offset just after the last content before `end`."""
    opened: list[int] = []
    last = 0
    quote = None
    i = 0
    while i < end:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
            elif ch in "\r\n":   # a quoted atom never spans lines
                quote = None
            last = i + 1
        elif ch == "%":
            while i < end and text[i] not in "\r\n":
                i += 1
            continue
        elif ch in "'\"":
            quote = ch
            last = i + 1
        elif not ch.isspace():
            if ch == "(":
                opened.append(i)
            elif ch == ")" and opened:
                opened.pop()
            last = i + 1
        i += 1
    return opened, last


def _error_pos(err: UnexpectedInput, text: str) -> int:
    """The offset the error is at (the end of the text for an unexpected end)."""
    if isinstance(err, UnexpectedToken) and err.token.type != "$END" and err.token.start_pos is not None:
        return int(err.token.start_pos)
    if isinstance(err, UnexpectedCharacters) and err.pos_in_stream is not None:
        return err.pos_in_stream
    return len(text)


def _with(text: str, lines: Lines, at: int, insert: str) -> str:
    """The line holding offset `at`, with `insert` put there (a fix shown in a hint), or '' when long."""
    line, _ = lines.locate(at)
    start = lines.starts[line - 1]
    stop = lines.starts[line] if line < len(lines.starts) else len(text)
    shown = (text[start:at] + insert + text[at:stop]).strip()
    return shown if len(shown) <= 80 else ""


def _unclosed(text: str, lines: Lines, opened: int, last: int) -> tuple[str, str]:
    before = _NAME_BEFORE.search(text[:opened])
    after = f" after {before.group(1)}" if before else ""
    fixed = _with(text, lines, last, ")")
    return (f"'('{after} is still open at the end of the line",
            f"close the arguments with ')'{': ' + fixed if fixed else ''}")


def _hint(err: UnexpectedInput, text: str, lines: Lines, pos: int) -> tuple[str, str, int]:
    """What went wrong, a hint for fixing it, and the offset to report it at."""
    expected = set(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    if isinstance(err, UnexpectedCharacters):
        ch = text[pos] if pos < len(text) else "?"
        hint = "quote atoms that hold spaces or symbols: 'like this'"
        if ch in "[{":
            hint = "lists and compound terms are not part of the language (Datalog)"
        return f"unexpected character {ch!r}", hint, pos
    opened, last = _scan(text, pos)
    tok = err.token if isinstance(err, UnexpectedToken) else None
    at_end = tok is None or tok.type == "$END" or isinstance(err, UnexpectedEOF)
    new_line = _BREAK.search(text, last, pos) is not None   # the token starts a later line
    if opened and (at_end or new_line or (tok is not None and tok.type == "DOT" and "RPAR" in expected)):
        # `bad(1` at a line's end (the shell adds the '.' a typed clause may leave off)
        message, hint = _unclosed(text, lines, opened[-1], last)
        return message, hint, last
    if at_end:   # pointed at the last character, where the '.' is missing
        return "unexpected end of input", "every clause ends with '.'", max(last - 1, 0)
    assert tok is not None
    shown = f"'{tok}'"
    if tok.type == "LPAR":
        before = re.search(r"(\w+)\s*$", text[:pos])
        if before and (before.group(1)[0].isupper() or before.group(1)[0] == "_"):
            return f"unexpected {shown}", "predicate names start with a lower-case letter (or are quoted)", pos
        if before and before.group(1) in KEYWORDS:
            word = before.group(1)
            return f"unexpected {shown}", f"{word} is a keyword; quote it to use it as a name: '{word}'(…)", pos
        return f"unexpected {shown}", "arguments must be constants or variables (no function symbols)", pos
    if tok.type == "VAR" and "NAME" in expected and "VAR" not in expected:
        return f"unexpected variable {shown}", "predicate names start with a lower-case letter (or are quoted)", pos
    if tok.type in _TERMS | {"NEG", "NOT", "NAF", "FALSE"} and "COMMA" in expected and not new_line:
        # two things side by side on one line where a list goes on: a comma is missing
        fixed = _with(text, lines, last, ",")
        if opened:
            word = re.search(r"\w+$", text[:last])
            both = tok.type == "NAME" and word is not None and word.group(0)[0].isalpha() and not word.group(0)[0].isupper() \
                and pos - last == 1
            spaced = f" (or quote a name with a space: '{word.group(0)} {tok}')" if both and word else ""
            return (f"missing ',' between arguments before {shown}",
                    f"separate arguments with ','{': ' + fixed if fixed else ''}{spaced}", pos)
        return (f"missing ',' between goals before {shown}",
                f"separate the goals of a body with ','{': ' + fixed if fixed else ''}", pos)
    if "DOT" in expected and tok.type in {"NAME", "VAR", "QUOTED", "NUMBER", "NEG", "IF", "QUERY"}:
        return f"unexpected {shown}", "missing '.' at the end of the previous clause?", pos
    if expected == {"IF"}:      # `false.`: the keyword starts a constraint only
        return (f"unexpected {shown}",
                "false is built in: it never holds, so it cannot be a fact; false :- BODY. is a constraint", pos)
    words = sorted(_TOKEN_WORDS.get(e, e) for e in expected)
    return f"unexpected {shown}", f"expected {', '.join(words[:5])}" if words else "check the syntax", pos


def located_error(err: UnexpectedInput, text: str, source: str | None, line_offset: int) -> ParseError:
    """The one ParseError a syntax error in `text` becomes, at its line and column."""
    lines = Lines(text)
    message, hint, at = _hint(err, text, lines, _error_pos(err, text))
    line, column = lines.locate(at)
    return ParseError(message, line=line + line_offset, column=column, source=source, hint=hint)


def position(text: str, offset: int) -> tuple[int, int]:
    """(line, column) of an offset in text, counting CR, LF and CRLF line ends alike."""
    return Lines(text).locate(offset)
