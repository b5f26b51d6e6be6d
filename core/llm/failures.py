"""What the backends share when a call fails: the error constructor, one-line server messages,
and the failures every backend reads the same way (already an LLMError; out of time)."""

from __future__ import annotations

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

    if isinstance(err, LLMError):
        return err
    if isinstance(err, (httpx.TimeoutException, TimeoutError)):
        return error(f"{model or 'the server'} did not answer within {seconds:g} s", reason="timeout",
                     hint="/set llm_timeout SECONDS to wait longer", exit_code=4)
    return None
