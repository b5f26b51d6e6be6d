"""An answer's bindings, kept as the engine's rows: a binding is made a dict only when someone
reads it, so a query with half a million answers costs what its rows cost, not a dict each."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload


class Bindings(Sequence[dict[str, object]]):
    """The rows of an answer read as `{variable: value}` dicts, in the engine's order."""

    __slots__ = ("names", "rows")

    def __init__(self, names: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
        self.names = tuple(names)
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, index: int) -> dict[str, object]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, object]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, object] | list[dict[str, object]]:
        if isinstance(index, slice):
            return [dict(zip(self.names, row)) for row in self.rows[index]]
        return dict(zip(self.names, self.rows[index]))

    def __iter__(self) -> Iterator[dict[str, object]]:
        names = self.names
        return (dict(zip(names, row)) for row in self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Bindings):
            return self.names == other.names and list(self.rows) == list(other.rows)
        return isinstance(other, (list, tuple)) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]   # mutable-looking, like the list it stands for

    def __repr__(self) -> str:
        return f"Bindings({len(self)} of {', '.join(self.names)})"
