"""What a command handler is given: memory, settings, the registry, the event stream."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from pathlib import Path

from sym.core.events import Emit, ignore
from sym.core.memory.working import WorkingMemory
from sym.core.settings import Settings
from sym.repl.registry import Registry


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
    llm_override: object | None = None  # a core.llm.LLM to use instead of one built from settings
    policy_state: object | None = None  # core.reason.policy: the workspace's loaded rules and log
    run_id: str | None = None           # the run a policy application opened for the current command
    run_attributes: dict = field(default_factory=dict)   # that run's attributes and policy hints
    patient: bool = False               # batch mode: wait for background work (embedding) instead of answering early
    last_program: object | None = None      # repl.commands.proof.LastProgram: what /program and /export smt2 show
    last_exploration: object | None = None  # core.reason.explore.Exploration: /explore show|add and its exporters
    _runs: itertools.count = field(default_factory=lambda: itertools.count(1))
    _llm: object | None = None

    @property
    def llm(self):
        """The `core.llm.facade.LLM` for this shell, built on first use from the settings
        (backend, model, host or base URL, timeout, cache) and recording into the session log."""
        llm = self.llm_override
        if llm is None:
            from sym.core.llm import backend_key
            from sym.core.llm.facade import LLM

            if self._llm is None or getattr(self._llm, "key", None) != backend_key(self.settings):
                self._llm = LLM.rebuilt(self.settings, self._llm, emit=lambda event: self.emit(event))
            llm = self._llm
        # the shell's current settings (a steered run uses a copy), session log and cancel event
        llm.settings, llm.session, llm.cancel = self.settings, self.session, self.cancel
        return llm

    def new_run(self, prefix: str) -> str:
        """A run id for trace events and policy logs, unique within this shell: "ask-3". Inside a
        run that policies opened, that run's id (so its trace and its policy log line up)."""
        if self.run_id:
            return self.run_id
        return f"{prefix}-{next(self._runs)}"

    def check_cancel(self) -> None:
        """Raise Cancelled (a UserError) when the user asked to stop the running job."""
        if self.cancel.is_set():
            self.cancel.clear()
            from sym.core.errors import Cancelled

            raise Cancelled()

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
