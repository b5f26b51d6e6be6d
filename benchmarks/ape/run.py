"""Classify APE texts: each text's DRS translated (drs.py) and sym's reading (compare.py) → one of
same / different / refused / outside / no DRS (APE itself gives the text no DRS)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from benchmarks.ape.compare import SymReading, same, show, sym_read
from benchmarks.ape.drs import Clause, Outside, Sk, translate
from benchmarks.ape.prolog import Entry, Struct

KINDS = ("same", "different", "refused", "outside", "no DRS")


@dataclass
class Result:
    entry: Entry
    kind: str
    drs_clauses: list[str] = field(default_factory=list)
    sym_clauses: list[str] = field(default_factory=list)
    reason: str = ""          # outside: the DRS condition; refused: sym's reason
    sentence: str = ""        # refused: the sentence sym refused
    named_only: bool = False  # within sym's logic: every thing of the text's own is a `the` description


def _empty(drs: object) -> bool:
    return isinstance(drs, Struct) and drs.functor == "drs" and drs.args == ([], [])


def named_only(text: str, clauses: list[Clause]) -> bool:
    """Whether every constant of the text's own (a referent of APE's top box) is written as a
    definite description (*the card*), never with an indefinite (*a card*, *some water*, *there
    is a …*) or as *something*: the texts that speak only of things sym's English names (names
    and descriptions), sym holding no unnamed thing. Read off the text by the referent's noun."""
    for noun in {v.key.split(":")[0] for h, body in clauses for a in ([h] if h else []) + list(body)
                 for v in a.args if isinstance(v, Sk)}:
        if not noun:
            return False
        word = re.escape(noun)
        between = r"\s+(?:[\w-]+\s+){0,3}?"
        if not re.search(rf"\bthe{between}(?:n:)?{word}\b", text, re.I) or \
                re.search(rf"\b(?:a|an|some|one|1){between}(?:n:)?{word}", text, re.I):
            return False
    return True


def classify(entry: Entry, *, read_outside: bool = True) -> Result:
    """One text's kind; `read_outside`: read the texts outside sym's logic too (to list the
    ones sym reads anyway)."""
    if _empty(entry.drs):
        return Result(entry, "no DRS")
    try:
        expected = translate(entry.drs)
    except Outside as why:
        if not read_outside:
            return Result(entry, "outside", reason=str(why))
        reading = sym_read(entry.text)          # outside sym's logic, yet read: worth a look
        return Result(entry, "outside", [], show(reading.clauses) if reading.clauses is not None else [], str(why))
    reading: SymReading = sym_read(entry.text)
    named = named_only(entry.text, expected)
    if reading.clauses is None:
        return Result(entry, "refused", show(expected), reading.shown, reading.reason, reading.sentence, named)
    kind = "same" if same(reading.clauses, expected) else "different"
    return Result(entry, kind, show(expected), show(reading.clauses), named_only=named)


def classify_all(entries: Iterable[Entry], *, read_outside: bool = True) -> list[Result]:
    return [classify(e, read_outside=read_outside) for e in entries]
