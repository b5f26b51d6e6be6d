"""Prompts and JSON schemas (`format`) of the semantic operations: the model chooses, sym writes.

Each schema is as tight as Ollama's constrained output allows: labels and verdicts are enums,
a ranking is an array of item numbers, extracted facts are a predicate from an enum with one
short string per argument. The replies are still checked in `ops` and `extract`, since small
models and some servers do not honour `format`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sym.core.reason.semantic.extract import Spec

VERDICTS = ("equivalent", "similar", "related", "different", "contradictory")
ARG_CHARS = 80          # the longest argument text an extracted fact may have
MAX_FACTS = 40          # facts one chunk may give
MAX_REASONS = 4


def _part(n: int, total: int) -> str:
    return f" (part {n + 1} of {total} of a longer text)" if total > 1 else ""


# -- classify ------------------------------------------------------------------------------

def classify_messages(labels: Sequence[str], text: str, n: int = 0, total: int = 1) -> list[dict[str, Any]]:
    return [{"role": "system", "content": "You classify texts. Reply with only a JSON object {\"label\": L} "
                                          "where L is exactly one of the given labels, spelt as given."},
            {"role": "user", "content": f"Labels: {', '.join(labels)}\n\nText{_part(n, total)}:\n{text}\n\n"
                                        "Which one label fits this text best?"}]


def label_format(labels: Sequence[str]) -> dict[str, Any]:
    return {"type": "object", "properties": {"label": {"type": "string", "enum": list(labels)}},
            "required": ["label"]}


# -- compare -------------------------------------------------------------------------------

def compare_messages(a: str, b: str) -> list[dict[str, Any]]:
    return [{"role": "system", "content": "You compare two texts. Reply with only a JSON object "
                                          "{\"verdict\": V, \"reasons\": [R, ...]} where V is one of "
                                          f"{', '.join(VERDICTS)} and each R is one short sentence."},
            {"role": "user", "content": f"Text A:\n{a}\n\nText B:\n{b}\n\n"
                                        f"How does text A relate to text B? Give 1 to {MAX_REASONS} reasons."}]


def judgement_format() -> dict[str, Any]:
    return {"type": "object",
            "properties": {"verdict": {"type": "string", "enum": list(VERDICTS)},
                           "reasons": {"type": "array", "items": {"type": "string", "maxLength": 200},
                                       "minItems": 1, "maxItems": MAX_REASONS}},
            "required": ["verdict", "reasons"]}


# -- rank ----------------------------------------------------------------------------------

def rank_messages(items: Sequence[str], criterion: str) -> list[dict[str, Any]]:
    listed = "\n".join(f"{i}. {item}" for i, item in enumerate(items, start=1))
    return [{"role": "system", "content": "You rank items by a criterion. Reply with only a JSON object "
                                          "{\"order\": [numbers]}: the item numbers from the item that best "
                                          "meets the criterion to the one that least meets it, each number "
                                          "exactly once."},
            {"role": "user", "content": f"Criterion: {criterion}\n\nItems:\n{listed}\n\n"
                                        f"Order all {len(items)} items by the criterion."}]


def order_format(n: int) -> dict[str, Any]:
    numbers = list(range(1, n + 1))
    return {"type": "object",
            "properties": {"order": {"type": "array", "items": {"type": "integer", "enum": numbers},
                                     "minItems": n, "maxItems": n}},
            "required": ["order"]}


def pair_messages(a: str, b: str, criterion: str) -> list[dict[str, Any]]:
    return [{"role": "system", "content": "You compare two items by a criterion. Reply with only a JSON object "
                                          "{\"better\": \"A\"} or {\"better\": \"B\"}."},
            {"role": "user", "content": f"Criterion: {criterion}\n\nA: {a}\nB: {b}\n\n"
                                        "Which item meets the criterion better?"}]


def pair_format() -> dict[str, Any]:
    return {"type": "object", "properties": {"better": {"type": "string", "enum": ["A", "B"]}},
            "required": ["better"]}


# -- extract -------------------------------------------------------------------------------

def extract_messages(specs: Sequence[Spec], templates: dict[str, str], text: str, n: int = 0,
                     total: int = 1) -> list[dict[str, Any]]:
    lines = []
    for spec in specs:
        about = templates.get(spec.key)
        lines.append(f"- {spec.key}: {spec.arity} argument{'s' if spec.arity != 1 else ''}"
                     + (f' ("{about}")' if about else ""))
    return [{"role": "system", "content": "You extract facts from a text. Reply with only a JSON object "
                                          "{\"facts\": [{\"predicate\": P, \"args\": [A, ...]}, ...]}. P is one "
                                          "of the listed predicates and has exactly its number of arguments; "
                                          "each A is a short name or value as the text writes it (a person, "
                                          "place, thing or number), never logic syntax. Only facts the text "
                                          "states; none if it states none."},
            {"role": "user", "content": "Predicates:\n" + "\n".join(lines)
                                        + f"\n\nText{_part(n, total)}:\n{text}\n\n"
                                        "List the facts this text states with these predicates."}]


def facts_format(specs: Sequence[Spec]) -> dict[str, Any]:
    """Per predicate, its name as a constant and exactly its number of string arguments."""
    def one(spec: Spec) -> dict[str, Any]:
        return {"type": "object",
                "properties": {"predicate": {"type": "string", "enum": [spec.name]},
                               "args": {"type": "array", "items": {"type": "string", "minLength": 1,
                                                                   "maxLength": ARG_CHARS},
                                        "minItems": spec.arity, "maxItems": spec.arity}},
                "required": ["predicate", "args"]}

    options = [one(s) for s in specs]
    item = options[0] if len(options) == 1 else {"anyOf": options}
    return {"type": "object", "properties": {"facts": {"type": "array", "items": item, "maxItems": MAX_FACTS}},
            "required": ["facts"]}
