"""The Ollama backend: the `Backend` protocol on the official `ollama` client.

It turns every way a call can fail (no server, model not pulled, timeout, context overflow,
5xx, a body that is not Ollama's protocol, a stream cut short) into one `LLMError` with a
specific `reason` and a one-line hint. `timeout` is a total deadline for a call, however slowly
the server trickles its reply (core/llm/deadline.py). Tool calls go as Ollama's `tools=` (the
OpenAI function form; the client keeps what Ollama's Tool type holds). It knows nothing of
settings, caching or retries.
"""

from __future__ import annotations

import itertools
import os
import re
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from sym.core.llm import LLMError, Message, ModelInfo, Reply, Tool, ToolCall
from sym.core.llm.failures import common_failure, no_tools, tool_arguments
from sym.core.llm.failures import error as _error
from sym.core.llm.failures import one_line as _one_line

if TYPE_CHECKING:
    import ollama

DEFAULT_HOST = "http://127.0.0.1:11434"
TRANSIENT = ("unreachable", "server")   # reasons worth a retry (see `transient`)
_CONTEXT = re.compile(r"context (length|window|size)|exceeds? .*context|too many tokens|prompt is too long", re.I)
_NO_MODEL = re.compile(r"model .*not found|not found.*pull|no such model|pull(ing)? it first", re.I)
_NO_TOOLS = re.compile(r"does not support tools", re.I)   # "registry.ollama.ai/library/gemma:2b does not support tools"


def resolve_host(host: str | None = None) -> str:
    """settings.ollama_host, else $OLLAMA_HOST, else the local default — as a URL."""
    host = (host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST).strip().rstrip("/")
    if "://" not in host:
        host = "http://" + host
        if not re.search(r":\d+$", host.split("://", 1)[1]):
            host += ":11434"
    return host


def transient(err: LLMError) -> bool:
    """Whether a retry may help: a refused connection or a server error (not a bad request)."""
    return bool(getattr(err, "transient", False))


