"""Front-end options that must be cheap to import (the TUI paints before the dispatcher loads)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MemoryOptions:
    """Where a front-end's memory lives (from --memory, --chroma-url, --embedder)."""

    workspace: str = "default"
    chroma_url: str | None = None
    embedder: str | None = None
    persistent: bool = True
    background: bool = True   # embed new records while the shell runs (batch: only when it searches)
