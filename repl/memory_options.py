"""How a front-end opens its shell: where memory lives (--memory, --chroma-url, --embedder) and
the settings the command line gave (--model, --ollama-host, --backend, --base-url), as values.
Cheap to import, since the TUI paints before the dispatcher loads. Command options are
repl/arguments.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MemoryOptions:
    """Where a front-end's memory lives (from --memory, --chroma-url, --embedder), and the settings
    the command line gave, as (key, value) pairs that win over the config file."""

    workspace: str = "default"
    chroma_url: str | None = None
    embedder: str | None = None
    persistent: bool = True
    background: bool = True   # embed new records while the shell runs (batch: only when it searches)
    settings: tuple[tuple[str, str], ...] = ()
