"""An Ollama-protocol HTTP server for tests: real sockets, scripted replies, injectable faults.

Every LLM test talks to this server through the real `ollama` client, so the code path is
the one users run. Use the `ollama_server` fixture (tests/conftest.py), then point a shell
at it::

    def test_tell_uses_the_model(ollama_server, shell):
        shell.ctx.settings.ollama_host = ollama_server.url
        ollama_server.reply("Bob is big.", when="Bob")            # last user message contains "Bob"
        ollama_server.reply(json={"facts": ["big(bob)."]}, when=lambda r: r.format is not None)
        ollama_server.reply("first", "second")                     # served in turn, then "second" again
        ollama_server.default = "I don't know."                    # when no rule matches (initially "ok")
        ollama_server.fail("server")                               # the next request gets a 500
        ...
        assert ollama_server.last.last_user == "..."               # what the client sent

Rules (`reply`) and faults (`fail`) are tried in the order added, rules with a `when` before
catch-all rules; `times=N` retires a rule or fault after N uses (faults default to once).
`when` is a substring of the last user message (of the prompt for /api/generate), or a
predicate on the `Request`. `model=` restricts a rule to one model name.

Faults: "no-model" (404 model not found), "server" (500), "slow" (wait `delay` seconds, then
answer normally — for timeouts and cancellation), "garbage" (200 with a non-JSON body),
"truncated" (a stream or body cut short), "context" (400 context length exceeded),
"disconnect" (close the socket without an answer), "refused" (stop listening altogether:
later connections are refused; `start()` listens again on the same port), "trickle" (answer
normally, but one byte every `delay` seconds — streamed or not — so only a total deadline ends it),
"hold" (wait until `fault.gate` is set, or `delay` seconds at most, then answer normally — to
see whether two requests are in flight together: a later request's matcher sets the gate).

Output cap: a request whose options carry `num_predict` gets at most that many tokens (words)
of its reply, with `done_reason: "length"` when the cap cut it (as Ollama does).

Tool calling: `reply(tool_calls=[{"name": "ask", "arguments": {"question": "..."}}], when=...)`
answers with a message whose `tool_calls` are those (Ollama's wire form, `[{"function": {name,
arguments}}]`, content "" unless texts are given too), streamed or not; `Request.tools` is the
`tools` a request sent (None when none). `server.no_tools = True` (or a model name in
`server.no_tools_models`) answers a chat that offers tools with Ollama's 400
`{"error": "registry.ollama.ai/library/<model> does not support tools"}`.

Models: `server.models` lists what /api/tags shows; a chat for a model not in it gets the
404 Ollama sends (set `server.strict_models = False` to accept any name). `server.answer_model`
names another model in every chat reply (a server that routed the call elsewhere). Token counts are
word counts, so they are predictable. `server.requests` holds every request, in order.
"""

from __future__ import annotations

import hashlib
import json
import math
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEFAULT_MODELS = ("llama3.1:8b", "nomic-embed-text:latest")
FAULTS = ("no-model", "server", "slow", "garbage", "truncated", "context", "disconnect", "refused", "trickle",
          "hold")


@dataclass
class Request:
    """One request the server received."""

    method: str
    path: str
    body: dict | None

    @property
    def model(self) -> str:
        return str((self.body or {}).get("model") or "")

    @property
    def messages(self) -> list[dict]:
        msgs = (self.body or {}).get("messages")
        if isinstance(msgs, list):
            return msgs
        if self.path == "/api/generate":
            return [{"role": "user", "content": str((self.body or {}).get("prompt") or "")}]
        return []

    @property
    def last_user(self) -> str:
        """The content of the last user message ('' when none)."""
        for m in reversed(self.messages):
            if isinstance(m, dict) and m.get("role") == "user":
                return str(m.get("content") or "")
        return ""

    @property
    def system(self) -> str:
        return "\n".join(str(m.get("content") or "") for m in self.messages
                         if isinstance(m, dict) and m.get("role") == "system")

    @property
    def text(self) -> str:
        """All message contents joined (to match anything in the conversation)."""
        return "\n".join(str(m.get("content") or "") for m in self.messages if isinstance(m, dict))

    @property
    def format(self):
        return (self.body or {}).get("format")

    @property
    def options(self) -> dict:
        return (self.body or {}).get("options") or {}

    @property
    def stream(self) -> bool:
        # Ollama streams unless told not to
        return bool((self.body or {}).get("stream", True))

    @property
    def tools(self) -> list | None:
        """The `tools` the request offered (None when it sent none)."""
        tools = (self.body or {}).get("tools")
        return tools if isinstance(tools, list) else None


