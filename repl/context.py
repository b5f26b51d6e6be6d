"""What a command handler is given: memory, settings, the registry, the event stream."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sym.core.events import Emit, ignore
from sym.core.llm.clients import Clients
from sym.core.memory.working import WorkingMemory
from sym.core.run import Run, check
from sym.core.settings import Settings
from sym.repl.registry import Registry

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM
    from sym.repl.steering import Steered


@dataclass
class Context:
    memory: WorkingMemory
    registry: Registry
    settings: Settings = field(default_factory=Settings)
    emit: Emit = ignore
    base_dir: Path | None = None     # where a batch script lives: relative paths are tried there too
    workspaces: object | None = None  # a core.memory.workspace.Workspaces when memory persists
    source: str = "typed"             # where the current input came from: typed, or SCRIPT:LINE
    session: object | None = None     # the sessions.log.SessionLog recording this shell, if any
    cancel: threading.Event = field(default_factory=threading.Event)  # set by Esc / Ctrl+C: stop the job
    chat_history: list = field(default_factory=list)   # the turns of /chat in this shell
    streams: bool = False             # the front-end shows LLMToken events as they arrive
    policy_state: object | None = None  # core.reason.policy: the workspace's loaded rules and log
    patient: bool = False               # batch mode: wait for background work (embedding) instead of answering early
    last_program: object | None = None      # repl.commands.proof.LastProgram: what /program and /export smt2 show
    last_exploration: object | None = None  # core.reason.explore.Exploration: /explore show|add and its exporters
    _runs: itertools.count = field(default_factory=lambda: itertools.count(1))
    clients: Clients = field(init=False)

    def __post_init__(self) -> None:
        self.clients = Clients(session=self._session_name)

    def _session_name(self) -> str | None:
        path = getattr(self.session, "path", None)
        return path.stem if path is not None else None

    def start_run(self, name: str, steered: Steered | None = None) -> Run:
        """The run of one command: a copy of the shell's settings (or the settings and hints the
        policies chose, and their run's id), the shell's events, cancel flag and model clients.
        An unsteered run's id is NAME-N, N drawn when something first shows it."""
        if steered is not None:
            return Run(steered.settings, steered.run_id, emit=self._emit, cancel=self.cancel,
                       hints=dict(steered.hints), source=self.source, client=self.clients)
        return Run(self.settings.model_copy(), name, emit=self._emit, cancel=self.cancel, source=self.source,
                   client=self.clients, numbers=self._number)

    def _emit(self, event: object) -> None:
        self.emit(event)      # late: a front-end may subscribe after the run was made

    def _number(self) -> int:
        return next(self._runs)

    @property
    def llm(self) -> LLM:
        """A model client for the shell's settings as they are now (backend, model, host or base
        URL, timeout, cache), built afresh and never changed afterwards."""
        return Run(self.settings, "llm", emit=self._emit, cancel=self.cancel, client=self.clients).llm

    def new_run(self, prefix: str) -> str:
        """A run id for trace events and policy logs, unique within this shell: "ask-3"."""
        return f"{prefix}-{self._number()}"

    def check_cancel(self) -> None:
        """Raise Cancelled (a UserError) when the user asked to stop the running job."""
        check(self.cancel)

    def progress(self, task: str):
        """A callback (done, total) that emits Progress events for long work."""
        from sym.core.events import Progress

        return lambda done, total: self.emit(Progress(task, done, total))

    def path(self, name: str) -> Path:
        """Resolve a user-given file name (cwd first, then the script's directory)."""
        from sym.core.errors import UserError

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
