"""The Chroma store behind a workspace: one collection per kind, embeddings we compute.

Collections are created with `embedding_function=None` and the embedder's name in their
metadata; Chroma never picks an embedder (its default downloads a model). chromadb is
imported only when a store is opened. Nothing here parses logic or knows about commands.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast
from urllib.parse import urlparse

from sym.core.errors import DiskFull, UserError, disk_full

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection
    from chromadb.api.types import PyEmbeddings
    from chromadb.config import Settings

    from sym.core.memory.embedders import Embedder
    from sym.core.memory.snapshot import Progress

KINDS = ("facts", "rules", "docs", "schema")
FORMAT = 1
_WORKSPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}\Z")


class BackendUnavailable(UserError):
    """A server sym needs (Chroma, Ollama) does not answer (batch exit code 3)."""

    exit_code = 3


def server_of(client: object) -> str | None:
    """The URL of the Chroma server a client talks to; None for an embedded client."""
    try:
        settings = client.get_settings()  # type: ignore[attr-defined]
    except Exception:
        return None
    if getattr(settings, "is_persistent", False) or not getattr(settings, "chroma_server_host", None):
        return None
    scheme = "https" if getattr(settings, "chroma_server_ssl_enabled", False) else "http"
    return f"{scheme}://{settings.chroma_server_host}:{settings.chroma_server_http_port}"


def _unreachable(err: BaseException) -> bool:
    """Whether an error from the Chroma client means the server is gone (refused, reset, timed
    out, a proxy's 502-504), as opposed to a server that answered with an error."""
    try:
        import httpx
    except ImportError:  # pragma: no cover - chromadb's HTTP client needs httpx
        httpx = None  # type: ignore[assignment]
    if httpx is not None:
        if isinstance(err, httpx.TransportError):
            return True
        if isinstance(err, httpx.HTTPStatusError) and err.response.status_code in (502, 503, 504):
            return True
    if isinstance(err, (ConnectionError, TimeoutError)):
        return True
    return "could not connect to a chroma server" in str(err).lower()


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return (text.splitlines()[0] if text else type(err).__name__)[:200]


def check_workspace_name(name: str) -> str:
    if not _WORKSPACE.match(name or ""):
        raise UserError(f"bad workspace name {name!r}",
                        hint="use letters, digits, '-' and '_' (up to 63 characters), starting with a letter or digit")
    return name


@dataclass(frozen=True)
class Record:
    """One stored entry: id, document text, metadata (flat JSON values)."""

    id: str
    text: str
    meta: Mapping[str, Any]


@dataclass(frozen=True)
class Hit:
    kind: str
    id: str
    text: str
    meta: Mapping[str, Any]
    score: float     # cosine similarity, 1 = same direction


def _quiet_settings() -> Settings:
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=False)


# chromadb registers an embedded client's system under its path before starting it, so a
# second thread opening the same path meanwhile gets a half-started one ("'RustBindingsAPI'
# object has no attribute 'bindings'", "Could not connect to tenant"): a sound store looked
# broken when the background writer and a /search opened it together
_OPENING = threading.Lock()


def connect(*, path: Path | None = None, url: str | None = None) -> ClientAPI:
    """A Chroma client: embedded at `path`, or the server at `url`."""
    try:
        import chromadb
    except ImportError:  # pragma: no cover - chromadb is a dependency
        raise UserError("chromadb is not installed", hint="pip install -e '.[dev]'") from None
    if url:
        parsed = urlparse(url if "://" in url else f"http://{url}")
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise UserError(f"bad Chroma URL {url!r}", hint="e.g. --chroma-url http://127.0.0.1:8000")
        port = parsed.port or (443 if parsed.scheme == "https" else 8000)
        try:
            client = chromadb.HttpClient(host=parsed.hostname, port=port, ssl=parsed.scheme == "https",
                                         settings=_quiet_settings())
            client.heartbeat()
        except Exception:  # the client raises assorted connection errors (their class names tell a user nothing)
            raise BackendUnavailable(f"cannot reach the Chroma server at {url}",
                                     hint="is `chroma run` listening there?") from None
        return client
    assert path is not None
    try:
        with _OPENING:
            return chromadb.PersistentClient(path=str(path), settings=_quiet_settings())
    except Exception as err:
        raise UserError(f"cannot open the Chroma store at {path}: {err}".splitlines()[0],
                        hint="the workspace may be corrupt; move it aside or pick another with --memory") from None


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _guarded(method: _Method) -> _Method:
    """Any failure of the client inside METHOD becomes one line (see ChromaStore.failure)."""
    @functools.wraps(method)
    def call(self: ChromaStore, *args: Any, **kwargs: Any) -> Any:
        with self.talking():
            return method(self, *args, **kwargs)

    return cast("_Method", call)