Matcher = Callable[[Request], bool] | str | None


def _matches(when: Matcher, model: str | None, req: Request) -> bool:
    if model is not None and req.model != model:
        return False
    if when is None:
        return True
    if isinstance(when, str):
        return when in req.last_user
    return bool(when(req))


@dataclass
class Rule:
    when: Matcher
    texts: list[str]
    model: str | None = None
    times: int | None = None
    chunks: list[str] | None = None
    chunk_delay: float = 0.0
    used: int = 0
    tool_calls: list[dict] | None = None   # [{"name": str, "arguments": dict, "id"?: str}]

    def next_text(self) -> str:
        text = self.texts[min(self.used, len(self.texts) - 1)]
        self.used += 1
        return text

    @property
    def spent(self) -> bool:
        return self.times is not None and self.used >= self.times


@dataclass
class Fault:
    kind: str
    when: Matcher = None
    model: str | None = None
    times: int | None = 1
    delay: float = 2.0
    message: str | None = None
    used: int = 0
    gate: threading.Event = field(default_factory=threading.Event)

    @property
    def spent(self) -> bool:
        return self.times is not None and self.used >= self.times


def _words(text: str) -> int:
    return len(text.split())


def _chunks(text: str) -> list[str]:
    """Word-sized chunks that join back to `text` exactly."""
    out, current = [], ""
    for ch in text:
        current += ch
        if ch == " ":
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out or [""]


def _capped(text: str, num_predict: object) -> tuple[str, str]:
    """`text` cut to `num_predict` tokens (words here) and the done_reason Ollama would give."""
    if isinstance(num_predict, int) and not isinstance(num_predict, bool) and num_predict > 0:
        pieces = _chunks(text)
        if len(pieces) > num_predict:
            return "".join(pieces[:num_predict]), "length"
    return text, "stop"


def embedding(text: str, dim: int = 16) -> list[float]:
    """A deterministic unit vector for `text` (what /api/embed answers)."""
    digest = hashlib.sha256(text.encode()).digest()
    vec = [(digest[i % len(digest)] - 127.5) / 127.5 for i in range(dim)]
    norm = math.sqrt(sum(x * x for x in vec)) or 1.0
    return [x / norm for x in vec]


