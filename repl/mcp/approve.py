"""Approvals by elicitation (`sym mcp --approve elicit`): before a call that changes memory runs,
the client's user sees the change in sym's words (and what it would clash with in memory) and
accepts or declines it.

On a handshake-era connection (2025 specs) the server sends `elicitation/create` and waits; on
2026-07-28 it answers the call with an `InputRequiredResult` carrying the same request, and the
client retries with the user's answer and the state it was given (bound to that command line, so
an answer cannot be carried over to another change). A client without elicitation gets no
question: the host's own confirmation stands, as with `--approve host`.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

KEY = "approve"
SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "note": {"type": "string", "title": "Note", "description": "anything to remember about this change (optional)"}}}
_SECRET = os.urandom(16)

WHAT = {
    "tell": "read this English and store the facts and rules it states",
    "extract": "read this text and store the facts it finds",
    "fact": "store these facts",
    "rule": "store these rules",
    "forget": "forget these items and what was derived from them",
    "consult": "store the clauses of this file",
    "load": "load this document's passages (for search and /ask --docs)",
}


def message(tool: str, line: str, clash: str | None = None) -> str:
    """The change a call makes, in sym's words: what it does, the command it runs and the clash it
    would bring into memory (mcp.foresight), if any."""
    shown = line if len(line) <= 2000 else line[:2000] + "…"
    warned = f"\n\nWarning: {clash}" if clash else ""
    return f"sym will {WHAT.get(tool, 'change its memory')}:\n\n{shown}{warned}\n\nAccept to make the change; " \
           "decline to leave memory as it is."


def wanted(session: Any) -> bool:
    """Whether the client can be asked (it declared elicitation)."""
    caps = session.client_capabilities
    return caps is not None and caps.elicitation is not None


def _state(line: str) -> str:
    return hmac.new(_SECRET, line.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def modern(ctx: Any) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def request(tool: str, line: str, clash: str | None = None) -> types.InputRequiredResult:
    """The 2026-07-28 way to ask: a result that asks for input, with the state to send back."""
    ask = types.ElicitRequest(params=types.ElicitRequestFormParams(message=message(tool, line, clash),
                                                                    requested_schema=SCHEMA))
    return types.InputRequiredResult(input_requests={KEY: ask}, request_state=_state(line))


def answered(params: types.CallToolRequestParams, line: str) -> types.ElicitResult | None:
    """The user's answer a retried 2026-07-28 call carries for this command line, or None when it
    carries none (or one given for another change)."""
    responses = params.input_responses or {}
    answer = responses.get(KEY)
    if not isinstance(answer, types.ElicitResult) or not params.request_state:
        return None
    if not hmac.compare_digest(params.request_state, _state(line)):
        return None
    return answer


async def ask(ctx: Any, tool: str, line: str, clash: str | None = None) -> types.ElicitResult:
    """The handshake-era way: an `elicitation/create` request tied to the call, and the answer."""
    return await ctx.session.elicit_form(message(tool, line, clash), SCHEMA, related_request_id=ctx.request_id)


def declined(answer: types.ElicitResult) -> str | None:
    """Why a change is not made (None: accepted)."""
    if answer.action == "accept":
        return None
    return "declined: memory is unchanged" if answer.action == "decline" else "cancelled: memory is unchanged"
