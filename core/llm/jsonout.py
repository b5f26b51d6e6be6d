"""JSON out of a model's reply: find it in prose or code fences, then validate it with pydantic.

Models wrap JSON in chatter and ```json fences, leave trailing commas and get the case of
keys wrong. This room finds the JSON (with `json.loads` only — never eval), removes trailing
commas outside strings, maps keys to the schema's field names case-insensitively, and
validates. Anything it cannot read becomes a `BadJSON` whose message can be shown to the
model in a repair round.
"""

from __future__ import annotations

import json
import re

_FENCE = re.compile(r"```[ \t]*(?:json|JSON|javascript|js)?[ \t]*\n?(.*?)```", re.S)


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


def _loads(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return json.loads(_without_trailing_commas(text))


def extract_json(text: str, *, want: type | tuple = (dict, list)):
    """The first JSON value of type `want` in `text`: the whole text, a fenced block, or the
    first `{`/`[` that starts a complete value. Raises BadJSON."""
    candidates = [text.strip()] + [m.group(1).strip() for m in _FENCE.finditer(text)]
    for candidate in candidates:
        try:
            value = _loads(candidate)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, want):
            return value
    decoder = json.JSONDecoder()
    cleaned = _without_trailing_commas(text)
    for source in (text, cleaned):
        for match in re.finditer(r"[\[{]", source):
            try:
                value, _ = decoder.raw_decode(source, match.start())
            except (ValueError, RecursionError):
                continue
            if isinstance(value, want):
                return value
    if "{" in text or "[" in text:
        raise BadJSON("the reply has no complete, valid JSON value (unbalanced brackets or bad syntax?)")
    raise BadJSON("the reply has no JSON in it")


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-]", "", name).lower()


def _resolve(schema: dict, defs: dict) -> dict:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return defs.get(ref.rsplit("/", 1)[1], {})
    return schema


def _fix_keys(value, schema: dict, defs: dict, depth: int = 0):
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


def describe(err) -> str:
    """A pydantic ValidationError as one short line per problem (at most five)."""
    parts = []
    for problem in err.errors()[:5]:
        where = ".".join(str(p) for p in problem.get("loc", ())) or "(top)"
        parts.append(f"{where}: {problem.get('msg', 'invalid')}")
    more = len(err.errors()) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def parse_model(text: str, schema_cls):
    """A `schema_cls` (pydantic model) instance from a reply's text. Raises BadJSON."""
    from pydantic import ValidationError

    schema = schema_cls.model_json_schema()
    want = list if schema.get("type") == "array" else dict
    value = extract_json(text, want=want)
    value = _fix_keys(value, schema, schema.get("$defs", {}))
    try:
        return schema_cls.model_validate(value)
    except ValidationError as err:
        raise BadJSON(describe(err)) from None


def parse_json_reply(text: str, schema_cls):
    """`parse_model` for callers that handle user errors: a mismatch is LLMError(bad-output)."""
    from core.llm import LLMError

    try:
        return parse_model(text, schema_cls)
    except BadJSON as err:
        raise LLMError(f"the model's reply does not match the {schema_cls.__name__} schema: {err}",
                       reason="bad-output", hint="try again, or /set model to a stronger model") from None
