"""Passages: cut a document's text where a person would — paragraphs, headings, list items.

Blank lines, Markdown headings (ATX `#`, and a title underlined with `===`, `---`, `***`, …)
and list items are the boundaries; a fenced code block stays whole; a long paragraph is split
at sentence ends to a size bound; a tiny one is merged with its neighbour in the same section.
Each passage is a verbatim slice with its heading path and character and byte offsets. This
room only cuts text: reading files and storing passages live elsewhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sym.core.memory.chunking import chunk_text

Progress = Callable[[int, int], object]   # (characters done, characters in all); it may raise to stop

MAX_CHARS = 1000     # a passage is at most this long, not counting the headings that open it
MIN_CHARS = 50       # a passage shorter than this is merged with its neighbour (same section)
HEADING_SEPARATOR = " › "

_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_ATX = re.compile(r"(#{1,6})(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$")
_UNDERLINE = re.compile(r" {0,3}([=\-*~^#+\"'`])\1{2,}[ \t]*$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_ITEM = re.compile(r"[ \t]{0,8}(?:[-*+•]|\d{1,3}[.)])[ \t]+\S")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")


@dataclass(frozen=True)
class Passage:
    """A verbatim slice `text[start:end]` of a document, under the headings `heading` names."""

    index: int
    text: str
    start: int
    end: int
    heading: str = ""           # "Install › From source": the path of headings above it
    byte_start: int = 0         # the same slice in the UTF-8 bytes of the text
    byte_end: int = 0


@dataclass
class _Block:
    kind: str                   # para, item, code, heading
    start: int
    end: int                    # just past the last non-space character
    level: int = 0              # headings: 1 for the top level
    title: str = ""


def cut_passages(text: str, *, max_chars: int = MAX_CHARS, min_chars: int = MIN_CHARS,
                 progress: Progress | None = None, byte_base: int = 0) -> list[Passage]:
    """TEXT cut into passages (see the module docstring). Byte offsets count from BYTE_BASE (3
    for a file that starts with a UTF-8 byte-order mark). `progress(chars done, chars in all)`
    is called every 500 passages (it may raise to stop)."""
    if not isinstance(max_chars, int) or not isinstance(min_chars, int) or not 0 <= min_chars < max_chars:
        raise ValueError(f"need 0 <= min_chars < max_chars, got {min_chars!r} and {max_chars!r}")
    spans: list[tuple[int, int, str]] = []
    path: list[tuple[int, str]] = []
    opening: int | None = None          # where the headings still waiting for a body begin
    pieces: list[tuple[int, int]] = []
    section = ""

    def flush() -> None:
        nonlocal opening
        for start, end in _merged(pieces, max_chars, min_chars):
            if opening is not None:
                start, opening = opening, None
            spans.append((start, end, section))
            if progress is not None and len(spans) % 500 == 0:
                progress(end, len(text))
        pieces.clear()

    for number, block in enumerate(_blocks(text), start=1):
        if progress is not None and not number % 1000:     # a long run with no heading flushes nothing
            progress(block.start, len(text))
        if block.kind == "heading":
            flush()
            if opening is not None and block.start - opening > max_chars:   # a run of empty sections
                spans.append((opening, _last_end(text, block.start), section))
                opening = None
            opening = block.start if opening is None else opening
            while path and path[-1][0] >= block.level:
                path.pop()
            path.append((block.level, block.title))
            section = HEADING_SEPARATOR.join(title for _, title in path if title)
            continue
        pieces.extend(_split_long(text, block.start, block.end, max_chars))
    flush()
    if opening is not None:             # headings at the very end, with no body
        spans.append((opening, len(text.rstrip()), section))
    if progress is not None:
        progress(len(text), len(text))
    return _with_bytes(text, spans, byte_base, progress)


def _last_end(text: str, before: int) -> int:
    return len(text[:before].rstrip())


def _blocks(text: str) -> Iterator[_Block]:
    """Paragraphs, list items, code fences and headings, in order, each trimmed of spaces (a
    heading counts only at the start of a line: an indented `# x` is a code comment)."""
    out: list[_Block] = []
    current: _Block | None = None
    lines = 0                       # lines in the current paragraph
    fence: str | None = None
    underlines: list[str] = []      # underline characters in order of first use: their levels

    def close() -> None:
        nonlocal current, lines
        if current is not None:
            current.end = _trimmed_end(text, current.start, current.end)
            if current.end > current.start:
                out.append(current)
        current, lines = None, 0

    for match in _LINE.finditer(text):
        if out:
            yield from out
            out.clear()
        start, end = match.span()
        line = match.group().rstrip("\r\n")
        if fence is not None:                              # inside a fenced code block
            assert current is not None
            current.end = end
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
                close()
            continue
        if not line.strip():
            close()
            continue
        lead = len(line) - len(line.lstrip())
        opened = _FENCE.match(line)
        if opened:
            close()
            fence = opened.group(1)
            current = _Block("code", start + lead, end)
            continue
        atx = _ATX.match(line)
        if atx:
            close()
            out.append(_Block("heading", start + lead, start + len(line.rstrip()), len(atx.group(1)),
                              " ".join(atx.group(2).split())))
            continue
        under = _UNDERLINE.match(line)
        if under and current is not None and current.kind == "para" and lines == 1 and \
                current.end - current.start <= 120:
            char = under.group(1)
            if char not in underlines:
                underlines.append(char)
            title = " ".join(text[current.start:current.end].split())
            current = _Block("heading", current.start, start + len(line.rstrip()), underlines.index(char) + 1, title)
            out.append(current)
            current, lines = None, 0
            continue
        if _RULE.match(line):                              # a thematic break separates, belongs to no passage
            close()
            continue
        if _ITEM.match(line) or current is None:
            close()
            current = _Block("item" if _ITEM.match(line) else "para", start + lead, end)
        current.end = end
        lines += 1
    if fence is not None and current is not None:         # an unclosed fence runs to the end
        current.end = len(text)
    close()
    yield from out


def _trimmed_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _split_long(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """A block as one piece, or, longer than MAX_CHARS, as balanced pieces cut at sentence ends
    (word ends inside a sentence that will not fit)."""
    if end - start <= max_chars:
        return [(start, end)]
    pieces = math.ceil((end - start) / max_chars)
    size = min(max_chars, math.ceil((end - start) / pieces * 1.15))
    return [(start + c.start, start + c.end) for c in chunk_text(text[start:end], max_chars=size, overlap=0)]


def _merged(pieces: list[tuple[int, int]], max_chars: int, min_chars: int) -> list[tuple[int, int]]:
    """Pieces of one section, a tiny one joined to the one after it (or, last, to the one before)
    while the two fit in MAX_CHARS."""
    out: list[tuple[int, int]] = []
    for start, end in pieces:
        if out:
            first, last = out[-1]
            tail = (start, end) == pieces[-1] and end - start < min_chars
            if (last - first < min_chars or tail) and end - first <= max_chars:
                out[-1] = (first, end)
                continue
        out.append((start, end))
    return out


def _with_bytes(text: str, spans: list[tuple[int, int, str]], base: int,
                progress: Progress | None = None) -> list[Passage]:
    """Passages with byte offsets, found in one pass over the text (UTF-8, as files are read);
    `progress` is called every 5,000 passages (it may raise to stop)."""
    where: dict[int, int] | None = None
    if not text.isascii():
        marks = sorted({p for s, e, _ in spans for p in (s, e)})
        where, done, at = {}, 0, 0
        for mark in marks:
            done += len(text[at:mark].encode("utf-8", "surrogatepass"))
            where[mark], at = done, mark
    out = []
    for i, (s, e, h) in enumerate(spans):
        if progress is not None and i and not i % 5_000:
            progress(e, len(text))
        out.append(Passage(i, text[s:e], s, e, h, base + (where[s] if where is not None else s),
                           base + (where[e] if where is not None else e)))
    return out
