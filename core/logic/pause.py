"""`gc_paused()`: run a bulk build with the cyclic garbage collector off; `Budget`: how far
an inference may go before it stops (cancel event, deadline, fact limit).

Parsing and inference allocate millions of small acyclic tuples; letting the collector
rescan them mid-build doubled the time of large programs. Afterwards the survivors are
moved to the permanent generation (`gc.freeze`), so the first collection does not rescan
them either; being acyclic, they are still freed by reference counting.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from sym.core.errors import CapReached, TimedOut
from sym.core.stop import check

if TYPE_CHECKING:
    from threading import Event


@contextmanager
def gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


IDLE = 1.0    # seconds: a longer pause between two checks is the run waiting (on a model, say), not the engine


class Deadline:
    """How long the current query, inference or proof tree may compute (`seconds`, from
    query_timeout; None: no limit) and how long it has. One per engine, shared by its goal models
    and read by every Budget they make, so an answer drawn later from a model computed earlier
    sees the deadline of the question asking now. It counts the engine's own time: the engine
    checks every few ms while it computes, so a pause between two checks longer than IDLE is a
    reasoner waiting (on a model, between two engine calls) and does not count: a slow model never
    runs a question out of time."""

    __slots__ = ("seconds", "spent", "last")

    def __init__(self) -> None:
        self.seconds: float | None = None
        self.spent = 0.0
        self.last: float | None = None

    def arm(self, seconds: float | None) -> None:
        """Start afresh: `seconds` of computing from now on (None or 0: no deadline)."""
        self.seconds, self.spent, self.last = seconds or None, 0.0, None

    def passed(self) -> bool:
        if self.seconds is None:
            return False
        now = time.monotonic()
        if self.last is not None and now - self.last <= IDLE:
            self.spent += now - self.last
        self.last = now
        return self.spent > self.seconds


class Budget:
    """What one inference may spend: a cancel event (Esc / Ctrl+C), a deadline (`query_timeout`)
    and a cap on derived facts and on the rows of one join (`max_facts`). `check` is called between
    rounds and every few thousand rows inside joins; it raises a Stopped: Cancelled, TimedOut or CapReached
    naming the setting, the relation being derived (`relation`, shown through `label`) and what
    fits the job: a narrower question for a query, fewer steps for /infer."""

    __slots__ = ("cancel", "max_facts", "deadline", "offset", "relation", "query", "label")

    def __init__(self, cancel: Event | None = None, max_facts: int | None = None, *, query: bool = False,
                 label: Callable[[str], str] | None = None, deadline: Deadline | None = None) -> None:
        self.cancel, self.max_facts, self.deadline = cancel, max_facts, deadline
        self.offset = 0             # facts derived before the current rule fired
        self.relation: str | None = None   # the relation the current rule derives
        self.query = query          # stopping a query, not an /infer
        self.label = label          # a rewritten program's relation -> the relation it is about

    def check(self, rows: int = 0) -> None:
        check(self.cancel)
        if self.deadline is not None and self.deadline.passed():
            raise self.late()
        if self.max_facts is not None and rows > self.max_facts:
            raise self.exceeded()

    def _growing(self) -> str:
        relation = self.relation
        if relation is not None and self.label is not None:
            relation = self.label(relation)
        return f" deriving {relation}" if relation else ""

    def late(self) -> TimedOut:
        """The stop at the deadline: one line naming query_timeout (exit code 4)."""
        assert self.deadline is not None
        seconds = self.deadline.seconds or 0
        what = "query" if self.query else "inference"
        more = "/set query_timeout N allows N seconds (0: no deadline)"
        hint = f"{more}; or ask a narrower query" if self.query else f"{more}; or /infer N for fewer steps"
        return TimedOut(f"{what} stopped: past {seconds:g} s (query_timeout){self._growing()}", hint=hint)

    def exceeded(self) -> CapReached:
        relation = self.relation
        if relation is not None and self.label is not None:
            relation = self.label(relation)
        growing = self._growing()
        what = "query" if self.query else "inference"
        if self.query:
            example = ""
            if relation:
                name, arity = relation.rsplit("/", 1)
                args = ", ".join(["c"] + [chr(ord("X") + i % 3) for i in range(int(arity) - 1)]) if int(arity) else ""
                example = f" (e.g. ?- {name}({args}).)" if args else ""
            hint = f"ask a narrower query: bind an argument{example}; or /set max_facts N allows more"
        else:
            hint = "/set max_facts N allows more; or bound the rules, or /infer N for fewer steps"
        return CapReached(f"{what} stopped: more than {self.max_facts:,} facts (max_facts){growing}", hint=hint)


UNBOUNDED = Budget()