class OllamaServer:
    """A scripted Ollama on 127.0.0.1 (port chosen by the OS). Use as a context manager or
    call `start()` / `stop()`."""

    def __init__(self, *, models: tuple[str, ...] | list[str] = DEFAULT_MODELS):
        self.models: list[str] = list(models)
        self.strict_models = True
        self.default = "ok"
        self.no_tools = False                  # every model answers a request with tools: "does not support tools"
        self.no_tools_models: set[str] = set()   # … or only these
        self.answer_model: str | None = None   # the model a chat reply names (None: the one asked for)
        self.requests: list[Request] = []
        self.rules: list[Rule] = []
        self.faults: list[Fault] = []
        self.port = 0
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._connections: set[socket.socket] = set()

    # -- lifecycle --------------------------------------------------------------------

    protocol = "ollama"

    @staticmethod
    def handler_class():
        return _Handler

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> OllamaServer:
        if self._httpd is not None:
            return self
        self._stopping.clear()
        handler = type("Handler", (self.handler_class(),), {"server_state": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"{self.protocol}-test-{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening (later connections are refused) and wake any slow handler."""
        self._stopping.set()
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        with self._lock:   # kept-alive connections would otherwise go on being served
            open_connections, self._connections = list(self._connections), set()
        for conn in open_connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def __enter__(self) -> OllamaServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- scripting --------------------------------------------------------------------

    def reply(self, *texts: str, when: Matcher = None, json: object = None, model: str | None = None,
              times: int | None = None, chunks: list[str] | None = None, chunk_delay: float = 0.0,
              tool_calls: list[dict] | None = None) -> Rule:
        """Answer requests matching `when` with `texts` in turn (the last one repeats), or with
        `json` serialised. `chunks` fixes how a streamed reply is split; `chunk_delay` waits
        between streamed chunks. `tool_calls` ([{"name", "arguments"}]) go with every reply of
        the rule (its text "" unless given)."""
        import json as _json

        if json is not None:
            texts = (*texts, _json.dumps(json))
        if not texts and tool_calls:
            texts = ("",)
        if not texts:
            raise ValueError("reply() needs a text, json= or tool_calls=")
        rule = Rule(when, list(texts), model, times, list(chunks) if chunks else None, chunk_delay,
                    tool_calls=[dict(c) for c in tool_calls] if tool_calls else None)
        with self._lock:
            self.rules.append(rule)
        return rule

    def fail(self, kind: str, *, when: Matcher = None, model: str | None = None, times: int | None = 1,
             delay: float = 2.0, message: str | None = None) -> Fault:
        """Inject a fault (see the module docstring for the kinds) for the next `times` matching
        requests (None: every one). "refused" stops the server at once."""
        if kind not in FAULTS:
            raise ValueError(f"unknown fault {kind!r}; one of {', '.join(FAULTS)}")
        fault = Fault(kind, when, model, times, delay, message)
        if kind == "refused":
            self.stop()
            return fault
        with self._lock:
            self.faults.append(fault)
        return fault

    def clear(self) -> None:
        """Forget rules, faults and recorded requests."""
        with self._lock:
            self.rules.clear()
            self.faults.clear()
            self.requests.clear()

    def requests_to(self, path: str) -> list[Request]:
        return [r for r in self.requests if r.path == path]

    @property
    def chats(self) -> list[Request]:
        """The /api/chat requests, in order."""
        return self.requests_to("/api/chat")

    @property
    def last(self) -> Request:
        return self.requests[-1]

    # -- used by the handler -----------------------------------------------------------

    def _record(self, req: Request) -> None:
        with self._lock:
            self.requests.append(req)

    def _fault_for(self, req: Request) -> Fault | None:
        with self._lock:
            for fault in self.faults:
                if not fault.spent and _matches(fault.when, fault.model, req):
                    fault.used += 1
                    return fault
        return None

    def _rule_for(self, req: Request) -> tuple[str, Rule | None]:
        with self._lock:
            ordered = [r for r in self.rules if r.when is not None] + [r for r in self.rules if r.when is None]
            for rule in ordered:
                if not rule.spent and _matches(rule.when, rule.model, req):
                    return rule.next_text(), rule
            return self.default, None

    def _refuses_tools(self, req: Request) -> bool:
        return bool(req.tools) and (self.no_tools or req.model in self.no_tools_models)

    def _has_model(self, name: str) -> bool:
        if not self.strict_models:
            return True
        names = set(self.models) | {m.removesuffix(":latest") for m in self.models if m.endswith(":latest")}
        return name in names

    def sleep(self, seconds: float) -> bool:
        """Wait (woken early by stop()); True when the server is stopping."""
        return self._stopping.wait(seconds)


class _Handler(BaseHTTPRequestHandler):
    server_state: OllamaServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # keep test output quiet
        pass

    def setup(self) -> None:
        super().setup()
        with self.server_state._lock:
            self.server_state._connections.add(self.connection)

    def finish(self) -> None:
        with self.server_state._lock:
            self.server_state._connections.discard(self.connection)
        try:
            super().finish()
        except OSError:
            pass

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except OSError:   # the connection was shut down (a fault, or the server stopping)
            self.close_connection = True

    # -- HTTP verbs ------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_HEAD(self) -> None:
        self._send(200, b"", "text/plain")

    def _handle(self, method: str) -> None:
        state = self.server_state
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        req = Request(method, self.path.split("?", 1)[0], body if isinstance(body, dict) else None)
        state._record(req)
        routes = {"/api/chat": self._chat, "/api/generate": self._generate, "/api/embed": self._embed,
                  "/api/tags": self._tags, "/api/show": self._show, "/api/version": self._version,
                  "/": lambda r: self._send(200, b"Ollama is running", "text/plain")}
        route = routes.get(req.path)
        if route is None:
            return self._json(404, {"error": "404 page not found"})
        if req.path in ("/api/chat", "/api/generate", "/api/embed", "/api/show"):
            fault = state._fault_for(req)
            if fault is not None and self._fault(fault, req):
                return None
            if not state._has_model(req.model):
                return self._json(404, {"error": f'model "{req.model}" not found, try pulling it first'})
            if state._refuses_tools(req):
                return self._json(400, {"error": f"registry.ollama.ai/library/{req.model} does not support tools"})
        return route(req)

    # -- faults -------------------------------------------------------------------------

    def _fault(self, fault: Fault, req: Request) -> bool:
        """Act out a fault; False when the request should then be answered normally (slow)."""
        kind = fault.kind
        if kind == "slow":
            return self.server_state.sleep(fault.delay)   # answer normally after the wait
        if kind == "hold":
            fault.gate.wait(fault.delay)
            return False
        if kind == "trickle" and req.path in ("/api/chat", "/api/generate"):
            text, _ = self.server_state._rule_for(req)
            self._trickle(req, text, fault.delay)
            return True
        if kind == "no-model":
            self._json(404, {"error": fault.message or f'model "{req.model}" not found, try pulling it first'})
        elif kind == "server":
            self._json(500, {"error": fault.message or "llama runner process has terminated: exit status 2"})
        elif kind == "context":
            self._json(400, {"error": fault.message or "the input length exceeds the context length"})
        elif kind == "garbage":
            self._send(200, b"<html><body>502 Bad Gateway</body></html>\x00\xff", "application/json")
        elif kind == "disconnect":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
        elif kind == "truncated":
            if req.stream and req.path in ("/api/chat", "/api/generate"):
                self._stream_cut(req)
            else:
                whole = json.dumps(self._chat_body(req, "a reply that is cut sh", done=True)).encode()
                self._send(200, whole[: len(whole) // 2], "application/json", length=len(whole))
        return True

    def _stream_cut(self, req: Request) -> None:
        """Two chunks, then the connection closes before the final (done) chunk."""
        self._start_stream()
        for piece in ("Half ", "a reply"):
            self._write_chunk(json.dumps(self._chunk(req, piece)).encode() + b"\n")
        self.wfile.flush()
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    # -- endpoints --------------------------------------------------------------------------

    def _chat(self, req: Request) -> None:
        text, rule = self.server_state._rule_for(req)
        text, reason = _capped(text, req.options.get("num_predict"))
        if req.stream:
            return self._stream(req, text, rule, reason)
        body = self._chat_body(req, text, done=True, reason=reason)
        if rule is not None and rule.tool_calls:
            body["message"]["tool_calls"] = _ollama_calls(rule.tool_calls)
        return self._json(200, body)

    def _trickle(self, req: Request, text: str, per_byte: float) -> None:
        """The whole answer, one byte every `per_byte` seconds (a body or an NDJSON stream)."""
        text, reason = _capped(text, req.options.get("num_predict"))
        try:
            if req.stream:
                self._start_stream()
                lines = [json.dumps(self._chunk(req, piece)) for piece in _chunks(text)]
                lines.append(json.dumps(self._chat_body(req, "", done=True, reason=reason)))
                data = ("\n".join(lines) + "\n").encode()
            else:
                data = json.dumps(self._chat_body(req, text, done=True, reason=reason)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
            for i in range(len(data)):
                piece = data[i:i + 1]
                if req.stream:
                    self._write_chunk(piece)
                else:
                    self.wfile.write(piece)
                self.wfile.flush()
                if self.server_state.sleep(per_byte):
                    return
            if req.stream:
                self._write_chunk(b"")
                self.wfile.flush()
        except OSError:   # the client gave up (its deadline): what a real server sees too
            self.close_connection = True

    def _generate(self, req: Request) -> None:
        self._chat(req)

    def _embed(self, req: Request) -> None:
        inputs = (req.body or {}).get("input", "")
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        self._json(200, {"model": req.model, "embeddings": [embedding(str(t)) for t in inputs],
                         "prompt_eval_count": sum(_words(str(t)) for t in inputs)})

    def _tags(self, req: Request) -> None:
        models = [{"name": m, "model": m, "modified_at": "2025-01-01T00:00:00Z", "size": 4_920_000_000,
                   "digest": hashlib.sha256(m.encode()).hexdigest(),
                   "details": {"format": "gguf", "family": m.split(":")[0].rstrip("0123456789."),
                               "parameter_size": "8.0B", "quantization_level": "Q4_K_M"}}
                  for m in self.server_state.models]
        self._json(200, {"models": models})

    def _show(self, req: Request) -> None:
        self._json(200, {"modelfile": "", "parameters": "", "template": "{{ .Prompt }}",
                         "details": {"format": "gguf", "family": "llama", "parameter_size": "8.0B",
                                     "quantization_level": "Q4_K_M"},
                         "model_info": {"llama.context_length": 8192}, "capabilities": ["completion"]})

    def _version(self, req: Request) -> None:
        self._json(200, {"version": "0.0.0-sym-test"})

    # -- bodies ---------------------------------------------------------------------------

    def _chat_body(self, req: Request, text: str, *, done: bool, reason: str = "stop") -> dict:
        body: dict = {"model": self.server_state.answer_model or req.model, "created_at": "2025-01-01T00:00:00Z",
                      "done": done}
        if req.path == "/api/generate":
            body["response"] = text
        else:
            body["message"] = {"role": "assistant", "content": text}
        if done:
            body.update(done_reason=reason, total_duration=1_000_000, prompt_eval_count=_words(req.text),
                        eval_count=_words(text))
        return body

    def _chunk(self, req: Request, piece: str) -> dict:
        return self._chat_body(req, piece, done=False)

    def _stream(self, req: Request, text: str, rule: Rule | None, reason: str = "stop") -> None:
        pieces = rule.chunks if rule is not None and rule.chunks and reason != "length" else _chunks(text)
        delay = rule.chunk_delay if rule is not None else 0.0
        self._start_stream()
        try:
            if rule is not None and rule.tool_calls:   # as Ollama does: the calls in one chunk of their own
                chunk = self._chunk(req, "")
                chunk["message"]["tool_calls"] = _ollama_calls(rule.tool_calls)
                self._write_chunk(json.dumps(chunk).encode() + b"\n")
            for piece in pieces:
                self._write_chunk(json.dumps(self._chunk(req, piece)).encode() + b"\n")
                self.wfile.flush()
                if delay and self.server_state.sleep(delay):
                    return
            final = self._chat_body(req, "", done=True, reason=reason)
            final["eval_count"] = _words(text)
            self._write_chunk(json.dumps(final).encode() + b"\n")
            self._write_chunk(b"")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):   # the client stopped reading (cancelled)
            self.close_connection = True

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

    def _json(self, status: int, body: dict) -> None:
        self._send(status, json.dumps(body).encode(), "application/json")

    def _send(self, status: int, data: bytes, content_type: str, *, length: int | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data) if length is None else length))
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
            if length is not None and length != len(data):
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


def _ollama_calls(calls: list[dict]) -> list[dict]:
    """Scripted tool calls in Ollama's wire form (no ids: Ollama gives none)."""
    return [{"function": {"name": c["name"], "arguments": c.get("arguments") or {}}} for c in calls]


def unused_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
