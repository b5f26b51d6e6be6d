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
using only what the tools returned; when memory cannot settle a question, say it is unknown."""

ROUTE_SYSTEM = """You are the assistant inside sym, a reasoning shell. You do not answer from your own
knowledge when sym can check: each step you pick one action.
- tell: store a statement of the user's message in memory (pick the sentence);
- ask: answer a question from memory (pick the sentence); sym says true, false or unknown;
- prove: prove or refute a claim with the Z3 solver (pick the sentence);
- math: algebra (pick the operation and write the expression, e.g. x**2 - 1);
- search: find memory items about a sentence;
- answer: you are done; write a short answer using only the results so far.
Tell the statements before you ask the questions. Reply with JSON only."""


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


def route_messages(text: str, offered: list[str], memory: list[str],
                   results: list[tuple[str, str]]) -> list[Message]:
    done = "\n".join(f"{line}\n  → {result}" for line, result in results) or "(no command has run yet)"
    listed = "\n".join(f"{i}. {s}" for i, s in enumerate(offered, 1))
    user = (f"User's message: {text}\n\nIts sentences:\n{listed}\n\nWorking memory:\n{_memory(memory)}\n\n"
            f"Commands run so far and their results:\n{done}\n\nThe next action?")
    return [{"role": "system", "content": ROUTE_SYSTEM}, {"role": "user", "content": user}]



def results_as_text(results: list[tuple[str, str]]) -> str:
    """Tool results for a model that wrote its calls as text."""
    done = "\n\n".join(f"{line}\n→ {result}" for line, result in results)
    return f"sym ran:\n{done}\n\nCall another tool the same way, or answer the user in one or two sentences."
