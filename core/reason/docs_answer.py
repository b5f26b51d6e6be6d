"""Answers from documents: the passages that best match a question and, with a model, an answer
that cites them (`[notes.txt ¶3]`), unverified unless a check proves it (core.reason.docs_check).

Passages come from hybrid retrieval (core.memory.retrieval). The model sees them numbered and
cites numbers, which are turned into the passages' citations here; a number that names no
passage is dropped and reported. With no model (none answers, none is pulled), the answer is the
passages themselves with their citations, and says why. Nothing is stored, nothing is proved:
proving is the engine's, this room only quotes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.llm import LLMError
from sym.core.memory import library
from sym.core.memory.library import citation

if TYPE_CHECKING:
    from threading import Event

    from sym.core.memory.local import LocalStore
    from sym.core.memory.retrieval import RankedHit
    from sym.core.memory.store import ChromaStore

PASSAGE_CHARS = 1500     # a passage is cut here in the prompt (passages are at most ~1000 plus headings)
# a model failure that leaves the passages as the answer; others (cancelled) stop the command
NO_MODEL = frozenset({"unreachable", "no-model", "timeout", "offline", "auth", "server", "context", "bad-output"})

SYSTEM = ("You answer questions from the passages given, and only from them. After each sentence of "
          "your answer, cite the passages it rests on by their numbers in square brackets, e.g. [2] or "
          "[1][3]. If the passages do not say, answer that they do not say. Be brief.")
_NUMBER = re.compile(r"\[(\d{1,3})\]")


@dataclass(frozen=True)
class Cited:
    """One retrieved passage as the answer quotes it."""

    cite: str            # notes.txt ¶3
    text: str
    heading: str
    score: float
    id: str
    snippet: str = ""    # its best-matching sentence, matched words «marked»

    def to_dict(self) -> dict[str, Any]:
        return {"cite": self.cite, "heading": self.heading, "text": self.text, "score": round(self.score, 4),
                "id": self.id, "snippet": self.snippet}


@dataclass
class DocsAnswer:
    """The passages found for a question and, when a model answered, its cited answer."""

    question: str
    passages: list[Cited]
    text: str = ""                           # the model's answer, its [N] turned into citations
    cited: list[str] = field(default_factory=list)
    unknown: list[int] = field(default_factory=list)     # numbers the model cited that name no passage
    model: str = ""
    why_no_answer: str = ""                  # no model answer: why (the passages stand in for it)
    verified: bool = False                   # set by a check (core.reason.docs_check): the engine proves
    check: Any = None                        # core.reason.docs_check.Check of the cited passages, if made

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.question, "verified": self.verified,
                               "passages": [p.to_dict() for p in self.passages]}
        if self.text:
            out.update(answer=self.text, cited=self.cited, model=self.model)
        if self.unknown:
            out["unknown_citations"] = self.unknown
        if self.why_no_answer:
            out["no_answer"] = self.why_no_answer
        if self.check is not None:
            out["check"] = self.check.to_dict()
        return out

    def cited_passages(self) -> list[Cited]:
        """The passages the answer cites, in the order they were retrieved."""
        return [p for p in self.passages if p.cite in self.cited]


def retrieve(store: ChromaStore | LocalStore | None, question: str, k: int, *, wait: float | None = 2.0,
             cancel: Event | None = None) -> list[Cited]:
    """The K passages that best match QUESTION (keyword and meaning, fused)."""
    hits: list[RankedHit] = library.search(store, question, kinds=("docs",), k=k, wait=wait, cancel=cancel)
    return [Cited(citation(h.meta), h.text, str(h.meta.get("heading") or ""), h.score, h.id, h.snippet)
            for h in hits]


CONTEXT_CHARS = 600      # a passage in a chat's context is cut here


def context_passages(store: ChromaStore | LocalStore | None, text: str, k: int, *, wait: float | None = 2.0,
                     cancel: Event | None = None) -> list[Cited]:
    """The K passages that best match a chat turn (keyword and meaning, fused), for its context:
    none when no document is loaded (nothing is embedded for nothing)."""
    if store is None or not text.strip() or not library.documents(store):
        return []
    return retrieve(store, text, k, wait=wait, cancel=cancel)


def context_lines(passages: Sequence[Cited]) -> list[str]:
    """Passages as a chat's context lists them: `[notes.txt ¶3] text`, a long one cut."""
    out = []
    for p in passages:
        body = " ".join(p.text.split())
        out.append(f"[{p.cite}] " + (body if len(body) <= CONTEXT_CHARS else body[:CONTEXT_CHARS - 1] + "…"))
    return out


def messages(question: str, passages: Sequence[Cited]) -> list[dict[str, str]]:
    """The prompt: the passages numbered (with where they come from), then the question."""
    lines = []
    for number, p in enumerate(passages, start=1):
        where = p.cite + (f" · {p.heading}" if p.heading else "")
        body = p.text if len(p.text) <= PASSAGE_CHARS else p.text[:PASSAGE_CHARS] + " …"
        lines.append(f"[{number}] ({where})\n{body}")
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": "Passages:\n\n" + "\n\n".join(lines) + f"\n\nQuestion: {question.strip()}"}]


def cite(reply: str, passages: Sequence[Cited]) -> tuple[str, list[str], list[int]]:
    """REPLY with each [N] turned into its passage's citation: (text, citations used in order,
    numbers that name no passage — dropped from the text)."""
    used: list[str] = []
    unknown: list[int] = []

    def swap(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if 1 <= number <= len(passages):
            found = passages[number - 1].cite
            if found not in used:
                used.append(found)
            return f"[{found}]"
        if number not in unknown:
            unknown.append(number)
        return ""

    text = _NUMBER.sub(swap, reply).strip()
    for p in passages:                    # a citation the model copied whole counts as well
        if f"[{p.cite}]" in reply and p.cite not in used:
            used.append(p.cite)
    return text, used, unknown


def answer(question: str, store: ChromaStore | LocalStore | None, llm: Callable[[], Any] | None, *, k: int = 5,
           wait: float | None = 2.0, cancel: Event | None = None) -> DocsAnswer:
    """Passages for QUESTION and, when `llm()` gives a model that answers, its cited answer."""
    if not question.strip():
        raise UserError("ask what?", hint="/ask --docs when is the next meeting?")
    passages = retrieve(store, question, k, wait=wait, cancel=cancel)
    result = DocsAnswer(question, passages)
    if not passages:
        result.why_no_answer = "no loaded document matches the question"
        return result
    if llm is None:
        result.why_no_answer = "no model to answer with"
        return result

    try:
        model = llm()
        reply = model.chat(messages(question, passages), purpose="ask.docs")
    except LLMError as err:
        if err.reason not in NO_MODEL:
            raise
        result.why_no_answer = f"no model answer ({err.message})"
        return result
    result.text, result.cited, result.unknown = cite(reply.text, passages)
    result.model = reply.model
    return result
