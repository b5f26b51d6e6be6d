"""What the backends share when a call fails: the error constructor, one-line server messages,
the failures every backend reads the same way (already an LLMError; out of time; a model without
tool calling) and the check of a tool call's arguments."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sym.core.llm import LLMError


def error(message: str, *, reason: str, hint: str | None = None, exit_code: int = 1,
          retry: bool = False) -> LLMError:
    err = LLMError(message, reason=reason, hint=hint, exit_code=exit_code)
    err.transient = retry
    return err


def one_line(text: object, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def common_failure(err: BaseException, *, model: str, seconds: float) -> LLMError | None:
    """The LLMError for a failure that means the same on every backend, else None."""
    import httpx

    from sym.core.llm.deadline import ReplyTooLarge

    if isinstance(err, LLMError):
        return err
    if isinstance(err, ReplyTooLarge):
        return too_large(err.limit)
    if isinstance(err, (httpx.TimeoutException, TimeoutError)):
        return error(f"{model or 'the server'} did not answer within {seconds:g} s", reason="timeout",
                     hint="/set llm_timeout SECONDS to wait longer", exit_code=4)
    return None


def too_large(limit: int) -> LLMError:
    """A reply longer than llm_max_reply_bytes: reading stopped there (not transient: the same
    request would get the same runaway reply)."""
    return error(f"reply too large: the model's reply passed llm_max_reply_bytes ({limit:,} bytes), so reading "
                 "stopped", reason="too-large", hint="/set llm_max_tokens lower, or /set llm_max_reply_bytes higher")


def no_tools(model: str, host: str, detail: str = "") -> LLMError:
    """A model or server that does not do tool calling: not transient, a retry gets the same answer."""
    return error(f'model "{model}" at {host} does not support tool calling' + (f" ({detail})" if detail else ""),
                 reason="no-tools", hint="pick a model that supports tools (/set model NAME), e.g. llama3.1 or qwen2.5")


def tool_arguments(raw: object, *, name: str, host: str) -> dict[str, Any]:
    """A tool call's arguments as a dict: a dict as it came, a JSON string (the OpenAI wire form)
    parsed; anything else is LLMError(bad-output)."""
    value = dict(raw) if isinstance(raw, Mapping) else raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw) if raw.strip() else {}
        except ValueError:
            value = None
    if not isinstance(value, dict):
        raise error(f"the model at {host} called tool {name!r} with arguments that are not a JSON object: "
                    f"{one_line(raw, 80)}", reason="bad-output", hint="try again, or use a model better at tools")
    return value
