"""Measures: "Bob is 30 years old." is `age(bob, 30)`, and "Rex is 60 cm tall." is
`height_in_cm(rex, 60)` — a number with its unit and the dimension its adjective names. The
subject is read as the grammar reads a subject (a name or a description), so the constant is the
one the rest of the text uses. A measure also says what its comparatives mean over that attribute
(`older_than(X, Y) :- age(X, A), age(Y, B), A > B.`, and its strong negation where A =< B), so
"Bob is 30 years old. Al is 25 years old." answers "Is Bob older than Al?" (true), "Is Al older
than Bob?" (false) and "Who is younger than Bob?". Anything else with a number stays
outside the language."""

from __future__ import annotations

import re
from collections.abc import Callable

from sym.core.logic.terms import format_const

# the adjective of a dimension -> the attribute it measures
DIMENSIONS = {"tall": "height", "high": "height", "long": "length", "wide": "width", "deep": "depth",
              "heavy": "weight", "old": "age"}
# the comparatives of each dimension: (greater, smaller)
COMPARATIVES = {"age": ("older", "younger"), "height": ("taller", "shorter"), "weight": ("heavier", "lighter"),
                "length": ("longer", None), "width": ("wider", "narrower"), "depth": ("deeper", "shallower")}
# units, as written (singular and plural) -> the name in a predicate
UNITS = {"cm": "cm", "centimetre": "cm", "centimetres": "cm", "centimeter": "cm", "centimeters": "cm",
         "m": "m", "metre": "m", "metres": "m", "meter": "m", "meters": "m", "km": "km", "kilometres": "km",
         "kilometre": "km", "kilometers": "km", "kilometer": "km", "mm": "mm", "inch": "inch", "inches": "inch",
         "foot": "foot", "feet": "foot", "kg": "kg", "kilogram": "kg", "kilograms": "kg", "g": "g", "gram": "g",
         "grams": "g", "pound": "pound", "pounds": "pound", "lb": "pound", "lbs": "pound",
         "year": "year", "years": "year", "month": "month", "months": "month", "day": "day", "days": "day"}
_MEASURE = re.compile(r"^(?P<who>.+?) is (?P<n>\d+(?:\.\d+)?) (?P<unit>[a-z]+) (?P<adj>[a-z]+)\s*[.!]?$", re.I)


Readings = Callable[[str], set[tuple[str, tuple[str, ...], frozenset[tuple[str, bool]], frozenset[str]]]]


def subject(words: str, readings: Readings) -> str | None:
    """The constant the grammar makes of a subject ("Bob" -> bob, "the cat" -> cat), or None;
    `readings` is the grammar's (statements.readings, which calls this room)."""
    found = {(kind, clauses) for kind, clauses, *_ in readings(f"{words} is old.")}
    if len(found) != 1:
        return None
    ((kind, clauses),) = found      # one fact about one thing: never a rule ("every cat is old")
    m = re.fullmatch(r"old\(([^():,]+)\)\.", clauses[0]) if len(clauses) == 1 and kind == "fact" else None
    return _constant(m.group(1)) if m else None


def _constant(text: str) -> str:
    return text[1:-1].replace("\\'", "'") if text.startswith("'") else text


def measure(sentence: str, readings: Readings) -> list[str] | None:
    """The clauses of a measure sentence, or None when it is not one."""
    m = _MEASURE.match(" ".join(sentence.split()))
    if m is None:
        return None
    adj, unit = m.group("adj").lower(), UNITS.get(m.group("unit").lower())
    attribute = DIMENSIONS.get(adj)
    if attribute is None or unit is None or (attribute == "age") != (unit in ("year", "month", "day")):
        return None
    who = subject(m.group("who"), readings)
    if who is None:
        return None
    value = float(m.group("n")) if "." in m.group("n") else int(m.group("n"))
    value = int(value) if isinstance(value, float) and value.is_integer() else value
    pred = "age" if attribute == "age" and unit == "year" else f"{attribute}_in_{unit}"
    greater, smaller = COMPARATIVES[attribute]
    both = f"{pred}(X, A), {pred}(Y, B)"
    meanings = [f"{greater}_than(X, Y) :- {both}, A > B.", f"~{greater}_than(X, Y) :- {both}, A =< B."]
    if smaller:
        meanings += [f"{smaller}_than(X, Y) :- {both}, A < B.", f"~{smaller}_than(X, Y) :- {both}, A >= B."]
    return [f"{pred}({format_const(who)}, {format_const(value)}).", *meanings]
