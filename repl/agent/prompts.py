"""The prompts of a chat turn: the tool-calling system prompt and the menu (route) prompt."""

from __future__ import annotations

from typing import Any

from sym.core.llm import Message
from sym.core.reason.swm.english.sentences import split_sentences

TOOLS_SYSTEM = """You are the assistant inside sym, a reasoning shell with a working memory of facts
and rules. sym verifies; you decide which command to run. Use the tools:
- the user states facts or rules in plain English: call tell with their sentences, as written;
- a question about what memory entails: call ask with the question (sym answers true, false or
  unknown with the steps that justify it);
- algebra or arithmetic: call math; a claim to prove or refute with the Z3 solver: call prove.
Call a tool before you answer whenever one applies. Then answer in one or two short sentences,
using only what the tools returned; when memory cannot settle a question, say it is unknown, and
when a result says unverified, say it was not proved."""

SORT_SYSTEM = """You sort the sentences of a user's message for sym, a reasoning shell that checks
answers against its memory. For each numbered sentence choose one action:
- tell: a statement of fact or a rule to remember, whatever it is about ("Penguins are birds.",
  "Every mammal needs water.", "All of the designs are dreamy.");
- ask: a question about the facts ("Is Tweety a bird?", "Who likes Ann?");
- prove: a claim to check with a solver, asked as a question ("Is it true that ...?", logic puzzles);
- math: a math expression to compute, written in symbols and numbers ("Factor x**2 - 1."); never
  an English statement;
- search: a request to find what memory holds about something;
- none: greetings, thanks, instructions on how to answer, anything else.
A sentence that ends with "?" is usually ask; a statement that ends with "." is tell.
Reply with JSON only: each sentence's number as a key, its action as the value.

Sentences:
1. Cats are animals.
2. Felix is a cat.
3. Is Felix an animal?
4. Expand (x + 1)**2.
5. Thanks!
{"1": "tell", "2": "tell", "3": "ask", "4": "math", "5": "none"}"""

MATH_SYSTEM = """Turn the request into one sympy operation: choose the operation and write only the
expression in Python syntax (x**2 for x squared, * for products). Reply with JSON only."""

ANSWER_SYSTEM = """Answer the user in one or two short sentences using only sym's results below.
When a result says unknown, say that memory cannot settle it; when it says unverified, say that it
was not proved."""


def sentences(text: str) -> list[str]:
    """The sentences of a turn, as the menu offers them."""
    found = [s.strip() for s in split_sentences(text) if s.strip()]
    return found or [text.strip()]


def _memory(lines: list[str]) -> str:
    return "\n".join(f"- {line}" for line in lines) or "(nothing relevant yet)"


def signatures(tools: dict[str, dict[str, Any]]) -> str:
    """One line per tool, `name(arg, arg?)`: for a server that drops the tool definitions."""
    out = []
    for name, schema in tools.items():
        required = set(schema.get("required", []))
        args = [k if k in required else k + "?" for k in schema.get("properties", {})]
        out.append(f"{name}({', '.join(args)})")
    return ", ".join(out)


def tools_messages(text: str, memory: list[str], history: list[Message],
                   tools: dict[str, dict[str, Any]]) -> list[Message]:
    system = (f"{TOOLS_SYSTEM}\n\nThe tools: {signatures(tools)}. If you cannot call tools, reply with only "
              f'{{"name": TOOL, "arguments": {{...}}}}.\n\nWorking memory that may be relevant:\n{_memory(memory)}')
    return [{"role": "system", "content": system}, *history[-8:], {"role": "user", "content": text}]


def sort_messages(text: str, offered: list[str], memory: list[str]) -> list[Message]:
    listed = "\n".join(f"{i}. {s}" for i, s in enumerate(offered, 1))
    user = f"Working memory:\n{_memory(memory)}\n\nThe user's message: {text}\n\nIts sentences:\n{listed}"
    return [{"role": "system", "content": SORT_SYSTEM}, {"role": "user", "content": user}]


def math_messages(sentence: str) -> list[Message]:
    return [{"role": "system", "content": MATH_SYSTEM}, {"role": "user", "content": sentence}]


def answer_messages(text: str, results: list[tuple[str, str]]) -> list[Message]:
    done = "\n".join(f"{line}\n  → {result}" for line, result in results)
    return [{"role": "system", "content": ANSWER_SYSTEM},
            {"role": "user", "content": f"The user's message: {text}\n\nsym ran:\n{done}"}]


def results_as_text(results: list[tuple[str, str]]) -> str:
    """Tool results for a model that wrote its calls as text."""
    done = "\n\n".join(f"{line}\n→ {result}" for line, result in results)
    return f"sym ran:\n{done}\n\nCall another tool the same way, or answer the user in one or two sentences."
