"""The OpenAI-compatible backend: the `Backend` protocol over `/v1` (vLLM, llama.cpp's server,
LM Studio, hosted endpoints), spoken with `httpx` directly.

Like the Ollama backend it turns every way a call can fail into one `LLMError` with a specific
`reason` and a one-line hint, and `timeout` is a total deadline for a call (core/llm/deadline.py).
Tools go as `tools`; the reply's `tool_calls` come back with their JSON-string arguments parsed.
The API key comes from $SYM_API_KEY or $OPENAI_API_KEY, goes only into the Authorization header
and is scrubbed from anything a server echoes back; it is never part of a request key, a log line
or an error. It knows nothing of settings, caching or retries.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
import urllib.parse
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from sym.core.llm import LLMError, Message, ModelInfo, Reply, Tool, ToolCall
from sym.core.llm.failures import common_failure, no_tools, tool_arguments
from sym.core.llm.failures import error as _error
from sym.core.llm.failures import one_line as _one_line
from sym.core.llm.repair import with_note

if TYPE_CHECKING:
    import httpx

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:8000/v1"
KEY_VARIABLES = ("SYM_API_KEY", "OPENAI_API_KEY")
# Ollama's option names -> the chat-completions ones; anything else (num_ctx, top_k, …) is not sent
OPTION_NAMES = {"temperature": "temperature", "top_p": "top_p", "num_predict": "max_tokens", "seed": "seed",
                "stop": "stop", "presence_penalty": "presence_penalty", "frequency_penalty": "frequency_penalty"}
# how structured output is asked for, most exact first; a server that refuses one gets the next
FORMAT_LEVELS = ("json_schema", "json_object", "prompt")
_CONTEXT = re.compile(r"context.?(length|window|size)|maximum context|exceeds? .*context|too many tokens|"
                      r"prompt is too long|context_length_exceeded", re.I)
_NO_MODEL = re.compile(r"model.*(not found|does not exist|not exist|unknown|no such)|model_not_found|"
                       r"unknown model|invalid model", re.I)
_FORMAT = re.compile(r"response_format|json_schema|json_object", re.I)
_TOOLS = re.compile(r"tool|function", re.I)   # a 400/422 naming tools, tool_choice or function(s): no tool calling
_KEY_HINT = "set SYM_API_KEY (or OPENAI_API_KEY) to a key this server accepts"


def resolve_base_url(url: str | None = None) -> str:
    """settings.base_url, else $SYM_BASE_URL, else $OPENAI_BASE_URL, else the local default. A URL
    with no path gets `/v1` (what every OpenAI-compatible server serves under)."""
    url = (url or os.environ.get("SYM_BASE_URL") or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL)
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    if not urllib.parse.urlsplit(url).path:
        url += "/v1"
    return url


def api_key() -> str | None:
    """The key from the environment (never from settings, so it is never recorded)."""
    for name in KEY_VARIABLES:
        value = (os.environ.get(name) or "").strip()
        if value:
            return value
    return None


class _Refused(Exception):
    """An HTTP error status with the server's own message."""

    def __init__(self, status: int, detail: str, code: str = "") -> None:
        super().__init__(detail)
        self.status, self.detail, self.code = status, detail, code


class _NotProtocol(ValueError):
    """A 200 whose body is not the OpenAI reply shape."""


def with_schema(messages: list[Message], schema: dict[str, Any]) -> list[Message]:
    """`messages` with the JSON schema spelled out in the last user message: what a server that
    cannot enforce a schema needs the model itself to know."""
    return with_note(messages, "Reply with only one JSON object that matches this JSON schema:\n"
                     + json.dumps(schema, separators=(",", ":"), ensure_ascii=False))


