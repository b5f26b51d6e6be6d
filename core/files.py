"""Reading a file a user (or a script) names: regular files only, up to a size limit.

A FIFO, /dev/zero or a terminal would block or never end, and a huge file would fill memory;
each is refused with one line before anything is read. The check is made on the opened file
(fstat), so a path swapped for a FIFO after a check cannot slip through.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from sym.core.errors import UserError

DEFAULT_LIMIT_MB = 64


def _shown(path: str | os.PathLike[str]) -> str:
    text = str(path)
    return text if len(text) <= 80 else text[:77] + "…"


def check_file(path: str | os.PathLike[str], limit_mb: float = DEFAULT_LIMIT_MB) -> None:
    """Raise the UserError `read_file_bytes` would, without reading the file."""
    _open_checked(path, limit_mb, read=False)


def read_file_bytes(path: str | os.PathLike[str], limit_mb: float = DEFAULT_LIMIT_MB) -> bytes:
    """The bytes of a regular file of at most `limit_mb` MB; otherwise a UserError naming why."""
    return _open_checked(path, limit_mb, read=True)


def _open_checked(path: str | os.PathLike[str], limit_mb: float, *, read: bool) -> bytes:
    shown = _shown(path)
    limit = int(limit_mb * 2**20)
    try:
        p = Path(path).expanduser()
        if "\0" in str(p):
            raise UserError(f"bad file name {shown!r}: it holds a NUL character")
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise UserError(f"no such file: {shown}") from None
    except IsADirectoryError:
        raise UserError(f"{shown} is a directory", hint="name a file") from None
    except PermissionError:
        raise UserError(f"cannot read {shown}: permission denied") from None
    except (OSError, ValueError) as err:
        raise UserError(f"cannot read {shown}: {getattr(err, 'strerror', None) or err}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UserError(f"{shown} is a directory", hint="name a file")
        if not stat.S_ISREG(info.st_mode):   # FIFO, device, socket: would block or never end
            raise UserError(f"{shown} is not a regular file", hint="name a plain file, not a device or pipe")
        if info.st_size > limit:
            raise UserError(f"{shown} is {info.st_size / 2**20:,.1f} MB; files are read up to {limit_mb:g} MB",
                            hint="split it, or /set max_file_mb to allow more")
        if not read:
            return b""
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            data = handle.read(limit + 1)    # the file may have grown since fstat
    except OSError as err:
        raise UserError(f"cannot read {shown}: {err.strerror or err}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise UserError(f"{shown} is larger than {limit_mb:g} MB", hint="split it, or /set max_file_mb to allow more")
    return data


def read_text_file(path: str | os.PathLike[str], limit_mb: float = DEFAULT_LIMIT_MB) -> str:
    """The UTF-8 text (a BOM allowed) of a regular file of at most `limit_mb` MB; a binary or
    non-UTF-8 file is a UserError."""
    data = read_file_bytes(path, limit_mb)
    shown = _shown(path)
    if b"\0" in data:
        raise UserError(f"{shown} looks binary (it holds NUL bytes)", hint="give a UTF-8 text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UserError(f"{shown} is not UTF-8 text (byte {err.start})", hint="convert it to UTF-8") from None


def write_text_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all: a temporary file beside it, flushed to disk, then
    renamed over it (a kill -9 leaves the old file or the new one, never half of one); an existing
    file keeps its permissions. Raises OSError (the temporary file removed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="", dir=path.parent, prefix=f".{path.name}-",
                                         suffix=".tmp", delete=False) as tmp:
            tmp.write(text)
            tmp.flush()
            os.fsync(tmp.fileno())
        if path.exists():
            os.chmod(tmp.name, path.stat().st_mode & 0o7777)
        os.replace(tmp.name, path)
    except BaseException:
        if tmp is not None and os.path.exists(tmp.name):
            os.unlink(tmp.name)
        raise
