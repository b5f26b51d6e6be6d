"""Typed events every reasoner and the memory emit; the only way results reach a front-end.

Events are small frozen dataclasses. Front-ends (batch narration, TUI panes, the session
log) subscribe to the same stream; nothing here knows how an event is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol


class Event(Protocol):
    """Marker protocol: any frozen dataclass below."""


@dataclass(frozen=True)
class ItemAdded:
    item_id: str
    kind: str          # fact | rule | constraint
    text: str
    source: str
    workspace: str = ""


@dataclass(frozen=True)
class ItemRemoved:
    item_id: str
    kind: str
    text: str
    workspace: str = ""


@dataclass(frozen=True)
class InferenceFinished:
    steps: int
    derived: int
    complete: bool
    violations: int


@dataclass(frozen=True)
class Progress:
    """Long work advancing: `done` of `total` units of `task`."""

    task: str
    done: int
    total: int


@dataclass(frozen=True)
class Warning:
    message: str


@dataclass(frozen=True)
class SettingChanged:
    key: str
    value: object


Emit = Callable[[object], None]


def ignore(_event: object) -> None:
    """An Emit that drops everything (library use without a front-end)."""
