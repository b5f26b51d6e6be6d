"""Where workspaces live and how one is opened: data dir, lock file, store, embedder.

An embedded workspace is a directory `<data dir>/workspaces/NAME/` holding its Chroma
files and a lock; a second process opening it gets "workspace in use", never a shared
write. With a Chroma server URL the server keeps the data and arbitrates writers.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sym.core.backends.choice import EngineOptions, open_engine, record, recorded
from sym.core.errors import UsageError, UserError
from sym.core.events import WorkspaceOpened, ignore, item_shown
from sym.core.home import data_dir
from sym.core.memory.embedders import default_embedder, make_embedder
from sym.core.memory.library import documents
from sym.core.memory.local import LocalStore, broken
from sym.core.memory.snapshot import FORMAT, Snapshot, discard, stamp_created
from sym.core.memory.store import KINDS, ChromaStore, check_workspace_name, connect
from sym.core.memory.summary import Summary, summary
from sym.core.memory.working import WorkingMemory

if TYPE_CHECKING:
    from chromadb.api import ClientAPI

    from sym.core.events import Emit, WorkspaceOpened
    from sym.core.memory.embedders import Embedder
    from sym.core.memory.local import LocalStore
    from sym.core.memory.snapshot import Progress, Snapshot
    from sym.core.memory.working import WorkingMemory


class WorkspaceInUse(UserError):
    """Another shell (another process, or another open workspace in this one) holds the lock."""

    def __init__(self, workspace: str, holder: str) -> None:
        super().__init__(f"workspace {workspace!r} is in use (by process {holder})",
                         hint="close the other sym, or use --memory OTHER")
        self.holder = holder


class WorkspaceLock:
    """An exclusive, non-blocking lock on a workspace directory, held for the process's use.

    `flock` is released by the kernel when the process dies, so a crash never leaves a
    stale lock behind."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "lock"
        self._fd: int | None = None

    def acquire(self, workspace: str) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:   # SYM_HOME under a file, read-only, full: one line (exit 2), no traceback
            raise UsageError(f"cannot write workspace {workspace!r} in {self.path.parent}: {err.strerror or err}",
                             hint="set SYM_HOME to a writable directory") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise WorkspaceInUse(workspace, holder) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


class Workspace:
    """An opened workspace: its store (a LocalStore, or a ChromaStore on a server) and (embedded
    mode) its lock."""

    def __init__(self, name: str, store: LocalStore | ChromaStore, lock: WorkspaceLock | None, url: str | None) -> None:
        self.name, self.store, self.lock, self.url = name, store, lock, url

    @property
    def snapshot(self) -> Snapshot | None:
        return None if isinstance(self.store, ChromaStore) else self.store.snapshot

    def close(self, wait: float = 0.0) -> None:
        """Release the workspace; the background writer gets up to `wait` seconds to catch up, then
        stops after its batch in flight (what it leaves stays pending for the next start)."""
        try:
            if hasattr(self.store, "close"):
                self.store.close(wait)
        finally:
            if self.lock is not None:
                self.lock.release()


def workspace_dir(name: str) -> Path:
    return data_dir() / "workspaces" / check_workspace_name(name)


def list_workspaces(url: str | None = None) -> list[str]:
    if url:
        return ChromaStore(connect(url=url), "default", _NO_EMBEDDER).workspaces()
    root = data_dir() / "workspaces"
    return sorted(p.name for p in root.iterdir() if p.is_dir() and _valid(p.name)) if root.is_dir() else []


def _valid(name: str) -> bool:
    """A workspace's name (a folder being deleted, `.removing-…`, is not one)."""
    try:
        check_workspace_name(name)
    except UserError:
        return False
    return True


