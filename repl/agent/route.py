"""The menu, for models that do not call tools well: the model chooses, sym writes.

One structured call sorts the turn's sentences: each one's action is an enum (tell, ask, prove,
math, search, none). Statements are told first (consecutive ones in one /tell, so that "it"
finds its antecedent), then each question runs as its command; a math sentence gets one more
call that picks /math's operation from an enum and writes only the expression. A last call may
put the results in a sentence — marked unverified like every word the model writes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, RootModel

ACTIONS = ("tell", "ask", "prove", "math", "search", "none")
OPERATIONS = ("simplify", "factor", "expand", "solve", "diff", "integrate")


class Sorted(RootModel[dict[str, str]]):
    """Each numbered sentence of the turn → its action."""


class MathStep(BaseModel):
    operation: Literal["simplify", "factor", "expand", "solve", "diff", "integrate"]
    expression: str = Field(min_length=1, max_length=200)


def keys(sentences: list[str]) -> list[str]:
    return [f"{i}. {s}" for i, s in enumerate(sentences, 1)]


def sort_schema(sentences: list[str]) -> dict[str, Any]:
    named = keys(sentences)
    return {"type": "object", "properties": {k: {"type": "string", "enum": list(ACTIONS)} for k in named},
            "required": named}


def check_sorted(found: Sorted, sentences: list[str]) -> list[str]:
    """What is wrong with a sorting (sent back to the model once)."""
    named = keys(sentences)
    problems = [f"unknown key {k!r}: use the numbered sentences as keys" for k in found.root if k not in named]
    problems += [f"{k!r} is missing" for k in named if k not in found.root]
    problems += [f"{k!r}: the action must be one of {', '.join(ACTIONS)}, not {v!r}"
                 for k, v in found.root.items() if k in named and v not in ACTIONS]
    return problems


def actions(found: Sorted, sentences: list[str]) -> list[tuple[str, str]]:
    """(action, sentence) in the order they run: statements first, in one /tell per run of them."""
    picked = [(found.root.get(k, "none"), s) for k, s in zip(keys(sentences), sentences, strict=True)]
    told = [s for a, s in picked if a == "tell"]
    out = [("tell", " ".join(told))] if told else []
    return out + [(a, s) for a, s in picked if a not in ("tell", "none")]


def math_schema() -> dict[str, Any]:
    return {"type": "object", "properties": {"operation": {"type": "string", "enum": list(OPERATIONS)},
                                             "expression": {"type": "string", "maxLength": 200}},
            "required": ["operation", "expression"]}


def check_math(step: MathStep) -> list[str]:
    return ["the expression must be one line"] if "\n" in step.expression else []


def to_call(action: str, sentence: str, step: MathStep | None = None) -> tuple[str, dict[str, Any]]:
    """The tool and arguments an action on a sentence stands for."""
    if action == "math":
        assert step is not None
        return "math", {"operation": step.operation, "expr": step.expression.strip()}
    key = {"tell": "text", "ask": "question", "prove": "question", "search": "text"}[action]
    return action, {key: sentence}
