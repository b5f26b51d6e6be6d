"""Chunks: cut a long text into size-bounded, overlapping slices at paragraph, sentence or word
ends. The plain cutter for long inputs (the model reads a long text chunk by chunk) and for a
paragraph too long to be one passage (core.memory.passages); every chunk is a verbatim slice with
its offsets.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Progress = Callable[[int, int], object]   # (characters done, characters in all); it may raise to stop

# Between two paragraphs: blank lines, or a line break before a Markdown (ATX) heading.
# Each match starts at a line break and ends at the next paragraph's first character.
_PARAGRAPH_GAP = re.compile(r"\n(?:[^\S\n]*\n\s*| {0,3}(?=#{1,6}(?:\s|\Z)))")
_NONSPACE = re.compile(r"\S")
_LAST_PARAGRAPH_END = re.compile(r"(?s:.*\S)()[^\S\n]*\n(?:[^\S\n]*\n| {0,3}#{1,6}\s)")
# Greedy `.*` finds the LAST match in a window, scanning back from its end only.
_LAST_SENTENCE_END = re.compile(r"(?s:.*)[.?!][\"')\]]*(?=\s)")
_LAST_WORD_END = re.compile(r"(?s:.*)\S(?=\s)")
_SENTENCE_GAP = re.compile(r"[.?!][\"')\]]*\s+")
_WORD_GAP = re.compile(r"\s+(?=\S)")


@dataclass(frozen=True)
class Chunk:
    """A verbatim slice of a document: `text == document[start:end]`."""

    index: int
    text: str
    start: int
    end: int


def chunk_text(text: str, *, max_chars: int = 1200, overlap: int = 150,
               progress: Progress | None = None) -> list[Chunk]:
    """Cut TEXT into chunks of at most MAX_CHARS characters that overlap by up to OVERLAP.

    A chunk ends, in order of preference, at a paragraph end (blank line, or a line before
    a Markdown heading), a sentence end, a word end, or a hard cut - paragraph and sentence
    ends only when they fill at least half the chunk. The next chunk starts at most OVERLAP
    characters before the previous one ended, at the earliest paragraph or sentence start in
    that window, else the earliest word start, else (inside one long word) where the
    previous one ended. Every non-whitespace character lands in some chunk. `progress(chars
    done, chars in all)` is called every 500 chunks (it may raise to stop).
    """
    for name, value in (("max_chars", max_chars), ("overlap", overlap)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{name} must be an int, not {type(value).__name__}")
    if not max_chars > overlap >= 0:
        raise ValueError(f"need max_chars > overlap >= 0, got max_chars={max_chars}, overlap={overlap}")

    lead = _NONSPACE.search(text)
    if lead is None:
        return []
    last = len(text.rstrip())
    chunks: list[Chunk] = []
    start = fresh = lead.start()   # `fresh`: where the text no earlier chunk covered begins
    while True:
        end = last if last <= start + max_chars else _chunk_end(text, start, fresh, max_chars)
        chunks.append(Chunk(len(chunks), text[start:end], start, end))
        if end >= last:
            return chunks
        if progress is not None and len(chunks) % 500 == 0:
            progress(end, last)
        found = _NONSPACE.search(text, end)
        assert found is not None   # end < last, and text[last - 1] is not a space
        fresh = found.start()
        start = _next_start(text, start, end, fresh, overlap)


# Breaks are searched for near each chunk's edges only, never over the whole text, so the
# work is linear however many paragraphs there are. A break that hides behind more than
# _PEEK characters of whitespace can be missed; the next kind of break is used instead.
_PEEK = 16


def _chunk_end(text: str, start: int, fresh: int, max_chars: int) -> int:
    """Where the chunk from START ends: past FRESH, at most MAX_CHARS from START."""
    limit = start + max_chars
    enough = start + max_chars // 2
    low = max(fresh, enough - 1)
    # The str.find calls skip regex scans that cannot match: cheap, and most windows.
    if text.find("\n", low, limit + 1 + _PEEK) >= 0:
        paragraph = _LAST_PARAGRAPH_END.match(text, low, limit + 1 + _PEEK)
        if paragraph is not None and paragraph.start(1) > limit:  # found one just past the limit
            paragraph = _LAST_PARAGRAPH_END.match(text, low, limit + 1)
        if paragraph is not None:
            return paragraph.start(1)
    # endpos limit + 1 lets a lookahead see the character just after the limit.
    if any(text.find(mark, low, limit) >= 0 for mark in ".?!"):
        sentence = _LAST_SENTENCE_END.match(text, low, limit + 1)
        if sentence is not None:
            return sentence.end()
    word = _LAST_WORD_END.match(text, fresh, limit + 1)
    if word is not None:
        return word.end()
    return limit   # one word longer than max_chars: a hard cut is all that is left


def _next_start(text: str, start: int, end: int, fresh: int, overlap: int) -> int:
    """Where the chunk after [START, END) begins: FRESH, or up to OVERLAP before it."""
    low = max(fresh - overlap, start + 1)
    if overlap == 0 or low >= end:
        return fresh
    back = max(low - _PEEK, start)
    candidates = []
    for pattern in (_PARAGRAPH_GAP, _SENTENCE_GAP):
        for gap in pattern.finditer(text, back, end):
            if gap.end() >= low:
                candidates.append(gap.end())
                break
    if candidates:
        return min(candidates)
    word = _WORD_GAP.search(text, max(low - 1, start), end)
    # No word starts in the window: no overlap beats one that begins mid-word.
    return word.end() if word is not None else fresh
