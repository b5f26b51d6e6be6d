"""The menu a small model chooses from: an action from an enum, a sentence of the turn from an
enum, an operation from /math's enum and a short expression; sym writes the command."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

ACTIONS = ("tell", "ask", "prove", "math", "search", "answer")
OPERATIONS = ("simplify", "factor", "expand", "solve", "diff", "integrate")


class RouteStep(BaseModel):
    action: Literal["tell", "ask", "prove", "math", "search", "answer"]
    sentence: str | None = Field(default=None, max_length=2000)
    operation: Literal["simplify", "factor", "expand", "solve", "diff", "integrate"] | None = None
    expression: str | None = Field(default=None, max_length=200)
    answer: str | None = Field(default=None, max_length=600)


def step_schema(sentences: list[str]) -> dict[str, Any]:
    """The JSON schema sent as `format`: every choice an enum but the expression and the answer."""
    return {"type": "object", "properties": {
        "action": {"type": "string", "enum": list(ACTIONS)},
        "sentence": {"type": "string", "enum": sentences},
        "operation": {"type": "string", "enum": list(OPERATIONS)},
        "expression": {"type": "string", "maxLength": 200},
        "answer": {"type": "string", "maxLength": 600}},
        "required": ["action"]}


def check_step(step: RouteStep, sentences: list[str]) -> list[str]:
    """What is wrong with a step (sent back to the model once)."""
    if step.action in ("tell", "ask", "prove", "search"):
        if step.sentence is None:
            return [f"{step.action} needs a sentence: one of " + "; ".join(sentences)]
        if step.sentence.strip() not in sentences:
            return ["the sentence must be copied from the list: one of " + "; ".join(sentences)]
    if step.action == "math" and not (step.operation and (step.expression or "").strip()):
        return ["math needs an operation and an expression"]
    if step.action == "math" and "\n" in (step.expression or ""):
        return ["the expression must be one line"]
    return []


def to_call(step: RouteStep) -> tuple[str, dict[str, Any]]:
    """The tool and arguments a step stands for."""
    sentence = (step.sentence or "").strip()
    if step.action == "tell":
        return "tell", {"text": sentence}
    if step.action == "ask":
        return "ask", {"question": sentence}
    if step.action == "prove":
        return "prove", {"question": sentence}
    if step.action == "search":
        return "search", {"text": sentence}
    return "math", {"operation": step.operation, "expr": (step.expression or "").strip()}