class OllamaBackend:
    """Chat, stream, embed and list models on one Ollama server."""

    name = "ollama"
    streams_structured = True   # stream() takes a JSON-schema `format`

    def __init__(self, host: str | None = None, *, timeout: float = 120.0, max_reply_bytes: int | None = None) -> None:
        self.host = resolve_host(host)
        self.timeout = timeout
        self.max_reply_bytes = max_reply_bytes   # a reply body longer than this stops with reason too-large
        self._clients: dict[float, Any] = {}
        self._lock = threading.Lock()

    # -- the protocol ----------------------------------------------------------------

    def chat(self, messages: list[Message], *, model: str, format: dict[str, Any] | str | None = None,
             options: dict[str, Any] | None = None, timeout: float | None = None,
             tools: list[Tool] | None = None) -> Reply:
        from sym.core.llm.deadline import within

        client = self._client(timeout)
        started = time.perf_counter()
        try:
            with within(timeout or self.timeout, max_bytes=self.max_reply_bytes):
                response = client.chat(model=model, messages=wire_messages(messages), format=format,  # type: ignore[call-overload]  # format: "json" or a schema, as ollama takes
                                       options=options, tools=tools or None, stream=False)
            text = response.message.content or ""
            calls = tuple(ToolCall(c.function.name, tool_arguments(c.function.arguments, name=c.function.name,
                                                                    host=self.host))
                          for c in response.message.tool_calls or ())
        except Exception as err:  # noqa: BLE001 — every failure becomes one LLMError
            raise self.failure(err, model=model, timeout=timeout) from None
        return Reply(text, response.model or model, response.prompt_eval_count or 0, response.eval_count or 0,
                     time.perf_counter() - started, done_reason=response.done_reason or "", tool_calls=calls)

    def stream(self, messages: list[Message], *, model: str, options: dict[str, Any] | None = None,
               timeout: float | None = None, format: dict[str, Any] | str | None = None) -> Iterator[str | Reply]:
        from sym.core.llm.deadline import within

        client = self._client(timeout)
        started = time.perf_counter()
        limit = timeout or self.timeout
        parts: list[str] = []
        try:
            chunks = client.chat(model=model, messages=wire_messages(messages), format=format, options=options,  # type: ignore[call-overload]  # as above
                                 stream=True)
            with within(limit, max_bytes=self.max_reply_bytes):   # the request goes out with the first chunk
                first = next(chunks, None)
            for chunk in itertools.chain([first] if first is not None else [], chunks):
                text = chunk.message.content or ""
                if text:
                    parts.append(text)
                    yield text
                if chunk.done:
                    yield Reply("".join(parts), chunk.model or model, chunk.prompt_eval_count or 0,
                                chunk.eval_count or 0, time.perf_counter() - started,
                                done_reason=chunk.done_reason or "")
                    return
                if time.perf_counter() - started > limit:
                    raise TimeoutError
        except LLMError:
            raise
        except Exception as err:  # noqa: BLE001
            raise self.failure(err, model=model, timeout=timeout) from None
        raise _error(f"the reply from {self.host} stopped before it was complete", reason="server",
                     hint="try again; check the Ollama server's log", retry=True)

    def embed(self, texts: list[str], *, model: str) -> list[list[float]]:
        if not texts:
            return []
        from sym.core.llm.deadline import within

        try:
            with within(self.timeout):
                response = self._client(None).embed(model=model, input=texts)
            vectors = [list(map(float, v)) for v in response.embeddings]
        except Exception as err:  # noqa: BLE001
            raise self.failure(err, model=model) from None
        if len(vectors) != len(texts):
            raise _error(f"the server at {self.host} sent {len(vectors)} embeddings for {len(texts)} texts",
                         reason="bad-output")
        return vectors

    def models(self) -> list[ModelInfo]:
        try:
            listed = self._client(None).list().models
            out = []
            for m in listed:
                d = m.details
                out.append(ModelInfo(m.model or "", int(m.size or 0), (d.family or "") if d else "",
                                     (d.parameter_size or "") if d else "", (d.quantization_level or "") if d else "",
                                     d.model_dump(exclude_none=True) if d else {}))
        except Exception as err:  # noqa: BLE001
            raise self.failure(err, model="") from None
        return out

    def ping(self) -> bool:
        """Whether the server answers (within a few seconds)."""
        try:
            self._client(min(self.timeout, 3.0)).list()
        except Exception:  # noqa: BLE001
            return False
        return True

    # -- plumbing --------------------------------------------------------------------

    def client(self, timeout: float | None = None) -> ollama.Client:
        """The `ollama.Client` calls go through (the embedder uses it too): pooled per timeout,
        no proxy for a server on this machine, the caller's deadline (core/llm/deadline.py)."""
        return self._client(timeout)

    def _client(self, timeout: float | None) -> ollama.Client:
        import ollama

        from sym.core.llm.deadline import event_hooks, pooled_client

        client: ollama.Client = pooled_client(self, timeout, lambda seconds, trust_env: ollama.Client(
            host=self.host, timeout=seconds, trust_env=trust_env, event_hooks=event_hooks()))
        return client

    def close(self) -> None:
        from sym.core.llm.deadline import close_clients

        close_clients(self)

    def failure(self, err: BaseException, *, model: str, timeout: float | None = None) -> LLMError:
        """The LLMError for an exception raised by the client (or httpx under it)."""
        import httpx
        import ollama

        host = self.host
        known = common_failure(err, model=model, seconds=timeout or self.timeout)
        if known is not None:
            return known
        if isinstance(err, ollama.ResponseError):
            status, detail = err.status_code, _one_line(err.error)
            if status == 400 and _NO_TOOLS.search(detail):
                return no_tools(model, host)
            if _CONTEXT.search(detail):
                return _error(f"the request is too long for the context window of {model}", reason="context",
                              hint="shorten the input, or use a model with a longer context")
            if status == 404 and (_NO_MODEL.search(detail) or "model" in detail.lower()):
                return _error(f'model "{model}" is not on the Ollama server at {host}', reason="no-model",
                              hint=f"run `ollama pull {model}` (/models lists what it has)")
            if status >= 500 or status == -1:
                return _error(f"the Ollama server at {host} failed: {detail}", reason="server",
                              hint="try again; check the Ollama server's log", retry=status >= 500)
            return _error(f"the Ollama server at {host} refused the request ({status}): {detail}", reason="server",
                          hint="check the model name and options")
        if isinstance(err, (httpx.RemoteProtocolError, httpx.ReadError)):
            return _error(f"the Ollama server at {host} closed the connection mid-reply", reason="server",
                          hint="try again; check the Ollama server's log", retry=True)
        if isinstance(err, (ConnectionError, httpx.TransportError)):
            return _error(f"cannot reach the Ollama server at {host}", reason="unreachable", exit_code=3,
                          hint="start it with `ollama serve`, or point --ollama-host / OLLAMA_HOST at it", retry=True)
        if isinstance(err, (ValueError, TypeError, KeyError, AttributeError)):
            # invalid JSON, or JSON that is not Ollama's reply shape (pydantic's check)
            return _error(f"the server at {host} sent a reply that is not Ollama's protocol", reason="server",
                          hint="is OLLAMA_HOST pointing at an Ollama server?")
        return _error(f"the call to {host} failed: {type(err).__name__}: {_one_line(err)}", reason="server")


def wire_messages(messages: list[Message]) -> list[Message]:
    """Messages in Ollama's form: an assistant's tool calls as `{"function": {name, arguments}}`,
    a tool result naming its tool as `tool_name` (Ollama has no call ids)."""
    out: list[Message] = []
    for m in messages:
        if m.get("tool_calls"):
            m = {"role": m["role"], "content": m.get("content") or "",
                 "tool_calls": [{"function": {"name": c["name"], "arguments": c["arguments"]}} for c in m["tool_calls"]]}
        elif m.get("role") == "tool":
            m = {"role": "tool", "content": m.get("content") or "",
                 **({"tool_name": m["name"]} if m.get("name") else {})}
        out.append(m)
    return out
