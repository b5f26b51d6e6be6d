"""Input history shared by the TUI and the prompt-toolkit REPL, in prompt-toolkit's FileHistory format.

Entries are `+`-prefixed lines after a `# date` comment, so `sym --plain` and the TUI read
each other's history. This module imports nothing heavy (no textual, no prompt_toolkit).
"""

from __future__ import annotations

import datetime
from pathlib import Path


def history_path() -> Path:
    """`<data dir>/history` (the same file FileHistory uses in `sym --plain`)."""
    from sym.core.home import data_dir

    return data_dir() / "history"


def read_history(path: Path) -> list[str]:
    """Entries, oldest first; an unreadable file is an empty history."""
    try:
        raw = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return []
    entries: list[str] = []
    lines: list[str] = []
    for line in raw.splitlines():
        if line.startswith("+"):
            lines.append(line[1:])
        elif lines:
            entries.append("\n".join(lines))
            lines = []
    if lines:
        entries.append("\n".join(lines))
    return entries


def append_history(path: Path, entry: str) -> None:
    """Append one entry; a full disk or read-only home loses history, never the command."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab") as f:
            f.write(f"\n# {datetime.datetime.now()}\n".encode())
            for line in entry.split("\n"):
                f.write(f"+{line}\n".encode())
    except OSError:
        pass


class History:
    """A cursor over past entries for ↑/↓, persisted on `add`."""

    def __init__(self, path: Path | None, limit: int = 1000):
        self.path = path
        self.entries = read_history(path)[-limit:] if path is not None else []
        self.pos = len(self.entries)
        self._draft = ""

    def load(self, path: Path, limit: int = 1000) -> None:
        """Read the history at `path` (and persist there from now on): the app does this once its
        workspace is open, so reading the data dir is not on the first-paint path."""
        self.path = path
        self.entries = read_history(path)[-limit:] + self.entries
        self.pos = len(self.entries)

    def add(self, entry: str) -> None:
        if entry.strip() and (not self.entries or self.entries[-1] != entry):
            self.entries.append(entry)
            if self.path is not None:
                append_history(self.path, entry)
        self.pos = len(self.entries)

    def back(self, current: str) -> str | None:
        """The previous entry (remembering what was being typed), or None at the start."""
        if self.pos == len(self.entries):
            self._draft = current
        if self.pos == 0:
            return None
        self.pos -= 1
        return self.entries[self.pos]

    def search(self, text: str, before: int | None = None) -> tuple[int, str] | None:
        """The newest entry containing `text` older than index `before` (all when None), with its
        index; None when no older entry contains it. Case is ignored."""
        needle = text.lower()
        for i in range(min(len(self.entries), len(self.entries) if before is None else before) - 1, -1, -1):
            if needle in self.entries[i].lower():
                return i, self.entries[i]
        return None

    def forward(self) -> str | None:
        """The next entry, the draft after the newest, or None when already there."""
        if self.pos >= len(self.entries):
            return None
        self.pos += 1
        return self._draft if self.pos == len(self.entries) else self.entries[self.pos]
