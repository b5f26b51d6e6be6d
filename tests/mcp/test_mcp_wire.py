"""`sym mcp` answers every line a client writes: raw JSON-RPC lines to a real `sym mcp` subprocess.

A line that is not JSON gets -32700, JSON that is not one JSON-RPC 2.0 message (a batch, `params` as a
string, `"jsonrpc": "1.0"`, nested 50,000 deep) gets -32600 with its id, a lone surrogate escape in a
tool argument is made valid and the call answered; each refusal is one line on stderr. A `ping` (or,
after tool calls, one more call) sent after the lines under test is the sentinel: its reply comes last.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading

import pytest

from tests.ollama_server import unused_url

GUARD = 120        # seconds: only a server that never answers waits this long (the test then fails)


class Wire:
    """A `sym mcp` child spoken to line by line, after the initialize handshake."""

    def __init__(self, sym_exe: list[str], home, cwd):
        env = {"SYM_HOME": str(home), "SYM_CONFIG": str(home / "config.toml"), "OLLAMA_HOST": unused_url(),
               "PATH": os.environ.get("PATH", "")}
        self.errlog = (home / "stderr.txt").open("w+")
        self.proc = subprocess.Popen([*sym_exe, "mcp", "--memory", "wire"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errlog, env=env, cwd=cwd)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "raw", "version": "1"}}})
        assert "result" in self.until("init")[-1]
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.pings = 0

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.decode("utf-8"))
        self.lines.put(None)

    def send(self, message: object) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        self.proc.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.proc.stdin.flush()

    def until(self, ident: object) -> list:
        """Every reply up to and including the one to request `ident`."""
        got = []
        while True:
            line = self.lines.get(timeout=GUARD)
            assert line is not None, f"the server closed stdout; replies so far: {got}"
            got.append(json.loads(line))
            if isinstance(got[-1], dict) and got[-1].get("id") == ident:
                return got

    def answers(self, *lines: str, tools: bool = False) -> list:
        """The replies to `lines`, which the server must answer before a ping sent after them (after
        tool calls, a call: calls run one at a time, in order, and a ping does not wait for them)."""
        self.pings += 1
        sentinel = f"sentinel-{self.pings}"
        for line in lines:
            self.send(line)
        if tools:
            self.send(self.call(sentinel, "math", {"operation": "simplify", "expr": "x + x"}))
        else:
            self.send({"jsonrpc": "2.0", "id": sentinel, "method": "ping"})
        got = self.until(sentinel)
        assert "result" in got[-1], got[-1]
        return got[:-1]

    def call(self, ident: object, tool: str, arguments: dict) -> str:
        return json.dumps({"jsonrpc": "2.0", "id": ident, "method": "tools/call",
                           "params": {"name": tool, "arguments": arguments}})

    def stderr(self) -> str:
        self.errlog.flush()
        self.errlog.seek(0)
        return self.errlog.read()

    def close(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(timeout=GUARD)
        self.errlog.close()
        return code


@pytest.fixture(scope="module")
def wire(sym_exe, tmp_path_factory):
    home = tmp_path_factory.mktemp("wire")
    (home / "config.toml").write_text("")
    client = Wire(sym_exe, home, home)
    yield client
    stderr = client.stderr()
    assert client.close() == 0
    assert "Traceback" not in stderr, stderr


def error(reply: dict, code: int, ident: object) -> str:
    assert reply.get("id") == ident and reply["error"]["code"] == code, reply
    message = reply["error"]["message"]
    assert "\n" not in message and "Traceback" not in message
    return message


def test_a_line_that_is_not_json_gets_a_parse_error(wire):
    (reply,) = wire.answers("this is not json")
    assert "not JSON" in error(reply, -32700, None)
    (reply,) = wire.answers('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"')     # cut short
    error(reply, -32700, None)
    assert "answered a message it could not take: parse error" in wire.stderr()


def test_json_that_is_not_one_json_rpc_message_gets_invalid_request_with_its_id(wire):
    replies = wire.answers('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": "query p(X)"}',
                           '{"jsonrpc": "1.0", "id": 3, "method": "tools/list"}',
                           '{"jsonrpc": "2.0", "id": true, "method": "tools/list"}',
                           '{"jsonrpc": "2.0", "id": 5, "method": 7}',
                           '42')
    assert len(replies) == 5
    assert '"params" must be an object' in error(replies[0], -32600, 2)
    assert '"jsonrpc" must be "2.0"' in error(replies[1], -32600, 3)
    assert '"id"' in error(replies[2], -32600, None)
    error(replies[3], -32600, 5)
    error(replies[4], -32600, None)


def test_a_batch_gets_an_error_for_each_of_its_messages(wire):
    (reply,) = wire.answers('[{"jsonrpc": "2.0", "id": 6, "method": "tools/list"}, '
                            '{"jsonrpc": "2.0", "id": 7, "method": "ping"}]')
    assert [r["id"] for r in reply] == [6, 7] and {r["error"]["code"] for r in reply} == {-32600}
    assert "batch" in reply[0]["error"]["message"]
    (empty,) = wire.answers("[]")
    error(empty, -32600, None)


def test_params_nested_fifty_thousand_deep_get_invalid_request_with_the_id(wire):
    deep = '{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": ' + "[" * 50_000 + "]" * 50_000 + "}"
    objects = '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "query", "arguments": ' \
              + '{"a": ' * 100 + "1" + "}" * 100 + "}}"
    first, second = wire.answers(deep, objects)
    assert "levels deep" in error(first, -32600, 8)
    error(second, -32600, 9)


TOOLS = {"query": {"goal": "p(\ud800)"}, "why": {"fact": "p(\ud800)"}, "fact": {"fact": "word('a\ud800b')."},
         "rule": {"rule": "q('\udfff') :- word(X)."}, "tell": {"text": "Bob is big\ud800."},
         "ask": {"question": "Is Bob big\ud800?"}, "math": {"operation": "simplify", "expr": "x\ud800"},
         "search": {"text": "\ud800"}, "listing": {"pred": "word\ud800"},
         "forget": {"items": "nothing\udc00(here)"}, "prove": {"program": "(assert \ud800)"}}


def test_a_lone_surrogate_escape_in_any_tool_argument_is_made_valid_and_answered(wire):
    lines = [wire.call(10 + i, tool, args) for i, (tool, args) in enumerate(TOOLS.items())]
    assert all("\\ud" in line for line in lines)             # escapes on the wire, as a client writes them
    replies = {r["id"]: r for r in wire.answers(*lines, tools=True)}
    assert sorted(replies) == list(range(10, 10 + len(TOOLS)))
    results = {tool: replies[10 + i]["result"] for i, tool in enumerate(TOOLS)}
    added = results["fact"]["structuredContent"]["added"]
    assert [a["text"] for a in added] == ["word('a\ufffdb')."]
    for tool, result in results.items():
        if result["isError"]:
            assert "\n" not in result["structuredContent"]["error"] and "internal error" not in \
                result["structuredContent"]["error"], (tool, result)
    assert wire.stderr().count("invalid character (a lone surrogate or NUL), replaced with U+FFFD") >= len(TOOLS)
    (listed,) = wire.answers(wire.call("last", "listing", {}), tools=True)
    assert "word('a\ufffdb')." in listed["result"]["content"][0]["text"]