def open_workspace(name: str, *, url: str | None = None, embedder: str | None = None,
                   ollama_host: str | None = None, emit: Emit | None = None, background: bool = True) -> Workspace:
    """Open (creating if new) a workspace; `embedder` None means whatever it was built with.
    An embedded one is read from its snapshot alone: chromadb is not imported here."""
    check_workspace_name(name)
    if url:
        client = connect(url=url)
        probe = ChromaStore(client, name, _NO_EMBEDDER)
        recorded = probe.recorded_embedder()
        spec = embedder or recorded or default_embedder()
        remote = ChromaStore(client, name, make_embedder(spec, ollama_host=ollama_host))
        _same_embedder(name, recorded, remote.embedder.name, embedder)
        return Workspace(name, remote, None, url)
    directory = workspace_dir(name)
    lock = WorkspaceLock(directory)
    lock.acquire(name)
    try:
        snapshot = _snapshot(name, directory, embedder)
        try:
            recorded = snapshot.meta("embedder")
            store = _local_store(name, directory, snapshot, make_embedder(embedder or recorded or "", ollama_host=ollama_host),
                                 emit, background)
            _same_embedder(name, recorded, store.embedder.name, embedder)
        except BaseException:
            snapshot.close()
            raise
    except BaseException:
        lock.release()
        raise
    if background and snapshot.backlog():
        store.backlog.wake()      # finish what an earlier run left to embed
    return Workspace(name, store, lock, None)


def _same_embedder(name: str, recorded: str | None, used: str, asked: str | None) -> None:
    if recorded and recorded != used and asked is not None:
        raise UserError(f"workspace {name!r} was built with embedder {recorded!r}, not {used!r}",
                        hint=f"open it without --embedder, then /reindex {used}")


def _local_store(name: str, directory: Path, snapshot: Snapshot, embedder: Embedder, emit: Emit | None,
                 background: bool = True) -> LocalStore:
    return LocalStore(name, snapshot, directory / "chroma", embedder, emit=emit or ignore, background=background)


def _snapshot(name: str, directory: Path, embedder: str | None) -> Snapshot:
    """The workspace's snapshot, current: created for a new workspace, filled once from Chroma
    for one from before snapshots held everything (or whose snapshot is damaged)."""
    path = directory / "items.sqlite"
    snapshot = Snapshot(path)
    if snapshot.current():
        return snapshot
    snapshot.close()
    discard(path)
    snapshot = Snapshot(path)
    try:
        if (directory / "chroma" / "chroma.sqlite3").exists():
            _fill_from_chroma(name, directory, snapshot)
        else:
            spec = embedder or default_embedder()
            with snapshot.unit() as db:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (spec,))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (FORMAT,))
                stamp_created(db)
    except BaseException:
        snapshot.close()
        raise
    return snapshot


def _fill_from_chroma(name: str, directory: Path, snapshot: Snapshot) -> None:
    try:
        client = connect(path=directory / "chroma")
        probe = ChromaStore(client, name, _NO_EMBEDDER)
        recorded = probe.recorded_embedder()
        store = ChromaStore(client, name, _Named(recorded or "hash"))
        items = [(r.id, r.meta.get("kind", "fact"), r.text, r.meta.get("nl", ""), r.meta.get("source", "typed"),
                  float(r.meta.get("created_at", 0.0))) for kind in ("facts", "rules") for r in store.all(kind)]
        records = {kind: store.all(kind) for kind in ("docs", "schema")}
    except Exception as err:  # noqa: BLE001 - a damaged Chroma raises many kinds
        raise broken(name, getattr(err, "message", None) or str(err) or type(err).__name__) from None
    items.sort(key=lambda row: (row[5], row[0]))
    records["docs"].sort(key=lambda r: (r.meta.get("loaded_at", 0.0), r.meta.get("doc_id", ""), r.meta.get("index", 0)))
    snapshot.fill(items, records, recorded or "hash")


