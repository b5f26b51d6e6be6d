"""JSON out of a model's reply: find it in prose or code fences, then validate it with pydantic.

Models wrap JSON in chatter and ```json fences, leave trailing commas, get the case of keys
wrong, and stop mid-object when they hit the output cap. This room finds the top-level JSON
values in one linear pass (read with `json.loads` only — never eval), removes trailing commas
outside strings, maps keys to the schema's field names case-insensitively, and validates.
A reply cut off mid-value is reported as cut off, never answered with a value nested inside it.
Anything it cannot read becomes a `BadJSON` whose message can be shown to the model in a repair.
Inside `reading_until(end)` the pass stops at the time `end` (time.monotonic) with LLMError(timeout):
the call's deadline covers reading its reply, not only receiving it.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sym.core.llm import LLMError
from sym.core.text import valid_json

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound="BaseModel")   # the pydantic model a structured reply is read into

CUT_OFF = "the model's output was cut off"
CHECK_EVERY = 4096   # brackets and quotes passed between two looks at the clock
_deadline = threading.local()


@contextmanager
def reading_until(end: float | None, what: str = "the model") -> Iterator[None]:
    """Replies read in this thread inside the block must be read by `end` (time.monotonic)."""
    previous = getattr(_deadline, "end", None), getattr(_deadline, "what", "")
    _deadline.end, _deadline.what = end, what
    try:
        yield
    finally:
        _deadline.end, _deadline.what = previous


def past_deadline() -> None:
    """Raise LLMError(timeout) when the reading deadline (`reading_until`) has passed."""
    end = getattr(_deadline, "end", None)
    if end is not None and time.monotonic() > end:
        raise LLMError(f"{_deadline.what} did not answer in time: reading and checking its reply ran past "
                       "llm_timeout", reason="timeout", hint="/set llm_timeout SECONDS to wait longer, or "
                       "/set llm_max_tokens lower", exit_code=4)
_CLOSE = {"{": "}", "[": "]"}
# what may follow an opening bracket (after spaces) when it starts real JSON, not prose like {name}
_FOLLOWS = {"{": '"}', "[": '{["]-0123456789tfn'}
_SPECIAL = re.compile(r'["\\{}\[\]]')


class BadJSON(ValueError):
    """The reply holds no JSON value of the right shape; the message says what is wrong."""


def _without_trailing_commas(text: str) -> str:
    """`[1, 2,]` -> `[1, 2]`, outside string literals only."""
    out: list[str] = []
    in_string = escaped = False
    pending_comma = -1
    for ch in text:
        if in_string:
            out.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch in "}]" and pending_comma >= 0:
            out[pending_comma] = ""
        if ch == ",":
            pending_comma = len(out)
        elif not ch.isspace():
            pending_comma = -1
        if ch == '"':
            in_string = True
        out.append(ch)
    return "".join(out)


def _loads(text: str) -> Any:
    # strict=False: a raw tab or line break inside a string (small models write them) is kept as written;
    # a "\ud800" escape decodes to a lone surrogate, made valid here (core/text.py)
    try:
        value = json.loads(text, strict=False)
    except ValueError:
        value = json.loads(_without_trailing_commas(text), strict=False)
    return valid_json(value)[0]


def _starts_json(text: str, i: int) -> bool:
    j = i + 1
    n = len(text)
    while j < n and text[j] in " \t\r\n":
        j += 1
    return j == n or text[j] in _FOLLOWS[text[i]]    # an opener the text ends on was cut off


def _span_end(text: str, start: int) -> int:
    """The index just past the bracket that closes the one at `start` (strings skipped), or -1
    when the text ends first. Linear in the span's length."""
    depth = 0
    in_string = False
    pos = start
    search = _SPECIAL.search
    seen = 0
    while True:
        seen += 1
        if seen % CHECK_EVERY == 0:
            past_deadline()
        m = search(text, pos)
        if m is None:
            return -1
        ch, pos = m.group(), m.end()
        if in_string:
            if ch == "\\":
                pos += 1            # whatever is escaped, it does not end the string
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1          # a mismatched closer still closes: json.loads will say what is wrong
            if depth == 0:
                return pos


@dataclass
class Scan:
    """The top-level JSON values of a reply, in order; `error` is the first complete-looking span
    that did not parse; `cut` is where an unterminated value starts (-1 when none)."""

    values: list[Any] = field(default_factory=list)
    error: str = ""
    cut: int = -1
    openers: bool = False


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    return f"line {line} column {pos - (text.rfind(chr(10), 0, pos) + 1) + 1}"


