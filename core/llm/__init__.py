"""The LLM layer: a `Backend` protocol, the Ollama and OpenAI-compatible backends, the call
log/cache, and `LLM`, the facade every reasoner calls.

Reasoners never talk to a backend directly: they call `LLM.chat` / `LLM.stream` /
`LLM.json`, which add the model and options from settings, answer identical temperature-0
requests from the call log, retry transient failures, emit `LLMCall` events and raise
`LLMError` (a UserError, one clear line) when a call fails. A failed call changes nothing.

Heavy imports (the `ollama` client, httpx) happen inside the backend modules, only when a
call is made; which backend a setting names is core/llm/backends.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from sym.core.errors import UserError

if TYPE_CHECKING:
    from sym.core.settings import Settings

# {"role": "system" | "user" | "assistant" | "tool", "content": str}; an assistant message may also carry
# "tool_calls": [{"id": str, "name": str, "arguments": dict}] (what it asked for), a "tool" message
# "name" and "tool_call_id" (whose result it is). Each backend turns these into its wire form.
Message = dict[str, Any]
Tool = dict[str, Any]     # {"type": "function", "function": {"name", "description", "parameters": JSON schema}}


class LLMError(UserError):
    """A failed model call. `reason` is one of: unreachable, no-model, timeout, context,
    bad-output, server, cancelled, offline, auth (a key the server refused), no-tools (the model
    or server does not support tool calling; a retry cannot help), too-large (the reply passed
    llm_max_reply_bytes; reading stopped)."""

    transient: bool = False   # a retry may succeed (core/llm/failures.py sets it)
    problems: list[str]       # a reply that never fit the schema: why (set by core/llm/repair.py)
    calls: int                # … and how many calls that took

    def __init__(self, message: str, *, reason: str, hint: str | None = None, exit_code: int = 1) -> None:
        super().__init__(message, hint=hint)
        self.reason = reason
        self.exit_code = exit_code   # 3 unreachable, 4 timeout, 130 cancelled, else 1


@dataclass(frozen=True)
class ToolCall:
    """A tool the model asked for: its `name`, the `arguments` parsed into a dict, and the id a
    server gave the call ("" where it gives none, as Ollama does)."""

    name: str
    arguments: dict[str, Any]
    id: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The neutral form: what a follow-up assistant message carries in "tool_calls"."""
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


def recorded_tool_calls(recorded: object) -> tuple[ToolCall, ...]:
    """The ToolCalls of a recorded reply (a call-log row's or a session event's list of
    {id, name, arguments}); what is not in that shape is left out."""
    if not isinstance(recorded, list):
        return ()
    return tuple(ToolCall(str(c.get("name") or ""), dict(c.get("arguments") or {}), str(c.get("id") or ""))
                 for c in recorded if isinstance(c, dict) and isinstance(c.get("arguments", {}), dict))


@dataclass(frozen=True)
class Reply:
    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False
    call_id: int | None = None      # row in the call log
    done_reason: str = ""           # "length": the output cap (num_predict) ended the reply
    tool_calls: tuple[ToolCall, ...] = ()   # what the model asked for, when the call offered `tools`

    @property
    def truncated(self) -> bool:
        return self.done_reason == "length"


@dataclass(frozen=True)
class ModelInfo:
    name: str
    size: int = 0
    family: str = ""
    parameters: str = ""
    quantization: str = ""
    details: dict[str, Any] = field(default_factory=dict)


class Backend(Protocol):
    """What a model server offers. Implementations raise LLMError with a specific `reason`."""

    name: str

    def chat(self, messages: list[Message], *, model: str, format: dict[str, Any] | str | None = None,
             options: dict[str, Any] | None = None, timeout: float | None = None,
             tools: list[Tool] | None = None) -> Reply:
        """One whole reply. With `tools` (OpenAI function format) the reply's `tool_calls` holds
        what the model asked for; a model or server without tool calling raises reason no-tools."""
        ...

    def stream(self, messages: list[Message], *, model: str, options: dict[str, Any] | None = None,
               timeout: float | None = None, format: dict[str, Any] | str | None = None) -> Iterator[str | Reply]:
        """Yields text chunks, then one final Reply (with token counts). A backend whose
        `streams_structured` is true also takes `format=` here (structured calls then stream)."""
        ...

    def embed(self, texts: list[str], *, model: str) -> list[list[float]]: ...

    def models(self) -> list[ModelInfo]: ...

    def ping(self) -> bool: ...


def backend_key(settings: Settings) -> tuple[Any, ...]:
    """What decides which server and model a shell talks to: a change rebuilds its `LLM`."""
    if getattr(settings, "backend", "ollama") == "openai":
        return (settings.model, "openai", settings.base_url)
    return (settings.model, settings.ollama_host)
