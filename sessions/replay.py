"""What a replay needs from a recording that is not the front-end's: the memory change an event
stands for, and an offline backend answering every model call from the recorded `llm` events
(matched by request key), never opening a connection; a request the recording lacks fails with
LLMError(reason="offline"). The replay itself (a shell re-running the inputs) is `sym.repl.replay`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from sym.core.events import ItemAdded, ItemRemoved
from sym.core.llm import LLMError, Reply, recorded_tool_calls
from sym.core.llm.calllog import request_key
from sym.sessions.bounds import is_bounded
from sym.sessions.log import Recording


def memory_change(event) -> dict | None:
    if isinstance(event, ItemAdded):
        return {"op": "add", "id": event.item_id, "kind": event.kind, "text": event.text}
    if isinstance(event, ItemRemoved):
        return {"op": "remove", "id": event.item_id, "kind": event.kind, "text": event.text}
    return None


class OfflineBackend:
    """A Backend that answers from a recording's `llm` events: each request key gets its recorded
    outcomes in order (the last one repeats); recorded failures fail the same way again."""

    name = "offline"
    host = "the recording"

    def __init__(self, events: list[dict]):
        self._outcomes: dict[str, list[dict]] = defaultdict(list)
        for event in events:
            if isinstance(event.get("reply"), dict) or isinstance(event.get("error"), dict):
                self._outcomes[event["key"]].append(event)
        self._served: dict[str, int] = defaultdict(int)

    def _outcome(self, model: str, messages: list, format, options: dict | None, tools: list | None = None) -> dict:
        key = request_key(model, messages, format, options, tools)
        outcomes = self._outcomes.get(key)
        if not outcomes:
            raise LLMError(f"the recording has no reply for this request to {model}", reason="offline",
                           hint="replay without --offline to ask the model")
        n = self._served[key]
        self._served[key] = n + 1
        event = outcomes[min(n, len(outcomes) - 1)]
        if isinstance(event.get("reply"), dict) and (is_bounded(event["reply"].get("text"))
                                                     or _any_bounded(event["reply"].get("tool_calls"))):
            raise LLMError("the recording keeps only the start of this reply (it was too long to log whole)",
                           reason="offline", hint="replay without --offline to ask the model")
        error = event.get("error")
        if isinstance(error, dict):
            raise LLMError(str(error.get("message") or "the recorded call failed"),
                           reason=str(error.get("reason") or "server"),
                           hint=error.get("hint") if isinstance(error.get("hint"), str) else None)
        return event["reply"]

    def chat(self, messages, *, model, format=None, options=None, timeout=None, tools=None):
        reply = self._outcome(model, messages, format, options, tools or None)
        return Reply(str(reply.get("text") or ""), model, _count(reply.get("prompt_tokens")),
                     _count(reply.get("completion_tokens")), tool_calls=recorded_tool_calls(reply.get("tool_calls")))

    def stream(self, messages, *, model, options=None, timeout=None, format=None) -> Iterator:
        reply = self.chat(messages, model=model, format=format, options=options)
        if reply.text:
            yield reply.text
        yield reply

    def embed(self, texts, *, model):
        raise LLMError("embeddings are not recorded in a session", reason="offline",
                       hint="replay without --offline")

    def models(self):
        raise LLMError("the model list is not recorded in a session", reason="offline",
                       hint="replay without --offline")

    def ping(self) -> bool:
        return False


def _any_bounded(value) -> bool:
    """Whether a recorded structure holds a bounded text anywhere (a tool call's long argument)."""
    if isinstance(value, dict):
        return any(_any_bounded(v) for v in value.values())
    if isinstance(value, list):
        return any(_any_bounded(v) for v in value)
    return is_bounded(value)


def _count(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def answer_offline(rec: Recording, ctx) -> None:
    """Have every model call of the shell behind `ctx` answered from `rec`."""
    ctx.clients.fixed = OfflineBackend(rec.llm_calls())