class ChromaStore:
    """The collections of one workspace in one Chroma client.

    Every call to the client is guarded: a server that stops answering is BackendUnavailable
    (exit 3), a full disk DiskFull, any other error of a server one line naming it."""

    def __init__(self, client: ClientAPI, workspace: str, embedder: Embedder) -> None:
        self.client = client
        self.workspace = check_workspace_name(workspace)
        self.embedder = embedder
        self.server = server_of(client)     # None: embedded
        self._collections: dict[str, Collection] = {}
        self._filled: dict[str, bool] = {}   # kind -> holds records (count() is slow on big collections)
        with self.talking():
            self._batch = max(1, min(int(client.get_max_batch_size()), 4096))

    def failure(self, err: BaseException) -> UserError | None:
        """The one-line error a failure of the store stands for; None where it is not the store's
        (an embedded store's own errors go to its caller, which knows to name `sym repair`)."""
        if isinstance(err, UserError):
            return err
        if disk_full(err):
            return DiskFull(f"the vector store of workspace {self.workspace}")
        if self.server is None:
            return None
        if _unreachable(err):
            return BackendUnavailable(f"the Chroma server at {self.server} stopped answering",
                                      hint="is `chroma run` still running there? start it and run the command again")
        return UserError(f"the Chroma server at {self.server} failed: {_first_line(err)}")

    @contextmanager
    def talking(self) -> Iterator[None]:
        try:
            yield
        except Exception as err:
            mapped = self.failure(err)
            if mapped is None or mapped is err:
                raise
            raise mapped from None

    def name(self, kind: str) -> str:
        return f"sym_{self.workspace}_{kind}"

    def recorded_embedder(self) -> str | None:
        """The embedder this workspace was built with (None for a new workspace)."""
        for kind in KINDS:
            try:
                col = self.client.get_collection(self.name(kind), embedding_function=None)
            except Exception as err:
                mapped = self.failure(err)
                if isinstance(mapped, (BackendUnavailable, DiskFull)):
                    raise mapped from None
                continue        # no such collection
            return (col.metadata or {}).get("embedder")
        return None

    @_guarded
    def collection(self, kind: str) -> Collection:
        col = self._collections.get(kind)
        if col is None:
            meta = {"embedder": self.embedder.name, "sym_kind": kind, "sym_format": FORMAT, "hnsw:space": "cosine"}
            col = self.client.get_or_create_collection(self.name(kind), metadata=meta, embedding_function=None)
            built_with = (col.metadata or {}).get("embedder")
            if built_with != self.embedder.name:
                raise UserError(f"workspace {self.workspace!r} was built with embedder {built_with!r}, not "
                                f"{self.embedder.name!r}", hint=f"/reindex {self.embedder.name} rebuilds it")
            self._collections[kind] = col
        return col

    def add(self, kind: str, records: list[Record], texts_to_embed: list[str] | None = None,
            progress: Progress | None = None, vectors: list[list[float]] | None = None) -> None:
        """Upsert records in batches, embedding `texts_to_embed` (default their text) unless
        `vectors` are given. On failure, what this call wrote is removed again."""
        if not records:
            return
        col = self.collection(kind)
        texts = texts_to_embed if texts_to_embed is not None else [r.text for r in records]
        done: list[str] = []
        if progress is not None:
            progress(0, len(records))        # a cancel during the caller's preparation stops before any write
        try:
            for start in range(0, len(records), self._batch):
                part = records[start:start + self._batch]
                batch_vectors = (vectors[start:start + self._batch] if vectors is not None
                                 else self.embedder.embed(texts[start:start + self._batch]))
                col.upsert(ids=[r.id for r in part], documents=[r.text for r in part],
                           embeddings=cast("PyEmbeddings", batch_vectors), metadatas=[r.meta or {"_": 0} for r in part])
                done += [r.id for r in part]
                self._filled[kind] = True
                if progress is not None:
                    progress(len(done), len(records))
        except UserError:
            self._undo(col, done)
            raise
        except Exception as err:
            self._undo(col, done)
            raise (self.failure(err) or UserError(f"could not write to the store: {_first_line(err)}")) from None

    @staticmethod
    def _undo(col: Collection, ids: list[str]) -> None:
        if ids:
            try:
                col.delete(ids=ids)
            except Exception:
                pass

    @_guarded
    def delete(self, kind: str, ids: Iterable[str]) -> None:
        ids = list(ids)
        for start in range(0, len(ids), self._batch):
            self.collection(kind).delete(ids=ids[start:start + self._batch])
        self._filled.pop(kind, None)

    @_guarded
    def all(self, kind: str) -> list[Record]:
        """Every record of a kind, in the order Chroma returns them (use created_at to sort)."""
        col = self.collection(kind)
        out: list[Record] = []
        total = col.count()
        for offset in range(0, total, 10_000):
            got = col.get(include=["documents", "metadatas"], limit=10_000, offset=offset)
            docs, metas = got["documents"], got["metadatas"]
            assert docs is not None and metas is not None     # asked for in `include`
            out += [Record(i, d or "", m or {}) for i, d, m in zip(got["ids"], docs, metas)]
        return out

    @_guarded
    def count(self, kind: str) -> int:
        n = self.collection(kind).count()
        self._filled[kind] = n > 0
        return n

    def filled(self, kind: str) -> bool:
        """Whether a kind holds records (remembered, since counting a big collection is slow)."""
        if kind not in self._filled:
            self.count(kind)
        return self._filled[kind]

    def search(self, text: str, kinds: Iterable[str], k: int = 5, *, ids_only: Iterable[str] = ()) -> list[Hit]:
        """The K records nearest TEXT over these kinds; those of a kind in `ids_only` come without
        their text and metadata (Chroma reads them from its own SQLite: most of a deep query's cost,
        for a caller that has them elsewhere)."""
        (vector,) = self.embedder.embed([text])      # (the embedder's errors are its own)
        hits: list[Hit] = []
        ids_only = frozenset(ids_only)
        with self.talking():
            for kind in kinds:
                if not self.filled(kind):
                    continue  # querying an empty collection costs a round trip for nothing
                bare = kind in ids_only
                got = self.collection(kind).query(
                    query_embeddings=cast("PyEmbeddings", [vector]), n_results=k,
                    include=["distances"] if bare else ["documents", "metadatas", "distances"])
                dists = got["distances"]
                assert dists is not None     # asked for in `include`
                if bare:
                    hits += [Hit(kind, i, "", {}, 1.0 - float(dist)) for i, dist in zip(got["ids"][0], dists[0])]
                    continue
                docs, metas = got["documents"], got["metadatas"]
                assert docs is not None and metas is not None
                for i, d, m, dist in zip(got["ids"][0], docs[0], metas[0], dists[0]):
                    hits.append(Hit(kind, i, d or "", m or {}, 1.0 - float(dist)))
        hits.sort(key=lambda h: -h.score)
        return hits[:k]

    def drop(self) -> None:
        """Delete this workspace's collections (for /reindex, which then re-adds everything)."""
        for kind in KINDS:
            try:
                self.client.delete_collection(self.name(kind))
            except Exception as err:
                mapped = self.failure(err)
                if isinstance(mapped, (BackendUnavailable, DiskFull)):
                    raise mapped from None      # (a collection that is not there is fine)
        self._collections.clear()
        self._filled.clear()

    @_guarded
    def workspaces(self) -> list[str]:
        names = set()
        for col in self.client.list_collections():
            name = str(getattr(col, "name", col))   # some chromadb versions list names, others collections
            m = re.fullmatch(r"sym_(.+)_(facts|rules|docs|schema)", name)
            if m:
                names.add(m.group(1))
        return sorted(names)


def dumps(value: object) -> str:
    """Metadata values must be flat: nested data is stored as JSON text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
