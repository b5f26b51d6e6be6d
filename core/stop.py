"""`Stop`: what may stop one run's reasoning — its cancel flag (Esc / Ctrl+C), its query deadline
(`query_timeout`) and its fact cap (`max_facts`) — as one value the run hands down.

A run makes it from its settings (`Run.stop`); the working memory arms its engine with it for each
query, inference and proof tree. Nothing here knows the engine or a front-end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from threading import Event


@dataclass(frozen=True)
class Stop:
    """`cancel`: set by Esc / Ctrl+C; `query_timeout`: seconds one query, inference or proof tree
    may take (None or 0: no deadline); `max_facts`: most facts one may derive (None: no cap)."""

    cancel: Event | None = None
    query_timeout: float | None = None
    max_facts: int | None = None


UNBOUNDED = Stop()
