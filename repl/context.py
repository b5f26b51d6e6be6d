"""What a command handler is given: the shell's lifetime state — memory, settings, the registry,
the event stream, the cancel flag, the model clients, what commands remember between runs.

Everything that belongs to one command (its settings as policies steered them, its hints, its
source, its model client) is its run (core/run.py), made here by `start_run`; nothing on the
context is swapped for the length of a command.
"""

from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.events import Emit, Warning, ignore
from sym.core.llm.clients import Clients
from sym.core.memory.working import WorkingMemory
from sym.core.run import Run
from sym.core.settings import Settings
from sym.repl.recall import Recall
from sym.repl.registry import Registry

if TYPE_CHECKING:
    from collections.abc import Callable

    from sym.core.llm import Message
    from sym.core.llm.facade import LLM
    from sym.core.memory.workspace import Workspaces
    from sym.core.reason.policy.apply import PolicyState
    from sym.repl.steering import Steered
    from sym.sessions.log import SessionLog


class EventStream:
    """The shell's one event stream: the session log (when the shell records) hears every event
    first, then the front-end's subscriber (`front`, which a front-end may replace)."""

    def __init__(self, front: Emit = ignore, log: SessionLog | None = None) -> None:
        self.front = front
        self.log = log

    def __call__(self, event: object) -> None:
        if self.log is not None:
            self.log.hear(event)
            stopped = self.log.notice()     # the disk filled: said once, the session goes on
            if stopped:
                self.front(Warning(stopped))
        self.front(event)


class Context:
    """The shell's state for its whole life; a handler reads it and the run it is given."""

    memory: WorkingMemory
    registry: Registry
    settings: Settings              # the shell's own (/set changes them); a run gets a copy
    stream: EventStream
    base_dir: Path | None           # where a batch script lives: relative paths are tried there too
    workspaces: Workspaces | None   # set when memory persists
    cancel: threading.Event         # set by Esc / Ctrl+C: stop the running job
    clients: Clients                # builds each run's model client; backend, call log, counters
    recall: Recall                  # what commands remember between runs (last program, exploration, chat)
    policy_state: PolicyState | None  # the workspace's loaded policies and run log, once touched
    streams: bool                   # the front-end shows LLMToken events as they arrive
    patient: bool                   # batch mode: wait for background work (embedding) instead of answering early
    confirms: bool                  # someone can answer "to go ahead: … --yes" (not a script or pipe)
    approver: Callable[[str], bool] | None   # asks the user to allow a memory change a model proposed (TUI)

    def __init__(self, memory: WorkingMemory, registry: Registry, settings: Settings | None = None,
                 stream: EventStream | None = None, *, base_dir: Path | None = None,
                 workspaces: Workspaces | None = None) -> None:
        self.memory = memory
        self.registry = registry
        self.settings = settings or Settings()
        self.stream = stream or EventStream()
        self.base_dir = base_dir
        self.workspaces = workspaces
        self.cancel = threading.Event()
        self.clients = Clients(session=self._session_name)
        self.recall = Recall()
        self.policy_state = None
        self.streams = False
        self.patient = False
        self.confirms = True
        self.approver = None
        self._runs = itertools.count(1)

    # -- the event stream and the session log -------------------------------------------

    @property
    def emit(self) -> Emit:
        """Where events go: the session log, then the front-end."""
        return self.stream

    @emit.setter
    def emit(self, front: Emit) -> None:
        """A front-end subscribes (the session log keeps listening)."""
        self.stream.front = front

    @property
    def session(self) -> SessionLog | None:
        """The session log recording this shell, if any."""
        return self.stream.log

    def _session_name(self) -> str | None:
        log = self.stream.log
        return log.path.stem if log is not None else None

    # -- runs ------------------------------------------------------------------------------

    def start_run(self, name: str, steered: Steered | None = None, *, source: str = "typed") -> Run:
        """The run of one command: a copy of the shell's settings (or the settings and hints the
        policies chose, and their run's id), the shell's events, cancel flag and model clients.
        An unsteered run's id is NAME-N, N drawn when something first shows it."""
        if steered is not None:
            return Run(steered.settings, steered.run_id, emit=self.stream, cancel=self.cancel,
                       hints=dict(steered.hints), source=source, client=self.clients)
        return Run(self.settings.model_copy(), name, emit=self.stream, cancel=self.cancel, source=source,
                   client=self.clients, numbers=self._number)

    def _number(self) -> int:
        return next(self._runs)

    def new_run(self, prefix: str) -> str:
        """A run id for trace events and policy logs, unique within this shell: "ask-3"."""
        return f"{prefix}-{self._number()}"

    @property
    def llm(self) -> LLM:
        """A model client for the shell's settings as they are now (backend, model, host or base
        URL, timeout, cache), built afresh and never changed afterwards."""
        return Run(self.settings, "llm", emit=self.stream, cancel=self.cancel, client=self.clients).llm

    @property
    def chat_history(self) -> list[Message]:
        """The turns of /chat so far (`recall.chat`)."""
        return self.recall.chat

    @chat_history.setter
    def chat_history(self, turns: list[Message]) -> None:
        self.recall.chat = turns

    # -- files -----------------------------------------------------------------------------

    def path(self, name: str) -> Path:
        """Resolve a user-given file name (cwd first, then the script's directory)."""
        shown = name if len(name) <= 60 else name[:57] + "…"
        if "\0" in name:
            raise UserError(f"bad file name {shown!r}: it holds a NUL character")
        try:
            p = Path(name).expanduser()
            if p.exists() or p.is_absolute() or self.base_dir is None:
                return p
            alt = self.base_dir / p
            return alt if alt.exists() else p
        except (OSError, RuntimeError) as err:  # a name too long for the OS, ~nosuchuser, …
            raise UserError(f"bad file name {shown!r}: {getattr(err, 'strerror', None) or err}") from None
