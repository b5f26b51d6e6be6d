"""An OpenAI-compatible (`/v1`) HTTP server for tests: real sockets, scripted replies, SSE streaming,
injectable faults — what `tests/ollama_server.py` is for the Ollama protocol, with the same scripting::

    def test_tell_through_an_openai_server(openai_server, shell):
        shell.ctx.settings.backend, shell.ctx.settings.base_url = "openai", openai_server.url
        openai_server.reply(json={"statements": [...]}, when="jazz")
        openai_server.api_key = "sk-test"            # requests without `Bearer sk-test` get a 401
        openai_server.json_schema = False            # response_format json_schema is refused (`refusal_status`)
        openai_server.fail("server")                 # the next request gets a 500

`url` ends in `/v1`. Routes: GET /v1/models, POST /v1/chat/completions (streamed as server-sent
events when `stream` is true, with a usage chunk when `stream_options.include_usage`), POST
/v1/embeddings. `max_tokens` caps a reply at that many words with `finish_reason: "length"`.
A chat for a model not in `models` gets a 404 `model_not_found` (set `strict_models = False` to
accept any). Faults are those of the Ollama test server ("no-model", "server", "slow", "garbage",
"truncated", "context", "disconnect", "refused", "trickle") plus "rate-limit" (429) and
"unauthorized" (401). Token counts are word counts. `requests` holds every request; each has
`headers` (lower-case names) so a test can see what the client sent.

Tool calling, as on the Ollama test server: `reply(tool_calls=[{"name": "ask", "arguments": {...}}])`
answers with `choices[0].message.tool_calls` (`id` — "call_<n>" unless scripted —, `type:
"function"`, `function.arguments` as a JSON string), content null unless texts are given, and
`finish_reason: "tool_calls"`; streamed, the calls come as `delta.tool_calls` (name, then the
arguments). `Request.tools` is what a request offered. `no_tools = True` (or a model in
`no_tools_models`) answers a request with tools with a `tools_refusal_status` (400) OpenAI-style
error naming tool choice, as vLLM does without --enable-auto-tool-choice.
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass, field

from tests.ollama_handler import _Handler
from tests.ollama_script import Fault, Request, _capped, _chunks, _words, embedding
from tests.ollama_server import OllamaServer, unused_url

__all__ = ["OpenAIServer", "OpenAIRequest", "unused_url"]

DEFAULT_MODELS = ("llama3.1:8b", "text-embedding-3-small")
FAULTS = ("no-model", "server", "slow", "garbage", "truncated", "context", "disconnect", "refused", "trickle",
          "rate-limit", "unauthorized")


@dataclass
class OpenAIRequest(Request):
    headers: dict = field(default_factory=dict)

    @property
    def format(self):
        """The `response_format` sent (None when none)."""
        return (self.body or {}).get("response_format")

    @property
    def options(self) -> dict:
        body = self.body or {}
        return {k: body[k] for k in ("temperature", "top_p", "max_tokens", "seed", "stop") if k in body}

    @property
    def stream(self) -> bool:
        return bool((self.body or {}).get("stream", False))   # OpenAI answers whole unless asked

    @property
    def authorization(self) -> str:
        return self.headers.get("authorization", "")


def _error(message: str, kind: str = "invalid_request_error", code: str | None = None) -> dict:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


class OpenAIServer(OllamaServer):
    """A scripted OpenAI-compatible server on 127.0.0.1 (port chosen by the OS)."""

    def __init__(self, *, models: tuple[str, ...] | list[str] = DEFAULT_MODELS):
        super().__init__(models=models)
        self.api_key: str | None = None
        self.json_schema = True       # accepts response_format {"type": "json_schema"}
        self.json_object = True       # accepts response_format {"type": "json_object"}
        self.refusal_status = 400     # how a refused response_format is answered (llama-cpp-python: 500)
        self.streams = True           # False: a streamed request is answered whole, as some servers do
        self.tools_refusal_status = 400   # how a request with tools is refused under `no_tools` (some servers: 422)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    protocol = "openai"

    @staticmethod
    def handler_class():
        return _OpenAIHandler

    def fail(self, kind: str, *, when=None, model: str | None = None, times: int | None = 1,
             delay: float = 2.0, message: str | None = None) -> Fault:
        if kind not in FAULTS:
            raise ValueError(f"unknown fault {kind!r}; one of {', '.join(FAULTS)}")
        fault = Fault(kind, when, model, times, delay, message)
        if kind == "refused":
            self.stop()
            return fault
        with self._lock:
            self.faults.append(fault)
        return fault

    @property
    def chats(self) -> list[OpenAIRequest]:
        return self.requests_to("/v1/chat/completions")


class _OpenAIHandler(_Handler):
    server_state: OpenAIServer

    def _handle(self, method: str) -> None:
        state = self.server_state
        headers = {k.lower(): v for k, v in self.headers.items()}
        req = OpenAIRequest(method, self.path.split("?", 1)[0], self._body(), headers)
        state._record(req)
        routes = {"/v1/chat/completions": self._chat, "/v1/embeddings": self._embed, "/v1/models": self._models}
        route = routes.get(req.path)
        if route is None:
            return self._json(404, {"detail": "Not Found"})
        if state.api_key is not None and req.authorization != f"Bearer {state.api_key}":
            given = req.authorization.removeprefix("Bearer ") or "none"
            return self._json(401, _error(f"Incorrect API key provided: {given}. You can find your API key "
                                          "in your account settings.", code="invalid_api_key"))
        if req.path != "/v1/models":
            fault = state._fault_for(req)
            if fault is not None and self._fault(fault, req):
                return None
            if not state._has_model(req.model):
                return self._json(404, _error(f"The model `{req.model}` does not exist or you do not have "
                                              "access to it.", code="model_not_found"))
            kind = (req.format or {}).get("type") if isinstance(req.format, dict) else None
            if (kind == "json_schema" and not state.json_schema) or (kind == "json_object" and not state.json_object):
                return self._json(state.refusal_status, _error(
                    f"1 validation error: body.response_format.type: Input should be 'text' or 'json_object', "
                    f"not {kind!r}"))
            if state._refuses_tools(req):
                return self._json(state.tools_refusal_status, _error(
                    '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
                    kind="BadRequestError"))
        return route(req)

    # -- faults -------------------------------------------------------------------------

    def _fault(self, fault: Fault, req: OpenAIRequest) -> bool:
        kind = fault.kind
        if kind == "slow":
            return self.server_state.sleep(fault.delay)
        if kind == "trickle" and req.path == "/v1/chat/completions":
            text, _ = self.server_state._rule_for(req)
            self._trickle(req, text, fault.delay)
            return True
        if kind == "no-model":
            self._json(404, _error(fault.message or f"The model `{req.model}` does not exist", code="model_not_found"))
        elif kind == "server":
            self._json(500, _error(fault.message or "llama runner process has terminated", kind="server_error"))
        elif kind == "rate-limit":
            self._json(429, _error(fault.message or "Rate limit reached", kind="rate_limit_error"))
        elif kind == "unauthorized":
            self._json(401, _error(fault.message or "Invalid authentication", code="invalid_api_key"))
        elif kind == "context":
            self._json(400, _error(fault.message or "This model's maximum context length is 4096 tokens. However, "
                                   "your messages resulted in 9000 tokens.", code="context_length_exceeded"))
        elif kind == "garbage":
            self._send(200, b"<html><body>502 Bad Gateway</body></html>\x00\xff", "application/json")
        elif kind == "disconnect":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
        elif kind == "truncated":
            if req.stream:
                self._start_stream("text/event-stream")
                for piece in ("Half ", "a reply"):
                    self._event(self._delta(req, piece))
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            else:
                whole = json.dumps(self._completion(req, "a reply that is cut sh", "stop")).encode()
                self._send(200, whole[: len(whole) // 2], "application/json", length=len(whole))
        return True

    # -- endpoints --------------------------------------------------------------------------

    def _chat(self, req: OpenAIRequest) -> None:
        text, rule = self.server_state._rule_for(req)
        text, reason = _capped(text, (req.body or {}).get("max_tokens"))
        calls = _openai_calls(rule.tool_calls) if rule is not None and rule.tool_calls else None
        if calls:
            reason = "tool_calls"
        if not req.stream or not self.server_state.streams:
            return self._json(200, self._completion(req, text, reason, calls))
        pieces = rule.chunks if rule is not None and rule.chunks and reason != "length" else _chunks(text)
        delay = rule.chunk_delay if rule is not None else 0.0
        try:
            self._start_stream("text/event-stream")
            self._event({**self._delta(req, ""), "choices": [{"index": 0, "delta": {"role": "assistant"},
                                                              "finish_reason": None}]})
            for n, call in enumerate(calls or []):   # the name first, then the arguments, as OpenAI streams them
                head = {**call, "index": n, "function": {"name": call["function"]["name"], "arguments": ""}}
                tail = {"index": n, "function": {"arguments": call["function"]["arguments"]}}
                for part in (head, tail):
                    self._event({**self._delta(req, ""), "choices": [{"index": 0, "delta": {"tool_calls": [part]},
                                                                      "finish_reason": None}]})
            for piece in pieces:
                self._event(self._delta(req, piece))
                if delay and self.server_state.sleep(delay):
                    return
            self._event({**self._delta(req, ""), "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
            if ((req.body or {}).get("stream_options") or {}).get("include_usage"):
                self._event({**self._delta(req, ""), "choices": [], "usage": self._usage(req, text)})
            self._raw(b"data: [DONE]\n\n")
            self._write_chunk(b"")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _trickle(self, req: OpenAIRequest, text: str, per_byte: float) -> None:
        text, reason = _capped(text, (req.body or {}).get("max_tokens"))
        try:
            if req.stream:
                self._start_stream("text/event-stream")
                events = [self._delta(req, piece) for piece in _chunks(text)]
                events.append({**self._delta(req, ""), "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
                data = b"".join(f"data: {json.dumps(e)}\n\n".encode() for e in events) + b"data: [DONE]\n\n"
            else:
                data = json.dumps(self._completion(req, text, reason)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
            for i in range(len(data)):
                if req.stream:
                    self._write_chunk(data[i:i + 1])
                else:
                    self.wfile.write(data[i:i + 1])
                self.wfile.flush()
                if self.server_state.sleep(per_byte):
                    return
            if req.stream:
                self._write_chunk(b"")
                self.wfile.flush()
        except OSError:
            self.close_connection = True

    def _embed(self, req: OpenAIRequest) -> None:
        inputs = (req.body or {}).get("input", "")
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        rows = [{"object": "embedding", "index": i, "embedding": embedding(str(t))} for i, t in enumerate(inputs)]
        tokens = sum(_words(str(t)) for t in inputs)
        self._json(200, {"object": "list", "data": list(reversed(rows)), "model": req.model,   # any order: by index
                         "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})

    def _models(self, req: OpenAIRequest) -> None:
        self._json(200, {"object": "list", "data": [{"id": m, "object": "model", "created": 1735689600,
                                                     "owned_by": "sym-test"} for m in self.server_state.models]})

    # -- bodies ---------------------------------------------------------------------------

    def _usage(self, req: OpenAIRequest, text: str) -> dict:
        prompt, completion = _words(req.text), _words(text)
        return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}

    def _completion(self, req: OpenAIRequest, text: str, reason: str, calls: list[dict] | None = None) -> dict:
        message: dict = {"role": "assistant", "content": text}
        if calls:
            message.update(content=text or None, tool_calls=calls)
        return {"id": "chatcmpl-test", "object": "chat.completion", "created": 1735689600,
                "model": self.server_state.answer_model or req.model,
                "choices": [{"index": 0, "message": message, "finish_reason": reason}],
                "usage": self._usage(req, text)}

    def _delta(self, req: OpenAIRequest, piece: str) -> dict:
        return {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1735689600,
                "model": self.server_state.answer_model or req.model,
                "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}

    def _event(self, data: dict) -> None:
        self._raw(f"data: {json.dumps(data)}\n\n".encode())

    def _raw(self, data: bytes) -> None:
        self._write_chunk(data)
        self.wfile.flush()


def _openai_calls(calls: list[dict]) -> list[dict]:
    """Scripted tool calls in the chat-completions wire form: ids, and the arguments as a JSON string
    (a scripted string is sent as it is, to script arguments that do not parse)."""
    return [{"id": c.get("id") or f"call_{n}", "type": "function",
             "function": {"name": c["name"], "arguments": c["arguments"] if isinstance(c.get("arguments"), str)
                          else json.dumps(c.get("arguments") or {})}}
            for n, c in enumerate(calls)]
