"""Readings of sentence shapes kept between processes, so that a new process pays no Earley parse
for a shape an earlier one has parsed: one JSON file, valid only for the grammar and parser that
made it (its key), in `$SYM_HOME/cache/`, else the platform's user cache directory.

The file is read as untrusted data: plain JSON (never pickle), each entry checked before use,
its size bounded. A file that is unreadable, corrupt, foreign or too big is ignored and
rewritten; no I/O error ever reaches a parse. Writes are batched, atomic (temporary file, then
`os.replace`) and merged under a lock, so processes sharing the file never corrupt it.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

try:
    import fcntl
except ImportError:                           # Windows: no flock
    fcntl = None  # type: ignore[assignment]

FILE = "english-shapes.json"
TAG = "sym english shapes"
MAX_SHAPES = 20_000         # newest kept (3,000 generated test sentences have ~450 shapes)
MAX_BYTES = 8 << 20         # a bigger file is not read (and is rewritten)
FLUSH_EVERY = 256           # new shapes between writes; the rest at exit


def key_of(grammar: str, *versions: object) -> str:
    """The cache key: the grammar's text, the parser's own version numbers, and lark's version."""
    digest = hashlib.sha256(grammar.encode("utf-8"))
    digest.update(repr((versions, _lark_version())).encode("utf-8"))
    return digest.hexdigest()


def _lark_version() -> str:
    """lark's version, read from its source (importing lark here would cost what the cache saves)."""
    try:
        spec = find_spec("lark")
        origin = spec.origin if spec is not None else None
        source = Path(origin).read_text(encoding="utf-8") if origin else ""
    except (OSError, ValueError, ImportError):
        return "?"
    found = re.search(r"""__version__\s*(?::\s*str\s*)?=\s*["']([^"']+)""", source)
    return found.group(1) if found else hashlib.sha256(source.encode("utf-8")).hexdigest()


def default_path() -> Path:
    """`$SYM_HOME/cache/english-shapes.json`, else the same file in the user cache directory."""
    home = os.environ.get("SYM_HOME")
    if home:
        return Path(home).expanduser() / "cache" / FILE

    return Path(user_cache_dir("sym", appauthor=False)) / FILE


class Store:
    """The kept readings of one grammar (key), looked up by shape. Each entry is the JSON text of
    a shape's readings, decoded only when a process meets that shape (memory stays the size of
    the file); the caller checks an entry before trusting it. New entries are written every
    FLUSH_EVERY and at exit. `path` None keeps nothing between processes."""

    def __init__(self, path: Path | None, key: str) -> None:
        self.path, self.key = path, key
        self._lock = threading.Lock()
        self._new: dict[str, str] = {}          # parsed here, not yet written
        found = self._read() if path is not None else {}
        self._rewrite = found is None           # the file is unusable: replace it even with nothing new
        self._kept: dict[str, Any] = found or {}

    def get(self, shape: tuple[str, ...]) -> Any:
        """The kept entry for a shape (unchecked: JSON text if the file is ours), or None."""
        name = " ".join(shape)
        return self._new.get(name, self._kept.get(name))

    def put(self, shape: tuple[str, ...], entry: str) -> None:
        with self._lock:
            self._new[" ".join(shape)] = entry
            due = len(self._new) >= FLUSH_EVERY
        if due:
            self.flush()

    def drop(self, shape: tuple[str, ...]) -> None:
        """Forget an entry that failed its check (it is rewritten when parsed again)."""
        with self._lock:
            self._kept.pop(" ".join(shape), None)
            self._rewrite = True

    def flush(self) -> None:
        """Write the new entries, merged with what other processes wrote meanwhile. Best effort:
        when the directory is not writable or the lock is busy, they stay unsaved."""
        with self._lock:
            if self.path is None or not (self._new or self._rewrite):
                return
            new, self._new, self._rewrite = self._new, {}, False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _locked(self.path.with_name(self.path.name + ".lock")):
                entries = self._read() or {}
                for name, entry in new.items():
                    entries.pop(name, None)      # newest last: the oldest go first when over the bounds
                    entries[name] = entry
                self._write(entries)
        except (OSError, TimeoutError, ValueError, TypeError, RecursionError):
            return
        with self._lock:
            self._kept.update(new)

    def _read(self) -> dict[str, Any] | None:
        """The file's entries for this key; {} when there is no file, None when it is unusable."""
        assert self.path is not None
        try:
            info = os.stat(self.path)
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:    # a FIFO would block a read
                return None
            with open(self.path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                return None
            found = json.loads(data)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError, MemoryError):   # unreadable, not UTF-8, not JSON, too deep
            return None
        if not (type(found) is dict and found.get("format") == TAG and type(found.get("shapes")) is dict):
            return None
        if found.get("key") != self.key:
            return None                                              # another grammar's: replaced
        shapes: dict[str, Any] = found["shapes"]
        return shapes if len(shapes) <= MAX_SHAPES else None

    def _write(self, entries: dict[str, Any]) -> None:
        parts = [json.dumps(name) + ":" + json.dumps(entry) for name, entry in entries.items()]
        parts = parts[-MAX_SHAPES:]
        head = json.dumps({"format": TAG, "key": self.key})[:-1] + ',"shapes":{'
        size, keep = len(head) + 2, 0
        for part in reversed(parts):
            if size + len(part) + 1 > MAX_BYTES:
                break
            size, keep = size + len(part) + 1, keep + 1
        text = head + ",".join(parts[len(parts) - keep:]) + "}}"
        assert self.path is not None
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


@contextlib.contextmanager
def _locked(path: Path, wait: float = 2.0) -> Iterator[None]:
    """An exclusive lock on `path` for a read-merge-write; TimeoutError after `wait` seconds."""
    if fcntl is None:                         # no flock (Windows): os.replace alone keeps the file whole
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(str(path)) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)


_opened: dict[str, Store] = {}
_opening = threading.Lock()


def store(key: str) -> Store:
    """The Store of this key at the default path, opened once per process (and per path: tests
    change $SYM_HOME); its new entries are written at exit."""
    try:
        path: Path | None = default_path()
    except Exception:                         # no home directory to put a cache in: keep nothing
        path = None
    name = f"{path}\0{key}"
    with _opening:
        if name not in _opened:
            _opened[name] = Store(path, key)
            atexit.register(_opened[name].flush)
        return _opened[name]
