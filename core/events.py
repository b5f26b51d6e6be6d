"""Typed events every reasoner and the memory emit; the only way results reach a front-end.

Events are small frozen dataclasses. Front-ends (batch narration, TUI panes, the session
log) subscribe to the same stream; nothing here knows how an event is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sym.core.memory.library import DocumentInfo


class Event(Protocol):
    """Marker protocol: any frozen dataclass below."""


@dataclass(frozen=True)
class ItemAdded:
    item_id: str
    kind: str          # fact | rule | constraint
    text: str
    source: str
    workspace: str = ""
    nl: str = ""       # the English it was told in, if any (a session log keeps it for /resume)


_new = object.__new__


def item_added(item_id: str, kind: str, text: str, source: str, workspace: str = "", nl: str = "") -> ItemAdded:
    """`ItemAdded(...)` without the frozen dataclass's `__init__` (a /consult emits 100k): the same event."""
    event = _new(ItemAdded)
    event.__dict__.update(item_id=item_id, kind=kind, text=text, source=source, workspace=workspace, nl=nl)
    return event


def item_shown(item_id: str, kind: str, text: str, source: str, nl: str = "") -> ItemShown:
    """`ItemShown(...)` without the frozen dataclass's `__init__` (a workspace opens with 100k): the same copy."""
    shown = _new(ItemShown)
    shown.__dict__.update(item_id=item_id, kind=kind, text=text, source=source, nl=nl)
    return shown


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
class EmbeddingProgress:
    """The background writer of a workspace's vector store: `pending` of `total` records still to
    embed (0 when caught up); `error` when the vector store or the embedder failed."""

    workspace: str
    pending: int
    total: int
    error: str = ""


@dataclass(frozen=True)
class Warning:
    message: str


@dataclass(frozen=True)
class Approval:
    """A memory change a model proposed in a chat turn, and whether it was allowed (by the user,
    by `agent.approve`, or refused); the session log records it, a replay answers from it."""

    run: str
    line: str
    allowed: bool
    by: str = "user"              # user, setting, nobody


@dataclass(frozen=True)
class SettingChanged:
    key: str
    value: object


@dataclass(frozen=True)
class DocumentsChanged:
    """Documents of a workspace were loaded, reloaded or dropped; `documents` is what it holds now
    (core.memory.library.DocumentInfo, oldest first)."""

    workspace: str
    documents: tuple[DocumentInfo, ...] = ()


@dataclass(frozen=True)
class SchemaChanged:
    """Predicates of a workspace's schema changed: `predicates` holds each changed one as
    (name/arity, uses, template); `removed` the ones gone."""

    workspace: str
    predicates: tuple[tuple[str, int, str], ...] = ()
    removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class ItemShown:
    """A memory item as a front-end shows it: a copy taken on the shell's thread."""

    item_id: str
    kind: str          # fact | rule | constraint
    text: str
    source: str
    nl: str = ""


@dataclass(frozen=True)
class WorkspaceOpened:
    """The shell works in another workspace now (at start, /workspace, /resume, a server's
    /reindex), as it was when it opened: `counts` its items by kind, `items` each one, `predicates`
    its schema as (name/arity, uses, template), `documents` as in DocumentsChanged. A snapshot: later
    ItemAdded / ItemRemoved / SchemaChanged / DocumentsChanged events say what changed."""

    workspace: str
    counts: dict[str, int] = field(default_factory=dict)
    documents: tuple[DocumentInfo, ...] = ()
    items: tuple[ItemShown, ...] = ()
    predicates: tuple[tuple[str, int, str], ...] = ()


@dataclass(frozen=True)
class LLMCall:
    """One model call finished (or failed): what the call log holds, in brief."""

    call_id: int | None
    model: str
    purpose: str                  # chat, tell, ask.goal, ask.rule, prove, explore.or, …
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False
    error: str | None = None


@dataclass(frozen=True)
class LLMExchange(LLMCall):
    """One model call, complete: the call log's request `key`, the `request` as sent (messages,
    format, options), the `reply` (text and token counts) or the `failure` (reason, message,
    hint). The model client emits one per call; the session log records it."""

    key: str = ""
    request: dict[str, Any] = field(default_factory=dict)
    reply: dict[str, Any] | None = None
    failure: dict[str, Any] | None = None


@dataclass(frozen=True)
class LLMToken:
    """A chunk of streamed model text (the transcript shows it as it arrives)."""

    text: str
    purpose: str = "chat"


@dataclass(frozen=True)
class LLMProgress:
    """A structured (JSON) call under way: `tokens` generated so far, `seconds` since it was sent;
    `done` on the last one. Emitted a few times a second at most, never for cached calls."""

    purpose: str
    tokens: int
    seconds: float
    model: str = ""
    done: bool = False


@dataclass(frozen=True)
class TraceNode:
    """One node of a reasoning trace: a step of /ask, a node of /explore, an attempt of /prove.
    `node` ids are unique within `run`; `parent` is None for a run's root."""

    run: str                      # run id, e.g. "ask-3"
    node: str
    parent: str | None
    kind: str                     # ask.goal, ask.step, ask.fact, explore.or, explore.and, prove.attempt, …
    label: str
    detail: str = ""
    status: str = ""              # ok, failed, rejected, proved, refuted, unknown, …


@dataclass(frozen=True)
class CoreEntry:
    """One entry of an unsat core: `name` is what the solver tracked (a memory item's id, or a
    program's `knowledge_base[0]` / `rules[1] name`), `text` what that entry says."""

    name: str
    text: str


@dataclass(frozen=True)
class ModelShown:
    """Something for the Models pane: a Z3 model / counter-model / unsat core, a Horn minimal
    model, or the last program. `text` is ready to show (a core: one entry's text a line); `data`
    is the structured form (a core: a tuple of CoreEntry)."""

    kind: str                     # z3.model, z3.counter-model, z3.core, horn.model, program
    title: str
    text: str
    data: object = None


@dataclass(frozen=True)
class JobStarted:
    name: str                     # the command, e.g. "/ask"
    run: str = ""


@dataclass(frozen=True)
class JobFinished:
    name: str
    run: str = ""
    ok: bool = True


@dataclass(frozen=True)
class PolicyApplied:
    run: str
    rule: str
    target: str
    changes: dict[str, Any]
    overridden: dict[str, Any] = field(default_factory=dict)    # what a later rule replaced


@dataclass(frozen=True)
class PolicyConflict(Warning):
    """Two rules set one attribute of a run to different values; the winner's holds."""

    run: str = ""
    attribute: str = ""
    winner: str = ""
    loser: str = ""


class Outcome(Protocol):
    """A command's result as the front-ends and the session log see it."""

    @property
    def ok(self) -> bool: ...

    @property
    def kind(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...

    def log_dict(self) -> dict[str, Any]:
        """What the session log keeps of it: `to_dict()`, or a bounded form of a very long result."""
        ...


@dataclass(frozen=True)
class InputReceived:
    """One input reached the shell: what was typed (or read from SCRIPT:LINE, `source`)."""

    text: str
    source: str = "typed"


@dataclass(frozen=True)
class ResultReady:
    """The shell's answer to the last input: the command it ran and its result."""

    command: str
    result: Outcome


Emit = Callable[[object], None]


def ignore(_event: object) -> None:
    """An Emit that drops everything (library use without a front-end)."""
