"""Goal typing: the attributes a run is matched on (command, goal_type, length, …).

goal_type comes from the user's keywords (`/policy classify TYPE KEYWORD…`), then an LLM
classifier when policies.yaml says `classifier: llm`, then built-in keywords, else
"general". Keyword matching is by word prefix ("prove" matches "proves", "proved").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM

BUILTIN_TYPES: dict[str, tuple[str, ...]] = {
    "proof": ("prove", "proof", "provable", "entail", "implies", "imply", "theorem", "follows from",
              "consistent", "contradict", "valid", "refute"),
    "math": ("solve", "integrate", "integral", "derivative", "differentiate", "equation", "simplify",
             "factor", "expand", "polynomial", "sum of", "product of", "calculate", "compute", "how many"),
    "causal": ("why", "cause", "because", "effect", "leads to", "lead to", "result in", "results in",
               "consequence", "explain"),
    "definition": ("what is", "what are", "define", "definition", "meaning of"),
    "planning": ("how to", "how do i", "how can", "plan", "steps to", "strategy"),
    "factual": ("who", "when", "where", "which"),
}
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_QUESTION_WORDS = ("who", "what", "when", "where", "why", "how", "which", "is", "are", "does", "do", "can")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def keyword_hits(text_words: list[str], keyword: str) -> bool:
    """A keyword (one or more words) occurs in the text; its last word matches by prefix."""
    kw = words(keyword)
    if not kw:
        return False
    n = len(kw)
    for i in range(len(text_words) - n + 1):
        window = text_words[i:i + n]
        if window[:-1] == kw[:-1] and window[-1].startswith(kw[-1]):
            return True
    return False


def keyword_type(text: str, table: Mapping[str, Sequence[str]]) -> str | None:
    """The first type (in table order) one of whose keywords occurs in the text."""
    ws = words(text)
    for goal_type, keywords in table.items():
        if any(keyword_hits(ws, k) for k in keywords):
            return goal_type
    return None


class GoalType(BaseModel):
    """What the LLM classifier returns."""

    goal_type: str


def llm_type(llm: LLM, text: str, types: list[str]) -> str | None:
    """Ask the model for one of `types` (None if it answers something else)."""
    listed = ", ".join(types)
    messages = [
        {"role": "system", "content": "You classify a user's request for a reasoning assistant. "
                                      f"Answer with JSON {{\"goal_type\": T}} where T is one of: {listed}."},
        {"role": "user", "content": text},
    ]
    answer = llm.json(messages, GoalType, purpose="policy.classify").goal_type.strip().lower()
    return answer if answer in types else None


def classify_goal(text: str, *, user: dict[str, list[str]] | None = None, llm: LLM | None = None,
                  types: list[str] | None = None) -> tuple[str, str]:
    """(goal_type, how): how is "user", "llm", "keyword" or "default"."""
    if user:
        found = keyword_type(text, user)
        if found:
            return found, "user"
    if llm is not None and text.strip():
        choices = list(dict.fromkeys([*(types or []), *(user or {}), *BUILTIN_TYPES, "general"]))
        found = llm_type(llm, text, choices)
        if found:
            return found, "llm"
    found = keyword_type(text, BUILTIN_TYPES)
    if found:
        return found, "keyword"
    return "general", "default"


def run_attributes(command: str, text: str, *, workspace: str, source: str = "typed",
                   goal_type: str = "general") -> dict[str, Any]:
    """The attributes a rule's filter is matched against (documented in /policy help)."""
    ws = words(text)
    stripped = text.strip()
    return {
        "command": command,
        "goal_type": goal_type,
        "length": len(ws),
        "workspace": workspace,
        "has_question": stripped.endswith("?") or bool(ws and ws[0] in _QUESTION_WORDS),
        "source": "script" if ":" in source else source,
    }