class _Named:
    """An embedder that only carries a name (reading a collection back embeds nothing)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def embed(self, texts: list[str]) -> list[list[float]]:   # pragma: no cover - never called while reading
        raise UserError("no embedder while reading the store back")


_NO_EMBEDDER = _Named("")   # for a store that is only asked what it holds (its names, its recorded embedder)


def repair(name: str, progress: Progress | None = None) -> int:
    """`sym repair NAME`: rebuild the workspace's vector store from its snapshot (the old Chroma
    files are moved aside); returns the records written. Raises UserError when it cannot."""
    check_workspace_name(name)
    directory = workspace_dir(name)
    if not directory.is_dir():
        names = list_workspaces()
        raise UserError(f"workspace {name!r} does not exist, so there is nothing to repair",
                        hint=f"the workspaces here: {', '.join(names)}" if names else "there are no workspaces yet")
    lock = WorkspaceLock(directory)
    lock.acquire(name)
    try:
        snapshot = Snapshot(directory / "items.sqlite")
        if not snapshot.current():
            snapshot.close()
            raise UserError(f"workspace {name!r} has no readable snapshot to rebuild from",
                            hint=f"move {directory / 'chroma'} aside to start the workspace empty")
        store = _local_store(name, directory, snapshot, make_embedder(snapshot.meta("embedder") or "hash"), None)
        try:
            count = store.rebuild_vectors()
            store.wait(None, progress=progress)
        finally:
            store.close(0)
        return count
    finally:
        lock.release()


@dataclass(frozen=True)
class WorkspaceInfo:
    """A workspace as listed: its name, what it holds and when (None: not readable without
    opening it), and whether this shell works in it."""

    name: str
    summary: Summary | None
    current: bool = False
    server: bool = False        # its collections live on a Chroma server


def _server_summary(client: ClientAPI, name: str) -> Summary | None:
    """Counts of a workspace on a Chroma server, from its collections (a server keeps no dates)."""
    store = ChromaStore(client, name, _NO_EMBEDDER)
    counts: dict[str, int] = {}
    for kind in ("facts", "rules"):
        try:
            col = client.get_collection(store.name(kind), embedding_function=None)
            counts[kind] = col.count()
            if kind == "rules" and counts[kind]:
                counts["constraints"] = len(col.get(where={"kind": "constraint"}, include=[])["ids"])
        except Exception:   # noqa: BLE001 - a collection not there (yet), or one the server cannot read
            continue
    if not counts:
        return None
    constraints = counts.get("constraints", 0)
    return Summary(counts.get("facts", 0), counts.get("rules", 0) - constraints, constraints, None, None, None)


def _server_collections(client: ClientAPI, name: str) -> list[str]:
    store = ChromaStore(client, name, _NO_EMBEDDER)
    listed = {str(getattr(col, "name", col)) for col in client.list_collections()}
    return [store.name(kind) for kind in KINDS if store.name(kind) in listed]


def _forget_chroma_client(path: Path) -> None:
    """chromadb keeps one client per folder for the life of the process; a workspace made again
    under a deleted one's name must get a new one, not the deleted files' (chromadb is not
    imported here when nothing opened it)."""
    if "chromadb" not in sys.modules:
        return
    from chromadb.api.shared_system_client import SharedSystemClient

    for key in {str(path), str(path.resolve())}:
        system = SharedSystemClient._identifier_to_system.pop(key, None)
        SharedSystemClient._identifier_to_refcount.pop(key, None)
        if system is not None:
            try:
                system.stop()
            except Exception:   # noqa: BLE001 - its files are going anyway
                pass


def opened(memory: WorkingMemory) -> WorkspaceOpened:
    """What a front-end is shown of a workspace that opened: a snapshot of its items, schema and
    documents, taken on the thread that owns the memory."""
    items = tuple([item_shown(it.id, it.kind, it.text, it.source, it.nl) for it in list(memory.items.values())])
    predicates = tuple((p.key, p.count, p.template) for p in list(memory.schema.predicates.values()))
    return WorkspaceOpened(memory.workspace, memory.counts(), tuple(documents(memory.store)), items, predicates)


class Workspaces:
    """The workspace a shell works in, and switching, listing and reindexing workspaces."""

    def __init__(self, *, url: str | None = None, embedder: str | None = None, ollama_host: str | None = None,
                 emit: Emit | None = None, background: bool = True) -> None:
        self.url, self.embedder, self.ollama_host = url, embedder, ollama_host
        self.background = background    # embed pending records while open (else only when a search needs them)
        self.emit = emit
        self.current: Workspace | None = None
        self.engine_options: EngineOptions | None = None     # from the settings (duckdb_memory, …)

    def open(self, name: str, *, engine: str | None = None) -> WorkingMemory:
        """Open a workspace and rebuild its memory; the previous one is released only on success.
        `engine` (native, duckdb, spark) evaluates it from now on, else the one it recorded."""
        ws = open_workspace(name, url=self.url, embedder=self.embedder, ollama_host=self.ollama_host, emit=self.emit,
                            background=self.background)
        directory = workspace_dir(name)
        try:
            options = self.engine_options or EngineOptions()
            chosen = engine or recorded(directory) or options.default
            evaluator = open_engine(chosen, directory, options)
            memory = WorkingMemory.open(ws.store, emit=self.emit or ignore, engine=evaluator)
            if engine is not None or chosen != "native":
                record(directory, chosen)
        except BaseException:
            ws.close(0)
            raise
        if self.current is not None:
            self.current.close()
        self.current = ws
        self._opened(memory)
        return memory

    def _opened(self, memory: WorkingMemory) -> None:
        if self.emit is not None:
            self.emit(opened(memory))

    def names(self) -> list[str]:
        return list_workspaces(self.url)

    def summaries(self) -> list[WorkspaceInfo]:
        """Every workspace with its counts and dates, read without opening it: an embedded one
        from its snapshot (no lock, no Chroma), a server's from its collections."""
        current = self.current.name if self.current is not None else None
        if self.url:
            client = connect(url=self.url)
            names = ChromaStore(client, "default", _NO_EMBEDDER).workspaces()
            return [WorkspaceInfo(n, _server_summary(client, n), n == current, True) for n in names]
        return [WorkspaceInfo(n, summary(workspace_dir(n) / "items.sqlite"), n == current)
                for n in list_workspaces()]

    def removal(self, name: str) -> WorkspaceInfo:
        """What deleting workspace `name` would delete; raises UserError when it may not be
        deleted (the current one, one not there, one another shell holds). Changes nothing."""
        check_workspace_name(name)
        if self.current is not None and self.current.name == name:
            raise UserError(f"workspace {name!r} is the one this shell works in; switch to another first",
                            hint="/workspace OTHER, then /workspace rm " + name)
        if self.url:
            client = connect(url=self.url)
            if not _server_collections(client, name):
                raise UserError(f"no workspace {name!r} on the Chroma server", hint="/workspaces lists them")
            return WorkspaceInfo(name, _server_summary(client, name), server=True)
        directory = workspace_dir(name)
        if not directory.is_dir():
            raise UserError(f"no workspace {name!r}", hint="/workspaces lists them")
        lock = self._lock_for_removal(name, directory)
        lock.release()
        return WorkspaceInfo(name, summary(directory / "items.sqlite"))

    def remove(self, name: str) -> WorkspaceInfo:
        """Delete workspace `name` (checked as `removal` does): an embedded one's folder, taken
        under its lock; a server's collections. Returns what was there."""
        info = self.removal(name)
        if self.url:
            client = connect(url=self.url)
            for collection in _server_collections(client, name):
                try:
                    client.delete_collection(collection)
                except Exception as err:   # noqa: BLE001 - the server's errors come in many kinds
                    reason = (str(err).strip().splitlines() or [type(err).__name__])[0][:160]
                    raise UserError(f"the Chroma server did not delete {collection}: {reason}",
                                    hint=f"try /workspace rm {name} --yes again") from None
            return info
        directory = workspace_dir(name)
        lock = self._lock_for_removal(name, directory)
        aside = directory.with_name(f".removing-{name}-{os.getpid()}-{time.time_ns()}")
        try:
            _forget_chroma_client(directory / "chroma")
            directory.rename(aside)    # at once: no shell can open it half deleted
        except OSError as err:
            raise UserError(f"cannot delete workspace {name!r}: {err.strerror or err}") from None
        finally:
            lock.release()
        shutil.rmtree(aside, ignore_errors=True)
        return info

    @staticmethod
    def _lock_for_removal(name: str, directory: Path) -> WorkspaceLock:
        lock = WorkspaceLock(directory)
        try:
            lock.acquire(name)
        except WorkspaceInUse as err:
            raise UserError(f"workspace {name!r} is open in another sym (process {err.holder}); "
                            "close that one first") from None
        return lock

    def reindex(self, spec: str, memory: WorkingMemory, progress: Progress | None = None) -> tuple[WorkingMemory, int]:
        """Rebuild the current workspace's vectors with another embedder; returns (memory, records).
        An embedded workspace re-embeds in the background; a server's is rebuilt here."""
        ws = self.current
        assert ws is not None
        embedder = make_embedder(spec, ollama_host=self.ollama_host)
        if not isinstance(ws.store, ChromaStore):
            return memory, ws.store.reindex(embedder)
        from sym.core.memory.persist import rebuild

        new_store = ChromaStore(ws.store.client, ws.name, embedder)
        count = rebuild(ws.store, new_store, progress)
        ws.store = new_store
        memory = WorkingMemory.open(new_store, emit=self.emit or ignore)
        self._opened(memory)
        return memory, count

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
            self.current = None
