"""What the model client checks in every reply before anything stores or shows it: text that can be
written (lone surrogates and NULs replaced, counted; core/text.py) and the model that answered
(a server may hand a call to another model than the one asked for)."""

from __future__ import annotations

import dataclasses

from sym.core.llm import Reply, ToolCall
from sym.core.text import valid, valid_json, valid_text


def valid_reply(reply: Reply) -> tuple[Reply, int]:
    """A reply whose text and tool calls are valid to store and show (core/text.py), and how many
    characters were replaced."""
    text, replaced = valid(reply.text)
    calls = []
    for call in reply.tool_calls:
        arguments, n = valid_json(call.arguments)
        name, m = valid(call.name, line_ends=False)
        replaced += n + m
        calls.append(ToolCall(name, arguments, valid_text(call.id, line_ends=False)))
    model = valid_text(reply.model, line_ends=False)
    if text is reply.text and not replaced and model is reply.model:
        return reply, 0
    return dataclasses.replace(reply, text=text, tool_calls=tuple(calls), model=model), replaced


def same_model(answered: str, asked: str) -> bool:
    """Whether a reply's model is the one asked for: equal but for case and an implied `:latest`
    tag, or a dated snapshot of it (gpt-4o asked, gpt-4o-2024-08-06 answered). A reply that
    names no model is taken as the one asked for."""
    def norm(name: str) -> str:
        return name.strip().lower().removesuffix(":latest")

    a, b = norm(answered), norm(asked)
    if not a or a == b:
        return True
    rest = a[len(b) + 1:] if a.startswith(b + "-") else ""
    return bool(rest) and rest.replace("-", "").isdigit()
