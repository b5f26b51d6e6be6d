"""Errors a user can cause. Each carries a one-line message and, where useful, a hint.

Anything that is not a `UserError` is a bug and may show a traceback only under --debug.
"""

from __future__ import annotations

import errno


class UserError(Exception):
    """A mistake in what the user typed or pointed us at; shown as one line, never a traceback."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message


class ParseError(UserError):
    """Logic text that does not parse; knows where."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None,
                 source: str | None = None, hint: str | None = None) -> None:
        self.line, self.column, self.source, self.problem = line, column, source, message
        if source is not None:
            where = ":".join(str(p) for p in (source, line, column) if p is not None)
        else:  # typed input: a line number only helps when the input spans lines
            parts = [f"line {line}" if line and line > 1 else "", f"column {column}" if column else ""]
            where = ", ".join(p for p in parts if p)
        super().__init__(f"{where}: {message}" if where else message, hint=hint)


class StratificationError(UserError):
    """A program whose negation runs through a recursive cycle."""


class UsageError(UserError):
    """Bad command-line usage or configuration (batch exit code 2)."""

    exit_code = 2


class Stopped(UserError):
    """A run stopped before it finished, for `reason`: "cancelled" (Esc / Ctrl+C), "deadline" (a
    time limit: query_timeout, proof_timeout, math_timeout, llm_timeout) or "cap" (max_facts). The
    one type every layer raises for a stop (core.stop); what the run had not written is dropped."""

    reason = "stopped"


class Cancelled(Stopped):
    """The user stopped the running job (Esc / Ctrl+C); whatever it had not written is dropped."""

    exit_code = 130
    reason = "cancelled"

    def __init__(self, message: str = "cancelled", *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)


class TimedOut(Stopped):
    """A query, solver, algebra or model call ran past its time limit (batch exit code 4)."""

    exit_code = 4
    reason = "deadline"


class CapReached(Stopped):
    """An inference or query would derive more facts than max_facts allows."""

    reason = "cap"


class DiskFull(UserError):
    """The disk (or the store's own size limit) ran out while writing; what the command had not
    finished writing was rolled back (batch exit code 1)."""

    def __init__(self, where: str = "", *, hint: str | None = None) -> None:
        message = f"disk full: {where} could not be written" if where else "disk full"
        super().__init__(message, hint=hint or "free some space (or move the data directory) and run the command "
                                               "again; nothing of it was kept")


_FULL_WORDS = ("database or disk is full", "no space left on device", "disk quota exceeded", "sqlite_full")


def disk_full(err: BaseException) -> bool:
    """Whether `err` says the disk is full: ENOSPC/EDQUOT from the OS, SQLITE_FULL from SQLite
    ("database or disk is full", also what `PRAGMA max_page_count` gives), or a store's wrapper
    of either (chromadb passes the words on)."""
    if isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    code = getattr(err, "sqlite_errorcode", None)
    if code == 13:          # SQLITE_FULL
        return True
    text = str(err).lower()
    return any(words in text for words in _FULL_WORDS)
