"""What a session log keeps of a long value: a text over TEXT_LIMIT as its prefix, length and
sha256, an event payload still over EVENT_LIMIT as its length and sha256 alone, and (for comparing
a replay with its recording) a result without the fields that differ on every run.

It only measures and copies values; writing and reading the log is sessions.log's.
"""

from __future__ import annotations

import hashlib
import json

TEXT_LIMIT = 64 * 1024        # a longer text in an output or a model call is logged as prefix + length + sha256
KEEP = 4 * 1024               # how much of it the log keeps
EVENT_LIMIT = 1024 * 1024     # an output still larger than this is logged as its length and sha256 only
BOUNDED = "\u2026[sym: "      # what a bounded text has after its prefix

VOLATILE = {"created_at", "loaded_at", "started", "ts", "path"}


def normalise(value):
    """Results without the fields that differ on every run (timestamps)."""
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def bound_text(text: str) -> str:
    """`text` itself, or its first KEEP characters + its length and sha256 when it is over TEXT_LIMIT."""
    if len(text) <= TEXT_LIMIT:
        return text
    return f"{text[:KEEP]}{BOUNDED}{len(text)} characters in all, sha256 {_digest(text)}]"


def is_bounded(value: object) -> bool:
    """Whether a logged text is a bounded copy (so it cannot stand in for the original)."""
    return isinstance(value, str) and BOUNDED in value[KEEP - 1:KEEP + len(BOUNDED) + 1]


def _bounded_texts(v, d):
    """A copy with every long text bounded (containers as dicts and lists)."""
    if isinstance(v, str):
        return bound_text(v)
    if d > 200:
        return v
    if isinstance(v, dict):
        return {k: _bounded_texts(x, d + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_bounded_texts(x, d + 1) for x in v]
    return v


def bound_payload(value, depth: int = 0):
    """A copy of an event payload with every long text bounded, and, when the whole is still over
    EVENT_LIMIT, only its command, kind, length and sha256 (replay --verify bounds its results alike)."""
    if isinstance(value, dict):
        digest = _large_digest(value, depth)
        if digest is not None:
            return _digested(value, digest)
    out = _bounded_texts(value, depth)
    if isinstance(out, dict):
        try:
            whole = json.dumps(out, ensure_ascii=True, default=str)
            if len(whole) > EVENT_LIMIT:   # the digest leaves out timestamps, so a replay can compare it
                whole = json.dumps(normalise(out), ensure_ascii=True, default=str, sort_keys=True)
        except (ValueError, RecursionError, TypeError):
            return out
        if len(whole) > EVENT_LIMIT:
            keep = {k: out[k] for k in ("command", "ok", "kind") if k in out}
            return {**keep, "bounded": {"length": len(whole), "sha256": _digest(whole)}}
    return out


def _large_digest(value: dict, depth: int) -> dict | None:
    """The length and sha256 of a payload whose texts alone (timestamps left out) are over
    EVENT_LIMIT, from one pass that bounds and normalises together (a /consult's 100k items);
    None for any other, which `bound_payload` measures whole."""
    size = 0

    def one(x, d):      # a value inside a container: plain values without a call each
        nonlocal size
        kind = type(x)
        if kind is str:
            x = x if len(x) <= TEXT_LIMIT else bound_text(x)
            size += len(x)
            return x
        return x if kind in _PLAIN else walk(x, d)

    def walk(v, d):
        if isinstance(v, str) or d > 200:
            return one(v, d) if isinstance(v, str) else v
        if isinstance(v, dict):
            return {k: one(x, d + 1) for k, x in v.items() if k not in VOLATILE}
        if isinstance(v, (list, tuple)):
            return [one(x, d + 1) for x in v]
        return v

    try:
        normal = walk(value, depth)
        if size <= EVENT_LIMIT:
            return None
        whole = json.dumps(normal, ensure_ascii=True, default=str, sort_keys=True)
    except (ValueError, RecursionError, TypeError):
        return None
    return {"length": len(whole), "sha256": _digest(whole)}


_PLAIN = frozenset({int, float, bool, type(None)})


def _digested(value: dict, digest: dict) -> dict:
    return {**{k: value[k] for k in ("command", "ok", "kind") if k in value}, "bounded": digest}


def bound_with_columns(value: dict, key: str, columns: dict[str, list[str]]) -> dict | None:
    """`bound_payload({key: [one dict per row of columns], **value})` where that is digested whole
    (the rows' texts alone over EVENT_LIMIT), written from the columns' strings without a dict per
    row (a /consult's 100k items); None where it is not, or a column holds other than strings (the
    caller bounds it the ordinary way). No column VOLATILE; `key` sorts before every key of `value`."""
    encode = json.encoder.encode_basestring_ascii       # what json.dumps writes a string as, ensure_ascii
    names = sorted(columns)
    size = 0
    encoded = []
    try:
        for name in names:
            column = columns[name]
            if column and max(map(len, column)) > TEXT_LIMIT:
                column = [bound_text(v) for v in column]
            size += sum(map(len, column))
            encoded.append(list(map(encode, column)))
    except TypeError:
        return None
    if size <= EVENT_LIMIT:
        return None
    row = "{" + ", ".join(f"{encode(name)}: %s" for name in names) + "}"
    rows = ", ".join([row % values for values in zip(*encoded)])
    rest = json.dumps(normalise(_bounded_texts(value, 1)), ensure_ascii=True, default=str, sort_keys=True)
    whole = f"{{{encode(key)}: [{rows}]{', ' + rest[1:] if rest != '{}' else '}'}"
    return _digested(value, {"length": len(whole), "sha256": _digest(whole)})
