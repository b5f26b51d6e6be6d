"""Model clients for a shell's runs: each run gets an `LLM` built for its own settings, and the
clients of one shell share what outlives a run — the backend (rebuilt when the server or model
changes), the call log and the counters. Nothing here is changed by a run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sym.core.llm import Backend, backend_key
from sym.core.llm.backends import make_backend
from sym.core.llm.calllog import CallLog
from sym.core.llm.facade import LLM

COUNTERS = ("calls", "cached", "failed", "prompt_tokens", "completion_tokens")

if TYPE_CHECKING:
    from sym.core.llm.calllog import CallLog
    from sym.core.llm.facade import LLM
    from sym.core.run import Run


class Clients:
    """Builds a run's model client (`clients(run)`). `fixed` answers every call from one backend
    whatever the settings say (`sym replay --offline`); `session` names the session the calls
    belong to in the call log."""

    def __init__(self, *, session: Callable[[], str | None] = lambda: None, fixed: Backend | None = None) -> None:
        self.session = session
        self.fixed = fixed
        self.stats: dict[str, Any] = {}
        self._calllog: CallLog | None = None
        self._backend: Backend | None = None
        self._key: tuple[Any, ...] | None = None

    def __call__(self, run: Run) -> LLM:
        if self._calllog is None:
            self._calllog = CallLog()
        return LLM(self.backend(run), run.settings, run.emit, run.stop, calllog=self._calllog, stats=self.stats,
                   session=self.session())

    def counts(self) -> dict[str, int]:
        """The shell's model calls so far (as LLM.stats() counts them), zeros before the first."""
        return {name: int(self.stats.get(name, 0)) for name in COUNTERS}

    def backend(self, run: Run) -> Backend:
        """The backend `run.settings` name; the last one is kept while the server, the model and the
        cap on a reply's size stay."""
        if self.fixed is not None:
            return self.fixed
        key = (*backend_key(run.settings), getattr(run.settings, "llm_max_reply_bytes", None))
        if self._backend is None or key != self._key:
            self._backend, self._key = make_backend(run.settings), key
        return self._backend
