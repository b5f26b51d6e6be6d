"""Where workspaces live and how one is opened: data dir, lock file, store, embedder.

An embedded workspace is a directory `<data dir>/workspaces/NAME/` holding its Chroma
files and a lock; a second process opening it gets "workspace in use", never a shared
write. With a Chroma server URL the server keeps the data and arbitrates writers.
"""

from __future__ import annotations

import os
from pathlib import Path

from core.errors import UserError
from core.memory.store import ChromaStore, check_workspace_name, connect


def data_dir() -> Path:
    """`$SYM_HOME`, else the platform's user data directory for sym."""
    home = os.environ.get("SYM_HOME")
    if home:
        return Path(home).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("sym", appauthor=False))


class WorkspaceLock:
    """An exclusive, non-blocking lock on a workspace directory, held for the process's use.

    `flock` is released by the kernel when the process dies, so a crash never leaves a
    stale lock behind."""

    def __init__(self, directory: Path):
        self.path = directory / "lock"
        self._fd: int | None = None

    def acquire(self, workspace: str) -> None:
        import fcntl

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:   # SYM_HOME under a file, read-only, full: one line (exit 2), no traceback
            from core.errors import UsageError

            raise UsageError(f"cannot write workspace {workspace!r} in {self.path.parent}: {err.strerror or err}",
                             hint="set SYM_HOME to a writable directory") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise UserError(f"workspace {workspace!r} is in use (by process {holder})",
                            hint="close the other sym, or use --memory OTHER") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            import fcntl

            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


class Workspace:
    """An opened workspace: its store and (embedded mode) its lock."""

    def __init__(self, name: str, store: ChromaStore, lock: WorkspaceLock | None, url: str | None):
        self.name, self.store, self.lock, self.url = name, store, lock, url
        self.snapshot = None
        if lock is not None:  # embedded: keep a start-up snapshot beside the Chroma files
            from core.memory.snapshot import Snapshot

            self.snapshot = Snapshot(lock.path.parent / "items.sqlite")

    def close(self) -> None:
        if self.snapshot is not None:
            self.snapshot.close()
        if self.lock is not None:
            self.lock.release()


def workspace_dir(name: str) -> Path:
    return data_dir() / "workspaces" / check_workspace_name(name)


def list_workspaces(url: str | None = None) -> list[str]:
    if url:
        return ChromaStore(connect(url=url), "default", None).workspaces()
    root = data_dir() / "workspaces"
    return sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


def open_workspace(name: str, *, url: str | None = None, embedder: str | None = None,
                   ollama_host: str | None = None) -> Workspace:
    """Open (creating if new) a workspace; `embedder` None means whatever it was built with."""
    from core.memory.embedders import default_embedder, make_embedder

    check_workspace_name(name)
    lock = None
    if url:
        client = connect(url=url)
    else:
        directory = workspace_dir(name)
        lock = WorkspaceLock(directory)
        lock.acquire(name)
        try:
            client = connect(path=directory / "chroma")
        except UserError:
            lock.release()
            raise
    try:
        probe = ChromaStore(client, name, None)
        recorded = probe.recorded_embedder()
        spec = embedder or recorded or default_embedder()   # a new workspace: static when installed
        store = ChromaStore(client, name, make_embedder(spec, ollama_host=ollama_host))
        if recorded and recorded != store.embedder.name and embedder is not None:
            raise UserError(f"workspace {name!r} was built with embedder {recorded!r}, not {store.embedder.name!r}",
                            hint=f"open it without --embedder, then /reindex {store.embedder.name}")
    except UserError:
        if lock is not None:
            lock.release()
        raise
    return Workspace(name, store, lock, url)


class Workspaces:
    """The workspace a shell works in, and switching, listing and reindexing workspaces."""

    def __init__(self, *, url: str | None = None, embedder: str | None = None, ollama_host: str | None = None,
                 emit=None):
        self.url, self.embedder, self.ollama_host = url, embedder, ollama_host
        self.emit = emit
        self.current: Workspace | None = None

    def open(self, name: str):
        """Open a workspace and rebuild its memory; the previous one is released only on success."""
        from core.events import ignore
        from core.memory.working import WorkingMemory

        ws = open_workspace(name, url=self.url, embedder=self.embedder, ollama_host=self.ollama_host)
        try:
            memory = WorkingMemory.open(ws.store, emit=self.emit or ignore, snapshot=ws.snapshot)
        except Exception:
            ws.close()
            raise
        if self.current is not None:
            self.current.close()
        self.current = ws
        return memory

    def names(self) -> list[str]:
        return list_workspaces(self.url)

    def reindex(self, spec: str, progress=None):
        """Rebuild the current workspace's collections with another embedder; returns the new memory."""
        from core.events import ignore
        from core.memory.embedders import make_embedder
        from core.memory.persist import rebuild
        from core.memory.working import WorkingMemory

        ws = self.current
        assert ws is not None
        new_store = ChromaStore(ws.store.client, ws.name, make_embedder(spec, ollama_host=self.ollama_host))
        count = rebuild(ws.store, new_store, progress)
        ws.store = new_store
        return WorkingMemory.open(new_store, emit=self.emit or ignore, snapshot=ws.snapshot), count

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
            self.current = None
