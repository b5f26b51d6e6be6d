"""The menu, for models that do not call tools well: the model chooses, sym writes.

One structured call sorts the turn's sentences: each one's action is an enum (tell, ask, prove,
math, search, none), the reply keyed by the sentences' numbers ({"1": "tell"}: a sentence is
never copied back, which cost a small model a token per word). sym then holds each pick to what
its sentence is: math only for a sentence that holds a math expression, prove only for a claim
to check (a question, or "prove/show that ..."); a statement picked for either is told, a
question asked. Statements are told first (consecutive ones in one /tell, so that "it"
finds its antecedent), then each question runs as its command; a math sentence gets one more
call that picks /math's operation from an enum and writes only the expression. A last call may
put the results in a sentence — marked unverified like every word the model writes.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, RootModel

from sym.core.reason.math import CONSTANTS, FUNCTIONS

ACTIONS = ("tell", "ask", "prove", "math", "search", "none")
OPERATIONS = ("simplify", "factor", "expand", "solve", "diff", "integrate")


class Sorted(RootModel[dict[str, str]]):
    """Each numbered sentence of the turn → its action."""


class MathStep(BaseModel):
    operation: Literal["simplify", "factor", "expand", "solve", "diff", "integrate"]
    expression: str = Field(min_length=1, max_length=200)


def keys(sentences: list[str]) -> list[str]:
    """The menu's slots: the sentences' numbers."""
    return [str(i) for i in range(1, len(sentences) + 1)]


def sort_schema(sentences: list[str]) -> dict[str, Any]:
    named = keys(sentences)
    return {"type": "object", "properties": {k: {"type": "string", "enum": list(ACTIONS)} for k in named},
            "required": named}


_SLOT = re.compile(r"\s*(\d+)\b")


def slots(found: Sorted) -> dict[str, str]:
    """The reply's picks by slot: a key is read by its leading number ("1", or a sentence copied
    after it, "1. Bob is kind.", which a server without the schema may still send)."""
    out: dict[str, str] = {}
    for k, v in found.root.items():
        m = _SLOT.match(k)
        out.setdefault(m.group(1) if m else k, v)
    return out


def check_sorted(found: Sorted, sentences: list[str]) -> list[str]:
    """What is wrong with a sorting (sent back to the model once)."""
    named, picked = keys(sentences), slots(found)
    problems = [f"unknown key {k!r}: use the sentences' numbers as keys ({', '.join(named)})"
                for k in picked if k not in named]
    problems += [f"{k!r} is missing" for k in named if k not in picked]
    problems += [f"{k!r}: the action must be one of {', '.join(ACTIONS)}, not {v!r}"
                 for k, v in picked.items() if k in named and v not in ACTIONS]
    return problems


_MATH = re.compile(r"\d|\*\*|\^|[A-Za-z0-9)]\s*[-+*/=]\s*[A-Za-z0-9(]|\b[a-z]\(")
_CLAIM = re.compile(r"^\s*(?:prove|show|is it (?:true|the case|so))\b", re.I)


def has_math(sentence: str) -> bool:
    """Whether a sentence holds a math expression (a number, an operator between operands, a
    call): "Factor x**2 - 1." does; "All of Kelly Wearstler's design styles are dreamy." does not."""
    return bool(_MATH.search(sentence))


def is_claim(sentence: str) -> bool:
    """Whether a sentence asks for a claim to be checked: a question, or "prove/show that ..."."""
    return sentence.rstrip().endswith("?") or bool(_CLAIM.match(sentence))


def held(action: str, sentence: str) -> str:
    """A pick held to what its sentence is: math needs a math expression and prove a claim; a
    statement picked for either is told, a question asked."""
    if (action == "math" and not has_math(sentence)) or (action == "prove" and not is_claim(sentence)):
        return "ask" if sentence.rstrip().endswith("?") else "tell"
    return action


def actions(found: Sorted, sentences: list[str]) -> list[tuple[str, str]]:
    """(action, sentence) in the order they run: statements first, in one /tell per run of them."""
    chosen = slots(found)
    picked = [(held(chosen.get(k, "none"), s), s) for k, s in zip(keys(sentences), sentences, strict=True)]
    told = [s for a, s in picked if a == "tell"]
    out = [("tell", " ".join(told))] if told else []
    return out + [(a, s) for a, s in picked if a not in ("tell", "none")]


def math_schema() -> dict[str, Any]:
    return {"type": "object", "properties": {"operation": {"type": "string", "enum": list(OPERATIONS)},
                                             "expression": {"type": "string", "maxLength": 200}},
            "required": ["operation", "expression"]}


def check_math(step: MathStep, sentence: str = "") -> list[str]:
    """What is wrong with a math step: more than one line, or a name the sentence does not write
    (an expression of the prompt's own, "x**2" for a sentence with no x, is not the user's)."""
    if "\n" in step.expression:
        return ["the expression must be one line"]
    if not sentence:
        return []
    said = set(re.findall(r"[A-Za-z_]\w*", sentence))
    foreign = [n for n in dict.fromkeys(re.findall(r"[A-Za-z_]\w*", step.expression))
               if n not in said and n not in FUNCTIONS and n not in CONSTANTS]
    return [f"{foreign[0]!r} is not in the sentence: write only its own expression"] if foreign else []


def to_call(action: str, sentence: str, step: MathStep | None = None) -> tuple[str, dict[str, Any]]:
    """The tool and arguments an action on a sentence stands for."""
    if action == "math":
        assert step is not None
        return "math", {"operation": step.operation, "expr": step.expression.strip()}
    key = {"tell": "text", "ask": "question", "prove": "question", "search": "text"}[action]
    return action, {key: sentence}
