"""Where one input goes: a /command, a query (`?-`), chat (natural language), or logic text to
assert. Light to import: the input line uses it while the rest of the shell is still loading."""

from __future__ import annotations

import re


def route(text: str) -> tuple[str, str]:
    """(command name, argument text) for one input."""
    text = text.strip()
    if text.startswith("/"):
        name, _, rest = text.partition(" ")
        if "\n" in name:
            name, _, more = name.partition("\n")
            rest = more + (" " + rest if rest else "")
        return name, rest.strip()
    if text.startswith("?-"):
        return "/query", text
    if looks_like_chat(text):
        return "/chat", text
    return "", text     # logic text: facts, rules, constraints (and queries) to assert


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'")


def looks_like_chat(text: str) -> bool:
    """Natural language rather than logic: a question, or several words with no `(` or `:-`
    outside quoted atoms ("Bob is big." is chat; "big(bob)." and "'bald eagle'." are logic)."""
    bare = _QUOTED.sub("q", text.strip())
    if bare.endswith("?"):
        return True
    return "(" not in bare and ":-" not in bare and len(bare.rstrip(".").split()) > 1
