"""Long inputs cut into bounded, sentence-aware chunks, and the loop that works through them.

The loop emits a `Progress` event per chunk and checks the cancel event between chunks, so a
long extraction can be watched and stopped; the caller merges what the chunks gave. Nothing
here calls a model or touches memory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sym.core.memory.chunking import chunk_text

if TYPE_CHECKING:
    from sym.core.run import Run

CHUNK_CHARS = 2000      # a chunk a small model reads whole, with room for the prompt and the reply
T = TypeVar("T")


def split(text: str, max_chars: int = CHUNK_CHARS) -> list[str]:
    """TEXT as chunks of at most MAX_CHARS characters, cut at paragraph, sentence or word ends
    (core.memory.chunking.chunk_text, without overlap: a sentence is read once)."""
    return [c.text for c in chunk_text(text, max_chars=max_chars, overlap=0)]


def each_chunk(chunks: list[str], work: Callable[[int, str], T], run: Run, *, task: str) -> list[T]:
    """`work(index, chunk)` for every chunk in order, with Progress(task, done, total) before each
    one and after the last, and the run's cancel check between chunks."""
    out: list[T] = []
    total = len(chunks)
    progress = run.progress(task)
    for n, chunk in enumerate(chunks):
        run.check()
        if total > 1:
            progress(n, total)
        out.append(work(n, chunk))
    if total > 1:
        progress(total, total)
    return out
