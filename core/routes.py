"""`Routes`: one table per subscriber from an event's type to what it does with that event.

Front-ends, panes and the session log subscribe to the same typed stream (core.events); each keeps
one table instead of an `isinstance` chain, as Textual apps route typed messages with `@on(Type)`.
An event is looked up by its type, then by its bases (once per type, remembered), so a table
names each type once and reads as the list of what the subscriber shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Handler = Callable[[Any], object]


class Routes:
    """`Routes({ItemAdded: self.added, (TraceNode, LLMCall): self.to_trace})`; calling it with an
    event runs the handler for its type and returns what the handler returned (None for an event
    the table does not name)."""

    __slots__ = ("_table", "_found")

    def __init__(self, table: Mapping[type | tuple[type, ...], Handler]) -> None:
        self._table: dict[type, Handler] = {}
        for key, handler in table.items():
            for kind in key if isinstance(key, tuple) else (key,):
                self._table[kind] = handler
        self._found: dict[type, Handler | None] = {}

    def handler(self, kind: type) -> Handler | None:
        """The handler for events of `kind` (its own entry, else its nearest base's), or None."""
        try:
            return self._found[kind]
        except KeyError:
            found = next((self._table[base] for base in kind.__mro__ if base in self._table), None)
            self._found[kind] = found
            return found

    def __contains__(self, kind: type) -> bool:
        return self.handler(kind) is not None

    def __call__(self, event: object) -> object:
        handler = self.handler(type(event))
        return None if handler is None else handler(event)
