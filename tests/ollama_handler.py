"""The HTTP side of the Ollama-protocol test server (tests/ollama_server.py): routes, faults acted
out, and reply bodies, whole or streamed as NDJSON. Each request is answered from the state of the
`OllamaServer` that started it (`server_state`).
"""

from __future__ import annotations

import hashlib
import json
import socket
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING

from tests.ollama_script import Fault, Request, Rule, _capped, _chunks, _words, embedding

if TYPE_CHECKING:
    from tests.ollama_server import OllamaServer


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

    def _body(self) -> dict | None:
        """The request's JSON object, or None (no body, not JSON, not an object)."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    def _handle(self, method: str) -> None:
        state = self.server_state
        req = Request(method, self.path.split("?", 1)[0], self._body())
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

    def _start_stream(self, content_type: str = "application/x-ndjson") -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
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

