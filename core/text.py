"""Text made valid before it is stored or written: whatever a model, a file or a log holds.

A Python `str` may hold what UTF-8 cannot encode — a lone surrogate ("\\ud800": half an emoji
from a tokenizer, or a `\\ud800` escape in a JSON reply, file or log) — and NULs that C code (Z3,
SQLite's C strings) cuts text at. `valid` replaces each with U+FFFD and says how many it replaced,
joins a surrogate pair into the character it stands for, and makes CRLF and CR line ends LF;
`valid_json` does the same to every string (keys too) of a decoded JSON value. Text that is
already valid comes back as it was (the same object), so the check costs little.
"""

from __future__ import annotations

import re
from typing import Any

REPLACEMENT = "\ufffd"
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_LONE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\x00")
_SURROGATE_OR_NUL = re.compile("[\ud800-\udfff\x00]")


def valid(text: str, *, line_ends: bool = True) -> tuple[str, int]:
    """`text` made valid UTF-8 to store or write, and how many characters were replaced (lone
    surrogates and NULs, each by U+FFFD). `line_ends`: CRLF and CR become LF as well."""
    if not isinstance(text, str):
        return text, 0
    replaced = 0
    if not text.isascii() or "\x00" in text:
        if _SURROGATE_OR_NUL.search(text):
            text, replaced = _LONE.subn(REPLACEMENT, text)
            text = _PAIR.sub(lambda m: m.group().encode("utf-16", "surrogatepass").decode("utf-16"), text)
    if line_ends and "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, replaced


def valid_text(text: str, *, line_ends: bool = True) -> str:
    """`valid(text)` without the count."""
    return valid(text, line_ends=line_ends)[0]


def valid_json(value: Any, *, line_ends: bool = False) -> tuple[Any, int]:
    """A decoded JSON value (dicts, lists, strings, numbers …) with every string made valid (see
    `valid`), keys included, and how many characters were replaced in all; however deep it nests
    (no recursion). Line ends inside strings are kept unless `line_ends`."""
    count = 0

    def clean(text: str) -> str:
        nonlocal count
        out, n = valid(text, line_ends=line_ends)
        count += n
        return out

    box: list[Any] = [value]
    slots: list[tuple[Any, Any]] = [(box, 0)]
    while slots:
        parent, key = slots.pop()
        v = parent[key]
        if isinstance(v, str):
            parent[key] = clean(v)
        elif isinstance(v, list):
            items = parent[key] = list(v)
            slots.extend((items, i) for i in range(len(items)))
        elif isinstance(v, dict):
            fields: dict[Any, Any] = {}
            for k, x in v.items():
                ck = clean(k) if isinstance(k, str) else k
                if ck in fields:        # keys that differ only in invalid characters: the later wins, as in JSON
                    count += valid_json(fields[ck], line_ends=line_ends)[1]
                fields[ck] = x
            parent[key] = fields
            slots.extend((fields, k) for k in fields)
    return box[0], count


def replaced_note(count: int, what: str) -> str:
    """One line saying what was replaced: "the model's reply held 1 invalid character (…)"."""
    noun = "character" if count == 1 else "characters"
    return f"{what} held {count} invalid {noun} (a lone surrogate or NUL), replaced with U+FFFD"
