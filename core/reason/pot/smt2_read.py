"""SMT-LIB 2 scripts as text: the top-level forms (comments, strings and |symbols| respected, the
comment beside or above each form kept as its name), the script in a model's reply, and Z3's
error messages turned into one line with a hint. Nothing here evaluates anything; what each
command means is core/reason/pot/smt2_steps.py, running it smt2_run.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sym.core.llm.jsonout import BadJSON
from sym.core.reason.pot.declare import BuildError

MAX_DEPTH = 2_000
_Z3_ERROR = re.compile(r'\(error "(?:line (\d+) column (\d+): )?(.*?)"\)', re.S)
_TOKEN = re.compile(r'\s+|;[^\n]*|"(?:[^"]|"")*"|\|[^|]*\||[()]|[^\s()";|]+')


class Smt2Error(BuildError):
    """A script sym cannot read: the problem, with its line and column."""


@dataclass
class Smt2Program:
    """An SMT-LIB script as given (what /program shows and /export smt2 writes back)."""

    text: str
    source: str = "program.smt2"
    strict: bool = False     # a model's script: a command Z3 rejects fails it (to be written again), not skipped

    def model_dump(self, **_: Any) -> dict[str, Any]:
        return {"smt2": self.text}


@dataclass
class _Form:
    head: str
    tree: list[Any]          # the form as nested lists of tokens
    start: int
    end: int
    line: int
    column: int
    note: str = ""           # the comment on the line above it, or after it on its own line


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _error(text: str, offset: int, message: str) -> Smt2Error:
    line, column = _position(text, offset)
    return Smt2Error(f"line {line} column {column}: {message}")


def forms(text: str) -> list[_Form]:
    """The script's top-level forms (comments, strings and |quoted symbols| respected)."""
    out: list[_Form] = []
    stack: list[tuple[int, list[Any]]] = []
    pos = 0
    pending = opening = ""        # the comment above the next top-level form, and above this one
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:     # an unterminated string or |symbol|
            raise _error(text, pos, "unterminated string or |symbol|")
        tok, start, pos = m.group(), m.start(), m.end()
        if tok[0] == ";" and not stack:
            note = tok.lstrip(";").strip()
            if out and not out[-1].note and "\n" not in text[out[-1].end:start]:
                out[-1].note = note                     # (assert F) ; what F says
            else:
                pending = note                          # ; what F says \n (assert F)
            continue
        if tok[0].isspace() or tok[0] == ";":
            if tok.count("\n") > 1:
                pending = ""                            # a blank line ends a comment's reach
            continue
        if tok == "(":
            if not stack:
                opening, pending = pending, ""
            if len(stack) >= MAX_DEPTH:
                raise _error(text, start, f"nested deeper than {MAX_DEPTH} parentheses")
            stack.append((start, []))
        elif tok == ")":
            if not stack:
                raise _error(text, start, "unexpected ')': it closes nothing (the form before it is complete; "
                                          "count that form's parentheses)")
            begin, tree = stack.pop()
            if stack:
                stack[-1][1].append(tree)
            else:
                head = tree[0] if tree and isinstance(tree[0], str) else ""
                line, column = _position(text, begin)
                out.append(_Form(head, tree, begin, pos, line, column, opening))
        elif stack:
            stack[-1][1].append(tok)
        else:
            raise _error(text, start, f"expected '(' before {tok[:30]!r}")
    if stack:
        raise _error(text, stack[-1][0], "this '(' is never closed")
    return out


def symbol(token: Any) -> str:
    return token[1:-1] if isinstance(token, str) and token.startswith("|") else str(token)


def flat(tree: Any) -> str:
    """A form back as text (iteratively: nesting up to MAX_DEPTH)."""
    out: list[str] = []
    todo: list[Any] = [tree]
    while todo:
        t = todo.pop()
        if isinstance(t, list):
            todo.append(")")
            todo.extend(reversed([x for item in t for x in (item, " ")][:-1]))
            out.append("(")
        else:
            out.append(str(t))
    return "".join(out)


def z3_message(err: Exception) -> str:
    """Z3's own words in an exception, without its `(error "line … column …: …")` wrapping."""
    value = getattr(err, "value", None)
    raw = value.decode(errors="replace") if isinstance(value, bytes) else str(err)
    m = _Z3_ERROR.search(raw)
    return (m.group(3).replace('\\"', '"') if m else raw.strip()) or "Z3 could not read it"


def z3_error(err: Exception | str) -> Smt2Error:
    value = getattr(err, "value", None)
    raw = value.decode(errors="replace") if isinstance(value, bytes) else str(err)
    m = _Z3_ERROR.search(raw)
    if m is None:
        return Smt2Error(raw.strip() or "Z3 could not read the script")
    where = f"line {m.group(1)} column {m.group(2)}: " if m.group(1) else ""
    message = m.group(3).replace('\\"', '"')
    return Smt2Error(where + message, hint=z3_hint(message))


def z3_hint(message: str) -> str | None:
    """A hint for one of Z3's messages a person is likely to meet first."""
    return next((h for key, h in _Z3_HINTS if key in message.lower()), None)


_Z3_HINTS = (
    ("invalid sorted variable", "bind variables as (forall ((x S) (y S)) F): each in its own parentheses, "
                                "all inside one pair"),
    ("unknown sort", "declare a sort before using it: (declare-sort S 0); Int, Real and Bool are built in"),
    ("declared:", "call the function with the number and sorts of arguments it was declared with"),
    ("unknown constant", "declare every name before using it: (declare-const c S), or (declare-fun p (S) Bool) "
                         "for a property"),
)


def looks_like_smt2(text: str, name: str = "") -> bool:
    """An SMT-LIB script by its file name (.smt2, .smt) or its first character ('(' or ';')."""
    if name.lower().endswith((".smt2", ".smt")):
        return True
    head = text.lstrip()[:1]
    return head in ("(", ";")


_SCRIPT_LINE = re.compile(r"^[ \t]*([(;])", re.M)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n(.*?)(?:```|$)", re.S)


def script_in_reply(text: str) -> Smt2Program:
    """The SMT-LIB script in a model's reply (a fenced block, or from the first '(' to the last ')')."""
    fenced = [b for b in _FENCE.findall(text) if "(" in b]
    body = fenced[0] if fenced else text
    first = _SCRIPT_LINE.search(body)             # a line that opens a form or is a comment ("; (a remark)")
    start, end = (first.start(1) if first else body.find("(")), body.rfind(")")
    if start < 0 or end < start:
        raise BadJSON("no SMT-LIB script in the reply: write (declare-…), (assert …) and (check-sat-assuming (…))")
    return Smt2Program(body[start:end + 1], "the model's script", strict=True)


_PROSE_AFTER = re.compile(r"\n[ \t]*[^\s(;)]")


def script_complete(text: str) -> bool:
    """Whether a reply being streamed already holds a whole script, so reading can stop there
    (`LLM.chat(until=…)`): a fenced block that has closed, or, unfenced, balanced forms with a
    (check-sat…) among them followed by a line of prose."""
    opened = text.find("```")
    if opened >= 0:
        return text.find("```", opened + 3) >= 0
    depth, checked, end, i = 0, False, -1, 0
    while i < len(text):
        c = text[i]
        if c == ";":                      # a comment runs to the end of its line
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        if c == '"':                      # a string literal ("" is a quote inside it)
            close = text.find('"', i + 1)
            if close < 0:
                return False
            i = close + 1
            continue
        if c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                end = i + 1
                checked = checked or text.startswith("(check-sat", start)
        i += 1
    return checked and depth == 0 and bool(_PROSE_AFTER.search(text, end))
