"""What a command handler is given: memory, settings, the registry, the event stream."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from core.events import Emit, ignore
from core.memory.working import WorkingMemory
from core.settings import Settings
from repl.registry import Registry


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

    def progress(self, task: str):
        """A callback (done, total) that emits Progress events for long work."""
        from core.events import Progress

        return lambda done, total: self.emit(Progress(task, done, total))

    def path(self, name: str) -> Path:
        """Resolve a user-given file name (cwd first, then the script's directory)."""
        p = Path(name).expanduser()
        if p.exists() or p.is_absolute() or self.base_dir is None:
            return p
        alt = self.base_dir / p
        if alt.exists():
            return alt
        return p
