"""A text → its sentences, in linear time. "Box 0 contains …, Box 1 contains …" lists (one
verb, a name before each) become one sentence per part."""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(]?[A-Za-z0-9])")
# a stop after these is not the end of a sentence ("Dr. Smith", "e.g. cats")
_ABBREVIATION = re.compile(r"\b(?:mr|mrs|ms|dr|vs|e\.g|i\.e|cf)\.$", re.I)
_NAME_WORD = re.compile(r"(?:[A-Z][A-Za-z'-]*|\d+)\Z")
_WORD = re.compile(r"[a-z][a-z'-]*\Z")
_FUNCTION = frozenset("the a an and or not is are if then all every each no of".split())


def _list_parts(sentence: str) -> list[str] | None:
    body = sentence.rstrip(".")
    parts = body.split(", ")
    if len(parts) < 2:
        return None
    verbs = set()
    for part in parts:
        words = part.split()
        k = 0
        while k < len(words) and _NAME_WORD.match(words[k]):
            k += 1
        if k == 0 or k == len(words) or not _WORD.match(words[k]) or words[0].lower() in _FUNCTION:
            return None
        verbs.add(words[k])
    return [p + "." for p in parts] if len(verbs) == 1 else None


def split_sentences(text: str) -> list[str]:
    """Sentences of a text; "Box 0 contains …, Box 1 contains …" lists become one each."""
    pieces: list[str] = []
    for raw in _SENTENCE_END.split(" ".join(text.split())):
        if pieces and _ABBREVIATION.search(pieces[-1]):
            pieces[-1] += " " + raw            # "Dr. Smith": one sentence
        else:
            pieces.append(raw)
    out = []
    for raw in pieces:
        raw = raw.strip()
        if raw:
            out.extend(_list_parts(raw) or [raw])
    return out
