"""The stdio transport of `sym mcp`: one JSON-RPC message a line each way, and a reply to every request.

The SDK's own stdio reader drops a line it cannot read (not JSON, a lone surrogate escape, nested too
deep, no JSON-RPC 2.0 message, a batch) and the client waits for ever. This one answers such a line
itself: -32700 for a line that is not JSON, -32600 for JSON that is not one JSON-RPC 2.0 message, each
with the request's id where it can be read, and one line on stderr. Strings are made valid
(`core.text.valid_json`) before the SDK sees them. As the SDK's transport does, it keeps fd 0 and 1 for
the protocol alone while it serves: stray output of a library or a child goes to stderr.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from sym.core.text import replaced_note, valid_json

MAX_DEPTH = 64            # arrays and objects inside one another; no MCP message needs more


@dataclass(frozen=True)
class Refusal:
    """A line that is no message the server can take: the reply it gets and the note on stderr."""

    reply: str
    note: str


def _error(id_: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


def _refuse(id_: Any, code: int, message: str) -> Refusal:
    return Refusal(json.dumps(_error(id_, code, message), ensure_ascii=False), message)


def _request_id(value: object) -> int | str | None:
    """The id of a request that an error reply can carry: an integer or a string, else none."""
    if not isinstance(value, dict) or "method" not in value:
        return None
    found = value.get("id")
    return found if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)) else None


def _depth(value: object) -> int:
    """How deep arrays and objects nest in a decoded JSON value (no recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        inner = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if inner is not None:
            deepest = max(deepest, d)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((x, d + 1) for x in inner if isinstance(x, (dict, list)))
    return deepest


_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:,]', re.S)


def _top_level_id(text: str) -> int | str | None:
    """The id of an object too deep to decode, read from its top level alone (None when it has none
    or it is not a scalar), for the error reply to carry."""
    depth, last, start = 0, "", None
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if start is not None and (tok in "{[" or (depth == 1 and tok in ",}")):
            if tok in "{[":
                return None              # an array or object for an id
            try:
                found = json.loads(text[start:m.start()])
            except ValueError:
                return None
            return _request_id({"method": "", "id": found})
        if tok in "{[":
            depth += 1
        elif tok in "}]":
            depth -= 1
        elif depth == 1 and tok == ":" and last.startswith('"') and json.loads(last) == "id":
            start = m.end()
        last = tok
    return None


def _problem(value: dict[str, Any]) -> str:
    """Why a JSON object is not a JSON-RPC 2.0 message, in a few words."""
    if value.get("jsonrpc") != "2.0":
        return 'invalid request: "jsonrpc" must be "2.0"'
    if "params" in value and not isinstance(value["params"], dict):
        return 'invalid request: "params" must be an object'
    if "method" in value and not isinstance(value["method"], str):
        return 'invalid request: "method" must be a string'
    return "invalid request: not a JSON-RPC request, notification or response"


def decode(line: str) -> SessionMessage | Refusal | None:
    """One line read from the client: the message for the SDK, a refusal to answer, or None (blank)."""
    text = line.strip()
    if not text:
        return None
    try:
        value = json.loads(text)
    except RecursionError:
        return _refuse(_top_level_id(text), types.INVALID_REQUEST,
                       f"invalid request: it nests more than {MAX_DEPTH} levels deep")
    except ValueError as err:
        where = f" (line 1, column {err.colno})" if isinstance(err, json.JSONDecodeError) else ""
        return _refuse(None, types.PARSE_ERROR, f"parse error: the line is not JSON{where}")
    if isinstance(value, list):
        message = "invalid request: a batch (JSON array) is not taken; send one message a line"
        if not value:
            return _refuse(None, types.INVALID_REQUEST, message)
        replies = [_error(_request_id(v), types.INVALID_REQUEST, message) for v in value]
        return Refusal(json.dumps(replies, ensure_ascii=False), message)
    if not isinstance(value, dict):
        return _refuse(None, types.INVALID_REQUEST, "invalid request: a message is a JSON object")
    if _depth(value) > MAX_DEPTH:
        return _refuse(_request_id(value), types.INVALID_REQUEST,
                       f"invalid request: it nests more than {MAX_DEPTH} levels deep")
    value, replaced = valid_json(value)
    if "method" in value and "id" in value and _request_id(value) is None:     # else read as a notification
        return _refuse(None, types.INVALID_REQUEST, 'invalid request: "id" must be an integer or a string')
    try:
        parsed = types.jsonrpc_message_adapter.validate_python(value, by_name=False)
    except ValidationError:
        return _refuse(_request_id(value), types.INVALID_REQUEST, _problem(value))
    if replaced:
        note(replaced_note(replaced, "a message"))
    return SessionMessage(parsed)


def encode(message: SessionMessage) -> str:
    """A message for the wire, one line (a string that is not valid UTF-8 made valid)."""
    try:
        return message.message.model_dump_json(by_alias=True, exclude_unset=True)
    except ValueError:                       # a lone surrogate in a result
        data = valid_json(message.message.model_dump(by_alias=True, exclude_unset=True, mode="python"))[0]
        return json.dumps(data, ensure_ascii=False, default=str)


def note(message: str) -> None:
    sys.stderr.write(f"sym: {message}\n")
    sys.stderr.flush()


@contextmanager
def _claimed() -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """The wire on private duplicates of fd 0 and 1, while fd 0 reads the null device and fd 1 writes
    to stderr; both put back after. Without descriptors to divert (a test's streams) sys's own."""
    try:
        fds = sys.stdin.fileno(), sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        yield sys.stdin.buffer, sys.stdout.buffer
        return
    if fds != (0, 1):
        yield sys.stdin.buffer, sys.stdout.buffer
        return
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:        # never closed: a worker thread may still block reading after the transport ends
        yield os.fdopen(wire_in, "rb", closefd=False), os.fdopen(wire_out, "wb", closefd=False)
    finally:
        sys.stdout.flush()
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)


@asynccontextmanager
async def stdio() -> AsyncIterator[tuple[Any, Any]]:
    """(read stream, write stream) for `Server.run`, served over this process's stdin and stdout."""
    with _claimed() as (raw_in, raw_out):
        wire_in, wire_out = anyio.wrap_file(raw_in), anyio.wrap_file(raw_out)
        lock = anyio.Lock()
        to_server, from_client = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        to_client, from_server = anyio.create_memory_object_stream[SessionMessage](0)

        async def send(line: str) -> None:
            async with lock:
                await wire_out.write(line.encode("utf-8", "replace") + b"\n")
                await wire_out.flush()

        async def reader() -> None:
            async with to_server:
                async for raw in wire_in:
                    found = decode(raw.decode("utf-8", "replace"))
                    if isinstance(found, Refusal):
                        note(f"answered a message it could not take: {found.note}")
                        await send(found.reply)
                    elif found is not None:
                        await to_server.send(found)

        async def writer() -> None:
            async with from_server:
                async for message in from_server:
                    await send(encode(message))

        async with anyio.create_task_group() as tg:
            tg.start_soon(reader)
            tg.start_soon(writer)
            yield from_client, to_client
