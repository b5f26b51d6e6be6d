"""Counting statements in an open world. "Bob has at most two cats." is a check every later fact
must pass: an integrity constraint over the count of what is known (distinct names are distinct
things), `:- aggregate_all(count, (has(bob, X), cat(X)), N), N > 2.` (any verb: "Bob owns at most
two cars." counts `owns(bob, X)`); "There are at most three cats." counts every cat, and "There is
no cat." is `:- cat(X).` What says that things exist ("There is a cat.", "Bob has two cats.",
"at least three") has no sound reading here: sym's logic holds no unnamed thing, and a lower bound
is no check a set of known facts could fail — such a sentence is refused, with that reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sym.core.logic.terms import format_const
from sym.core.reason.swm.english import lexicon

_NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_N = r"(?P<n>\d+|" + "|".join(_NUMBERS) + ")"
_AT_MOST = r"(?:at most|no more than|not more than)"
_HAS = re.compile(rf"^(?P<who>.+?) (?P<verb>[a-z]+) {_AT_MOST} {_N} (?P<noun>[a-z]+)\s*\.$", re.I)
_NONE = re.compile(r"^there (?:is|are) no (?P<noun>[a-z]+)\s*\.$", re.I)
_THERE = re.compile(rf"^there (?:is|are) {_AT_MOST} {_N} (?P<noun>[a-z]+)\s*\.$", re.I)
_EXISTS = re.compile(r"^there (?:is|are|exists?) ", re.I)
_COUNTED = re.compile(rf"^(?P<who>.+?) (?:has|owns|have|own) (?:exactly |at least |more than |fewer than |less than )?{_N} "
                      r"(?P<noun>[a-z]+)\s*\.$", re.I)

Readings = Callable[[str], set[tuple[str, tuple[str, ...], frozenset[tuple[str, bool]], frozenset[str]]]]
Subject = Callable[[str, Readings], str | None]


def _noun(word: str, n: int) -> str | None:
    """The singular of a counted noun ("cats" → "cat"), None when its number does not agree."""
    word = word.lower()
    if not lexicon.can_be_noun(word) or (lexicon.is_plural_noun(word) if n == 1 else not lexicon.can_be_plural(word)):
        return None
    return lexicon.noun_lemma(word)


def count(sentence: str, readings: Readings, subject: Subject) -> tuple[list[str], str] | None:
    """(the clauses, the canonical form) of an "at most" sentence, or None when it is none."""
    text = " ".join(sentence.split())
    none = _NONE.match(text)
    if none:                            # "There is no cat.": nothing is one
        word = none.group("noun").lower()
        plural = lexicon.is_plural_noun(word)
        if not lexicon.can_be_noun(word) or plural != text.lower().startswith("there are"):
            return None
        lemma = lexicon.noun_lemma(word)
        return ([f":- {lemma}(X)."], f"There is no {lemma}.") if re.fullmatch(r"[a-z]+", lemma) else None
    m = _THERE.match(text) or _HAS.match(text)
    if m is None:
        return None
    raw = m.group("n").lower()
    n = int(raw) if raw.isdigit() else _NUMBERS[raw]
    noun = _noun(m.group("noun"), n)
    if noun is None or not re.fullmatch(r"[a-z]+", noun):
        return None
    written = m.group("noun").lower()
    if "who" in m.groupdict():
        verb = m.group("verb").lower()
        who = subject(m.group("who"), readings)
        if who is None or verb in ("is", "are") or lexicon.verb_form(verb, singular=True) != verb:
            return None
        counted = f"({verb}({format_const(who)}, X), {noun}(X))"       # what the verb says of each: owns(bob, X)
        said = f"{m.group('who')[:1].upper()}{m.group('who')[1:]} {verb} at most {n} {written}."
    else:
        counted = f"{noun}(X)"
        said = f"There {'is' if n == 1 else 'are'} at most {n} {written}."
    return [f":- aggregate_all(count, {counted}, N), N > {n}."], said


def why_not(sentence: str) -> str | None:
    """Why a counting or existential sentence is refused, or None when it is neither."""
    text = " ".join(sentence.split())
    if _NONE.match(text):
        return "says that nothing is one: read as 'There is no cat.' (the noun in the singular after 'is', plural after 'are')"
    if _EXISTS.match(text):
        return ("says that something exists: sym's logic holds no unnamed thing, so name it (\"Tom is a cat.\"); "
                "\"There are at most three cats.\" is read, as a check")
    if _COUNTED.match(text):
        return ("says how many there are: in an open world only \"at most\" is a check known facts can fail "
                "(\"Bob has at most two cats.\"); name them to say more")
    return None
