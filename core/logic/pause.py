"""`gc_paused()`: run a bulk build with the cyclic garbage collector off; `Budget`: how far
an inference may go before it stops (cancel event, fact limit).

Parsing and inference allocate millions of small acyclic tuples; letting the collector
rescan them mid-build doubled the time of large programs. Afterwards the survivors are
moved to the permanent generation (`gc.freeze`), so the first collection does not rescan
them either; being acyclic, they are still freed by reference counting.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

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


class Budget:
    """What one inference may spend: a cancel event (Esc / Ctrl+C) and a cap on derived facts and
    on the rows of one join (`max_facts`). `check` is called between rounds and every few
    thousand rows inside joins; it raises Cancelled or a UserError naming the setting."""

    __slots__ = ("cancel", "max_facts", "offset")

    def __init__(self, cancel: Event | None = None, max_facts: int | None = None) -> None:
        self.cancel, self.max_facts = cancel, max_facts
        self.offset = 0             # facts derived before the current rule fired

    def check(self, rows: int = 0) -> None:
        if self.cancel is not None and self.cancel.is_set():
            from sym.core.errors import Cancelled

            self.cancel.clear()     # the job has stopped; the next one starts afresh
            raise Cancelled()
        if self.max_facts is not None and rows > self.max_facts:
            from sym.core.errors import UserError

            raise UserError(f"inference stopped: more than {self.max_facts:,} facts (max_facts)",
                            hint="/set max_facts N allows more; or bound the rules, or /infer N for fewer steps")


UNBOUNDED = Budget()
