"""A chat message as the backends and the request key see it (`clean_message`), and the shape a
caller's messages must have."""

from __future__ import annotations

from sym.core.llm import Message
from sym.core.text import valid_json, valid_text

MESSAGE_SHAPE = ("messages must be a list of {'role': str, 'content': str} dicts (an assistant one may add "
                 "'tool_calls': [{'id': str, 'name': str, 'arguments': dict}], a tool one 'name' and 'tool_call_id')")


def clean_message(m: object) -> Message:
    """One message as the backends and the request key see it: role and content, plus the tool-call
    keys (neutral form) where they belong; other keys are dropped, a wrong shape is a TypeError."""
    if not (isinstance(m, dict) and isinstance(m.get("role"), str)):
        raise TypeError(MESSAGE_SHAPE)
    role, content, calls = m["role"], m.get("content"), m.get("tool_calls")
    if content is None and role == "assistant" and calls:
        content = ""   # an assistant turn that only called tools
    if not isinstance(content, str):
        raise TypeError(MESSAGE_SHAPE)
    out: Message = {"role": role, "content": valid_text(content, line_ends=False)}   # sendable, loggable
    if role == "assistant" and calls is not None:
        if not (isinstance(calls, list) and all(
                isinstance(c, dict) and isinstance(c.get("name"), str) and isinstance(c.get("arguments"), dict)
                and isinstance(c.get("id", ""), str) for c in calls)):
            raise TypeError(MESSAGE_SHAPE)
        if calls:
            out["tool_calls"] = [{"id": c.get("id", ""), "name": c["name"], "arguments": valid_json(c["arguments"])[0]}
                                 for c in calls]
    if role == "tool":
        for name in ("name", "tool_call_id"):
            if name in m:
                if not isinstance(m[name], str):
                    raise TypeError(MESSAGE_SHAPE)
                out[name] = m[name]
    return out