def wire_messages(messages: list[Message]) -> list[Message]:
    """Messages in the chat-completions form: an assistant's tool calls with `type` and JSON-string
    arguments (its content null when it has none), a tool result as `tool_call_id` + content."""
    out: list[Message] = []
    for m in messages:
        if m.get("tool_calls"):
            m = {"role": m["role"], "content": m.get("content") or None,
                 "tool_calls": [{"id": c.get("id") or "", "type": "function",
                                 "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                                for c in m["tool_calls"]]}
        elif m.get("role") == "tool":
            m = {"role": "tool", "tool_call_id": m.get("tool_call_id") or "", "content": m.get("content") or ""}
        out.append(m)
    return out


def request_body(messages: list[Message], *, model: str, options: dict[str, Any] | None, format: dict[str,
                 Any] | str | None, level: str,
                 stream: bool, tools: list[Tool] | None = None) -> dict[str, Any]:
    """The chat-completions body for one call; `level` is how structured output is asked for."""
    if isinstance(format, dict) and level != "json_schema":
        messages = with_schema(messages, format)
    body: dict[str, Any] = {"model": model, "messages": wire_messages(messages), "stream": stream}
    if tools:
        body["tools"] = tools
    for name, value in (options or {}).items():
        mapped = OPTION_NAMES.get(name)
        if mapped is not None and value is not None and not (mapped == "max_tokens" and int(value) <= 0):
            body[mapped] = value
    if stream:
        body["stream_options"] = {"include_usage": True}
    if format is not None and level == "json_schema" and isinstance(format, dict):
        body["response_format"] = {"type": "json_schema",
                                   "json_schema": {"name": str(format.get("title") or "reply")[:64],
                                                   "schema": format, "strict": False}}
    elif format is not None and level in ("json_schema", "json_object"):
        body["response_format"] = {"type": "json_object"}
    return body


class OpenAIBackend:
    """Chat, stream, embed and list models on one OpenAI-compatible server."""

    name = "openai"
    streams_structured = True   # stream() takes a JSON-schema `format`

    def __init__(self, base_url: str | None = None, *, timeout: float = 120.0, key: str | None = None,
                 max_reply_bytes: int | None = None) -> None:
        self.host = resolve_base_url(base_url)
        self.timeout = timeout
        self.max_reply_bytes = max_reply_bytes   # a reply body longer than this stops with reason too-large
        self._key = key if key is not None else api_key()
        self._clients: dict[float, Any] = {}
        self._lock = threading.Lock()
        self._level = 0          # index into FORMAT_LEVELS: lowered once a server refuses a level

    def __repr__(self) -> str:   # never the key
        return f"OpenAIBackend({self.host!r})"

    # -- the protocol ----------------------------------------------------------------

    def chat(self, messages: list[Message], *, model: str, format: dict[str, Any] | str | None = None,
             options: dict[str, Any] | None = None, timeout: float | None = None,
             tools: list[Tool] | None = None) -> Reply:
        from sym.core.llm.deadline import within

        started = time.perf_counter()
        try:
            with within(timeout or self.timeout, max_bytes=self.max_reply_bytes):
                data = self._structured(lambda level: self._post_json(
                    "/chat/completions", request_body(messages, model=model, options=options, format=format,
                                                      level=level, stream=False, tools=tools), timeout), format)
            choice = data["choices"][0]
            message = choice.get("message") or {}
            text = message.get("content") or ""
            calls = tuple(ToolCall(str(c["function"]["name"]), tool_arguments(
                              c["function"].get("arguments"), name=str(c["function"]["name"]), host=self.host),
                              str(c.get("id") or ""))
                          for c in message.get("tool_calls") or ())
            usage = data.get("usage") or {}
            reply = Reply(str(text), str(data.get("model") or model), int(usage.get("prompt_tokens") or 0),
                          int(usage.get("completion_tokens") or 0), time.perf_counter() - started,
                          done_reason=str(choice.get("finish_reason") or ""), tool_calls=calls)
        except Exception as err:  # noqa: BLE001 — every failure becomes one LLMError
            raise self.failure(err, model=model, timeout=timeout, tools=bool(tools)) from None
        return reply

    def stream(self, messages: list[Message], *, model: str, options: dict[str, Any] | None = None,
               timeout: float | None = None, format: dict[str, Any] | str | None = None) -> Iterator[str | Reply]:
        from sym.core.llm.deadline import within

        started = time.perf_counter()
        limit = timeout or self.timeout
        parts: list[str] = []
        usage: dict[str, Any] = {}
        finish = ""
        answered = ""   # the model the server says answered
        done = False
        try:
            with within(limit, max_bytes=self.max_reply_bytes):   # the body inherits the deadline and the cap
                events = self._structured(lambda level: self._events(
                    request_body(messages, model=model, options=options, format=format, level=level, stream=True),
                    timeout), format)
            for event in events:
                if event is None:          # data: [DONE]
                    done = True
                    break
                if event.get("error"):
                    err = event["error"]
                    raise _Refused(500, str(err.get("message") if isinstance(err, dict) else err))
                usage = event.get("usage") or usage
                answered = str(event.get("model") or answered)
                for choice in event.get("choices") or []:
                    text = (choice.get("delta") or {}).get("content") or ""
                    if text:
                        parts.append(text)
                        yield text
                    finish = choice.get("finish_reason") or finish
                if time.perf_counter() - started > limit:
                    raise TimeoutError
            events.close()
        except LLMError:
            raise
        except Exception as err:  # noqa: BLE001
            raise self.failure(err, model=model, timeout=timeout) from None
        if not (done or finish):
            raise _error(f"the reply from {self.host} stopped before it was complete", reason="server",
                         hint="try again; check the server's log", retry=True)
        yield Reply("".join(parts), answered or model, int(usage.get("prompt_tokens") or 0),
                    int(usage.get("completion_tokens") or len(parts)), time.perf_counter() - started,
                    done_reason=str(finish))

    def embed(self, texts: list[str], *, model: str) -> list[list[float]]:
        if not texts:
            return []
        from sym.core.llm.deadline import within

        try:
            with within(self.timeout):
                data = self._post_json("/embeddings", {"model": model, "input": list(texts)}, None)
            rows = sorted(data["data"], key=lambda row: int(row.get("index", 0)))
            vectors = [[float(x) for x in row["embedding"]] for row in rows]
        except Exception as err:  # noqa: BLE001
            raise self.failure(err, model=model) from None
        if len(vectors) != len(texts):
            raise _error(f"the server at {self.host} sent {len(vectors)} embeddings for {len(texts)} texts",
                         reason="bad-output")
        return vectors

    def models(self) -> list[ModelInfo]:
        try:
            data = self._get_json("/models", None)
            return [ModelInfo(str(m["id"]), family=str(m.get("owned_by") or ""),
                              details={k: v for k, v in m.items() if isinstance(v, (str, int, float, bool))})
                    for m in data["data"]]
        except Exception as err:  # noqa: BLE001
            raise self.failure(err, model="") from None

    def ping(self) -> bool:
        """Whether the server answers /models (within a few seconds)."""
        try:
            self._get_json("/models", min(self.timeout, 3.0))
        except Exception:  # noqa: BLE001
            return False
        return True

    # -- plumbing --------------------------------------------------------------------

    def _structured(self, send: Callable[[str], T], format: dict[str, Any] | str | None) -> T:
        """`send(level)` at the current structured-output level; a server that refuses
        `response_format` is asked again one level lower (json_schema → json_object → the
        prompt alone), and the level is remembered for later calls."""
        if format is None:
            return send(FORMAT_LEVELS[-1])
        while True:
            level = self._level
            try:
                return send(FORMAT_LEVELS[level])
            except _Refused as err:
                # llama-cpp-python answers an unknown response_format type with a 500 naming it
                refused = err.status in (400, 422, 501) or _FORMAT.search(err.detail)
                if (level + 1 >= len(FORMAT_LEVELS) or not refused
                        or _CONTEXT.search(err.detail) or _NO_MODEL.search(f"{err.detail} {err.code}")):
                    raise
                with self._lock:
                    self._level = max(self._level, level + 1)

    def _headers(self) -> dict[str, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        return headers

    def _url(self, path: str) -> str:
        return self.host + path

    def _post_json(self, path: str, body: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        response = self._client(timeout).post(self._url(path), json=body, headers=self._headers())
        return self._read(response)

    def _get_json(self, path: str, timeout: float | None) -> dict[str, Any]:
        response = self._client(timeout).get(self._url(path), headers=self._headers())
        return self._read(response)

    def _read(self, response: httpx.Response) -> dict[str, Any]:
        if response.status_code >= 400:
            raise self._refused(response.status_code, response.read())
        try:
            data = response.json()
        except ValueError:
            raise _NotProtocol("not JSON") from None
        if not isinstance(data, dict):
            raise _NotProtocol("not an object")
        return data

    def _events(self, body: dict[str, Any], timeout: float | None) -> Generator[dict[str, Any] | None, None, None]:
        """Server-sent events of one streamed call: each `data:` object, then None for [DONE].
        The request goes out (and its status is checked) before the first event is asked for."""
        client = self._client(timeout)
        request = client.build_request("POST", self._url("/chat/completions"), json=body,
                                       headers={**self._headers(), "Accept": "text/event-stream"})
        response = client.send(request, stream=True)
        if response.status_code >= 400:
            try:
                raise self._refused(response.status_code, response.read())
            finally:
                response.close()
        if "text/event-stream" not in response.headers.get("content-type", "text/event-stream"):
            try:   # a server that ignores `stream` and answers whole: one event from the whole reply
                response.read()
                whole = [self._as_event(self._read(response)), None]
                return (event for event in whole)   # a generator, as below: the caller closes it
            finally:
                response.close()
        return self._parse_events(response)

    @staticmethod
    def _as_event(data: dict[str, Any]) -> dict[str, Any]:
        choice = data["choices"][0]
        return {"choices": [{"delta": {"content": (choice.get("message") or {})["content"] or ""},
                             "finish_reason": choice.get("finish_reason") or "stop"}],
                "usage": data.get("usage") or {}}

    @staticmethod
    def _parse_events(response: httpx.Response) -> Generator[dict[str, Any] | None, None, None]:
        try:
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue            # comments (": ping"), event names, blank separators
                payload = line[5:].strip()
                if payload == "[DONE]":
                    yield None
                    return
                try:
                    event = json.loads(payload)
                except ValueError:
                    raise _NotProtocol("an event that is not JSON") from None
                if not isinstance(event, dict):
                    raise _NotProtocol("an event that is not an object")
                yield event
        finally:
            response.close()

    def _refused(self, status: int, raw: bytes) -> _Refused:
        detail, code = "", ""
        try:
            data = json.loads(raw)
            err = data.get("error", data) if isinstance(data, dict) else data
            if isinstance(err, dict):
                detail = str(err.get("message") or err.get("detail") or "")
                code = str(err.get("code") or err.get("type") or "")
            else:
                detail = str(err)
        except ValueError:
            detail = raw.decode("utf-8", "replace")
        return _Refused(status, self._scrub(_one_line(detail)), self._scrub(code))

    def _scrub(self, text: str) -> str:
        """A server may quote the key back ("Incorrect API key provided: sk-…"): never pass it on."""
        if self._key and self._key in text:
            text = text.replace(self._key, "***")
        return re.sub(r"\b(sk-[A-Za-z0-9_\-*]{4,})", "sk-***", text)

    def _client(self, timeout: float | None) -> httpx.Client:
        import httpx

        from sym.core.llm.deadline import event_hooks, pooled_client

        client: httpx.Client = pooled_client(self, timeout, lambda seconds, trust_env: httpx.Client(
            timeout=seconds, trust_env=trust_env, event_hooks=event_hooks()))
        return client

    def close(self) -> None:
        from sym.core.llm.deadline import close_clients

        close_clients(self)

    def failure(self, err: BaseException, *, model: str, timeout: float | None = None,
                tools: bool = False) -> LLMError:
        """The LLMError for an exception raised while calling the server (`tools`: the request
        offered tools, so a 400/422 naming them means the model or server has no tool calling)."""
        import httpx

        host = self.host
        known = common_failure(err, model=model, seconds=timeout or self.timeout)
        if known is not None:
            return known
        if isinstance(err, _Refused):
            return self._status_error(err, model, tools)
        if isinstance(err, (httpx.RemoteProtocolError, httpx.ReadError)):
            return _error(f"the server at {host} closed the connection mid-reply", reason="server",
                          hint="try again; check the server's log", retry=True)
        if isinstance(err, (ConnectionError, httpx.TransportError)):
            return _error(f"cannot reach the OpenAI-compatible server at {host}", reason="unreachable", exit_code=3,
                          hint="start it, or point --base-url / /set base_url at it", retry=True)
        if isinstance(err, (ValueError, TypeError, KeyError, IndexError, AttributeError)):
            return _error(f"the server at {host} sent a reply that is not the OpenAI protocol", reason="server",
                          hint="is --base-url an OpenAI-compatible API (it usually ends in /v1)?")
        return _error(f"the call to {host} failed: {type(err).__name__}: {self._scrub(_one_line(err))}",
                      reason="server")

    def _status_error(self, err: _Refused, model: str, tools: bool = False) -> LLMError:
        host, status, detail = self.host, err.status, err.detail
        if status in (401, 403):
            return _error(f"the server at {host} refused the API key ({status})", reason="auth", exit_code=2,
                          hint=_KEY_HINT if status == 401 or "key" in detail.lower() else
                          f"{_KEY_HINT}, with access to {model or 'this model'}")
        if _CONTEXT.search(f"{detail} {err.code}"):
            return _error(f"the request is too long for the context window of {model}", reason="context",
                          hint="shorten the input, or use a model with a longer context")
        if status in (400, 404) and model and _NO_MODEL.search(f"{detail} {err.code}"):
            return _error(f'model "{model}" is not served at {host}', reason="no-model",
                          hint="/models lists what the server has; /set model NAME")
        if tools and status in (400, 422) and _TOOLS.search(f"{detail} {err.code}"):
            return no_tools(model, host, detail)
        if status == 404:
            return _error(f"no OpenAI-compatible API at {host} (404)", reason="server",
                          hint="check --base-url: it usually ends in /v1")
        if status == 429:
            return _error(f"the server at {host} is rate-limiting requests (429): {detail}", reason="server",
                          hint="wait a little, or lower the load", retry=True)
        if status >= 500:
            return _error(f"the server at {host} failed ({status}): {detail}", reason="server",
                          hint="try again; check the server's log", retry=True)
        return _error(f"the server at {host} refused the request ({status}): {detail}", reason="server",
                      hint="check the model name and options")
