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
# how a clause starts: `:-`, `?-`, `~`, a name or quoted atom right before `(`, or an atom before
# `:-` or a full stop (`rain.`, `a :- b.`)
_ATOM = r"(?:[^\W\d]\w*|'(?:[^'\\]|\\.)*')"
_CLAUSE = re.compile(rf"(?::-|\?-|~|\\\+|{_ATOM}\(|{_ATOM}\s*(?::-|(?P<stop>\.)(?:\s|%|$)))")


_HABIT = re.compile(r"(?:halt|listing)\s*\.?")


def looks_like_clause(text: str) -> bool:
    """Whether text starts as a clause does (see _CLAUSE); its first line that is not blank or a
    `%` comment decides. A capitalised word before a full stop is not an atom ("Hi." is a greeting)."""
    first = next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("%")), "")
    found = _CLAUSE.match(first)
    return found is not None and not (found.group("stop") and first[0].isupper())


def looks_like_chat(text: str) -> bool:
    """Natural language rather than logic: a question, or anything that does not start as a clause
    does (looks_like_clause), whatever its punctuation ("Is Rex a dog" and "Bob is big." are chat;
    "big(bob)." and "'bald eagle'(x)." are logic)."""
    bare = _QUOTED.sub("q", text.strip())
    if bare.endswith("?"):
        return True
    if _HABIT.fullmatch(text.strip()):       # SWI-Prolog's halt and listing, with or without the '.'
        return False
    return not looks_like_clause(text)
