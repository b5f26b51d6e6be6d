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

import json as _json
import socket
import threading
from http.server import ThreadingHTTPServer

from tests.ollama_handler import _Handler
from tests.ollama_script import DEFAULT_MODELS, FAULTS, Fault, Matcher, Request, Rule, _matches, embedding

# the scripting types live in tests/ollama_script.py, the HTTP handler in tests/ollama_handler.py;
# tests import them from here
__all__ = ["DEFAULT_MODELS", "FAULTS", "Fault", "Matcher", "OllamaServer", "Request", "Rule", "embedding", "unused_url"]


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


def unused_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
