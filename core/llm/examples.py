"""Words a prompt's worked example uses that a reply must not copy (issue 53: "tom" in a FOLIO
program, "Zell is the wug of Tarn" in a CLUTRR reading).

sym's prompts teach by example, with names of their own: invented words (wug, Zell, Tarn) and a
few stock names (Tom, Felix, Tweety). A reply that uses one of them when the text it was given
does not was copied from the example, not read from the text: `copied` names them, and every
structured call refuses such a reply with the reason (core/llm/repair.py), as step 2 of
step-wise writing already did for a function's name. The text given is what the user messages
say, less the example texts the prompts put there (`register`); system prompts and the model's
own turns are never the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

# the names sym's prompts use in their worked examples (lower case)
EXAMPLE_NAMES = frozenset({"tom", "felix", "tweety", "zell", "tarn", "quiv", "fep", "plon", "mib", "wug", "dax",
                           "zib", "glim", "glims"})

_REGISTERED: list[str] = ["like: Tarn is the mib of Zell."]     # core/reason/swm/prompts.py's restate repair
_WORD = re.compile(r"[A-Za-z][a-z0-9]*|[A-Z0-9]+(?![a-z])")


def register(*texts: str) -> None:
    """Example texts a prompt puts in a user message (they are the prompt's, not the text's)."""
    for text in texts:
        if text and text not in _REGISTERED:
            _REGISTERED.append(text)
    _REGISTERED.sort(key=len, reverse=True)       # a longer example is taken out before one inside it


def words(text: str) -> set[str]:
    """The words of a text, identifiers split at underscores and case changes ("tom_cat", "tomCat":
    tom, cat), lower-cased."""
    return {w.lower() for w in _WORD.findall(text)}


def given(messages: Iterable[dict[str, Any]]) -> set[str]:
    """The words of the text a request gives: its user messages, less the registered examples (the
    last user message kept whole when it is nothing but one: the text given is the example's)."""
    users = [m["content"] for m in messages if m.get("role") == "user" and isinstance(m.get("content"), str)]
    out: set[str] = set()
    for i, text in enumerate(users):
        if i == len(users) - 1 and text.strip() in (e.strip() for e in _REGISTERED):
            out |= words(text)
            continue
        for example in _REGISTERED:
            text = text.replace(example, " ")
        out |= words(text)
    return out


def copied(reply: str, messages: Iterable[dict[str, Any]]) -> list[str]:
    """The example names a reply uses that the request's text does not (sorted)."""
    found = words(reply) & EXAMPLE_NAMES
    return sorted(found - given(messages)) if found else []


def problem(names: list[str]) -> str:
    said = ", ".join(repr(n) for n in names)
    return (f"{said} {'is a name' if len(names) == 1 else 'are names'} from the prompt's example, not from the "
            "text: use only the text's own names")