def scan(text: str) -> Scan:
    """Every top-level JSON object or array in `text` (prose and fences between them are skipped).
    One pass: each character is looked at a bounded number of times."""
    out = Scan()
    i, n = 0, len(text)
    find = re.compile(r"[\[{]").search
    while i < n:
        m = find(text, i)
        if m is None:
            break
        i = m.start()
        out.openers = True
        if not _starts_json(text, i):
            i += 1
            continue
        past_deadline()
        end = _span_end(text, i)
        if end < 0:
            out.cut = i
            break
        try:
            out.values.append(_loads(text[i:end]))
        except json.JSONDecodeError as err:
            if not out.error:
                out.error = f"{err.msg} at {_where(text, i + err.pos)}"
        except (ValueError, RecursionError):
            if not out.error:
                out.error = f"the JSON starting at {_where(text, i)} is nested too deeply or not valid"
        i = end
    return out


def _pick(value: Any, want: type | tuple[Any, ...]) -> Any:
    """`value` if it is of type `want`; a one-item list around the wanted object is unwrapped."""
    if isinstance(value, want):
        return value
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], want):
        return value[0]
    return None


def _failure(found: Scan, text: str) -> BadJSON:
    if found.cut >= 0:
        return BadJSON(f"{CUT_OFF}: the JSON value that starts at {_where(text, found.cut)} never ends "
                       "(too long, or repeating itself?)")
    if found.error:
        return BadJSON(f"the reply has no complete, valid JSON value: {found.error}")
    if found.values:
        return BadJSON("the reply's JSON is not of the expected kind (an object was expected)")
    if found.openers:
        return BadJSON("the reply has no JSON in it, only brackets in prose")
    return BadJSON("the reply has no JSON in it")


def candidates(text: str, *, want: type | tuple[Any, ...] = (dict, list)) -> tuple[list[Any], Scan]:
    """The reply's top-level values of type `want`, in order, and the scan they came from."""
    found = scan(text)
    picked = [v for v in (_pick(v, want) for v in found.values) if v is not None]
    return picked, found


def extract_json(text: str, *, want: type | tuple[Any, ...] = (dict, list)) -> Any:
    """The first top-level JSON value of type `want` in `text`: bare, in prose or in a fence.
    Raises BadJSON; a value the text cuts off is reported as cut off, not searched inside."""
    picked, found = candidates(text, want=want)
    if picked:
        return picked[0]
    raise _failure(found, text)


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-]", "", name).lower()


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found: dict[str, Any] = defs.get(ref.rsplit("/", 1)[1], {})
        return found
    return schema


def _fix_keys(value: Any, schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Any:
    """Rename keys that miss a schema field only by case, spaces or underscores; recurse."""
    if depth > 50 or not isinstance(schema, dict):
        return value
    schema = _resolve(schema, defs)
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        for option in options:
            option = _resolve(option, defs)
            if isinstance(value, dict) and option.get("type") == "object" or \
                    isinstance(value, list) and option.get("type") == "array":
                return _fix_keys(value, option, defs, depth + 1)
        return value
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        props = schema["properties"]
        by_norm = {_norm(k): k for k in props}
        out = {}
        for key, item in value.items():
            name = key if key in props else by_norm.get(_norm(str(key)), key)
            if name in out and name != key:
                name = key   # two keys for one field: leave it to the validator to complain
            out[name] = _fix_keys(item, props.get(name, {}), defs, depth + 1)
        return out
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_fix_keys(v, schema["items"], defs, depth + 1) for v in value]
    return value


def describe(err: ValidationError) -> str:
    """A pydantic ValidationError as one short line per problem (at most five)."""
    parts = []
    for problem in err.errors()[:5]:
        where = ".".join(str(p) for p in problem.get("loc", ())) or "(top)"
        parts.append(f"{where}: {problem.get('msg', 'invalid')}")
    more = len(err.errors()) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def parse_model(text: str, schema_cls: type[M]) -> M:
    """A `schema_cls` (pydantic model) instance from a reply's text: the first top-level JSON value
    that validates. Raises BadJSON (cut off, no JSON, or the first value's validation errors)."""
    from pydantic import ValidationError

    schema = schema_cls.model_json_schema()
    want = list if schema.get("type") == "array" else dict
    picked, found = candidates(text, want=want)
    if not picked:
        raise _failure(found, text)
    first_problem = ""
    for value in picked:
        past_deadline()
        value = _fix_keys(value, schema, schema.get("$defs", {}))
        try:
            return schema_cls.model_validate(value)
        except ValidationError as err:
            first_problem = first_problem or describe(err)
    if found.cut >= 0:     # an example or fragment came first; the real answer was cut off
        raise _failure(found, text)
    raise BadJSON(first_problem)


def parse_json_reply(text: str, schema_cls: type[M]) -> M:
    """`parse_model` for callers that handle user errors: a mismatch is LLMError(bad-output)."""
    try:
        return parse_model(text, schema_cls)
    except BadJSON as err:
        raise LLMError(f"the model's reply does not match the {schema_cls.__name__} schema: {err}",
                       reason="bad-output", hint="try again, or /set model to a stronger model") from None
