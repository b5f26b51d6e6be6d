"""`Stop`: what may stop one run's work — its cancel flag (Esc / Ctrl+C), its deadlines (a query,
inference or proof tree: `query_timeout`; one solver check: `proof_timeout`; one algebra step:
`math_timeout`) and its fact cap (`max_facts`) — as one value the run hands down to every layer
that can stop: the engine, the evaluation backends, Z3, the algebra worker, the document search.

A run makes it from its settings (`Run.stop`); `check` is the one place a cancel is seen and
raised. Every stop raises a `Stopped` (core.errors) carrying its reason: cancelled, deadline or
cap. Nothing here knows the engine or a front-end.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sym.core.errors import Cancelled

if TYPE_CHECKING:
    from threading import Event

PROOF_SECONDS = 10.0     # a solver check's limit when a Stop names none (settings.proof_timeout's default)
MATH_SECONDS = 10.0      # an algebra step's (settings.math_timeout's default)


def check(cancel: Event | None) -> None:
    """Raise Cancelled when the user asked to stop the running job (Esc / Ctrl+C); the flag is
    cleared, so the next job starts afresh. The one place the cancel check is written."""
    if cancel is not None and cancel.is_set():
        cancel.clear()
        raise Cancelled()


@dataclass(frozen=True)
class Stop:
    """`cancel`: set by Esc / Ctrl+C; `query_timeout`: seconds one query, inference or proof tree
    may take (None or 0: no deadline); `max_facts`: most facts one may derive (None: no cap);
    `proof_timeout`: seconds one solver check may take; `math_timeout`: seconds one algebra step
    may take."""

    cancel: Event | None = None
    query_timeout: float | None = None
    max_facts: int | None = None
    proof_timeout: float = PROOF_SECONDS
    math_timeout: float = MATH_SECONDS

    @property
    def cancelled(self) -> bool:
        """Whether the user asked to stop (the flag stays set: `check` clears it)."""
        return self.cancel is not None and self.cancel.is_set()

    def check(self) -> None:
        """Raise Cancelled when the user asked to stop (clearing the flag)."""
        check(self.cancel)

    @property
    def proof_ms(self) -> int:
        """The solver's limit per check in milliseconds (at least 1)."""
        return max(1, int(self.proof_timeout * 1000))

    def proving(self, seconds: float) -> Stop:
        """This stop with `seconds` for each solver check."""
        return replace(self, proof_timeout=seconds)


UNBOUNDED = Stop()
