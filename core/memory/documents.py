"""Documents: find and read .txt, .md and .pdf files, and cut their text into passages.

A document is cut where a person would (core.memory.passages; core.memory.chunking is the plain
size-bounded cutter other rooms use for long inputs). Every passage or chunk is a verbatim slice
of the text with its offsets, so what is retrieved can always be traced back to its source.
A URL is refused, never read as a file name: nothing is downloaded. Embedding and storage live
elsewhere; this room only finds, reads and cuts.
"""

from __future__ import annotations

import codecs
import glob
import hashlib
import io
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.files import DEFAULT_LIMIT_MB, check_file
from sym.core.memory.passages import MAX_CHARS, MIN_CHARS, Passage, cut_passages

if TYPE_CHECKING:
    from pypdf import PdfReader

Progress = Callable[[int, int], object]   # (characters done, characters in all); it may raise to stop

TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown"})
FOLDER_SUFFIXES = TEXT_SUFFIXES | {".pdf"}     # what loading a folder picks up
MAX_FILES = 2000                               # files one folder or pattern may load at once
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_PATTERN = re.compile(r"[*?\[]")


@dataclass(frozen=True)
class Document:
    """A loaded document: where it came from, how long it is, and its passages."""

    id: str
    path: str
    name: str
    chars: int
    passages: list[Passage]
    digest: str = ""            # of its text: an unchanged file reloads as unchanged


def is_url(name: str) -> bool:
    """Whether a name given for a file is a URL (http://…, file://…, or www.… that is no file)."""
    name = name.strip()
    return bool(_URL.match(name)) or (name.lower().startswith("www.") and not os.path.lexists(name))


def refuse_url(name: str) -> None:
    """Raise the one-line refusal of a URL given for a file: nothing is ever downloaded."""
    if is_url(name):
        shown = name if len(name) <= 60 else name[:57] + "…"
        raise UserError(f"{shown} is a URL: documents are read from files on this machine, nothing is downloaded",
                        hint="save the page as a file first, then load that file")


def document_paths(spec: str, base_dir: Path | None = None) -> list[tuple[Path, str]] | None:
    """The files a folder or a glob pattern names, sorted, each with its document name: its path
    from the folder (or from the pattern's fixed start), so `a/notes.md` and `b/notes.md` stay
    apart. A folder gives its .txt/.md/.pdf files at any depth, hidden ones left out. None when
    SPEC is neither (a single file)."""
    refuse_url(spec)
    shown = spec if len(spec) <= 60 else spec[:57] + "…"
    expanded = os.path.expanduser(spec)
    if _PATTERN.search(spec) and not os.path.lexists(expanded):
        roots = [Path(expanded)] if os.path.isabs(expanded) or base_dir is None else [Path(expanded), base_dir / expanded]
        found: list[Path] = []
        for root in roots:
            found = sorted(Path(p) for p in glob.glob(str(root), recursive=True) if os.path.isfile(p))
            if found:
                fixed = Path(*[part for part in _fixed_start(root.parts)]) if root.parts else Path(".")
                break
        if not found:
            raise UserError(f"no files match {shown}", hint="check the pattern, e.g. /load 'notes/*.md'")
        return _bounded([(p, os.path.relpath(p, fixed)) for p in found], shown)
    folder = Path(expanded)
    if not os.path.isdir(folder) and base_dir is not None and not folder.is_absolute() \
            and os.path.isdir(base_dir / folder):
        folder = base_dir / folder
    if not os.path.isdir(folder):      # (False for a name the OS refuses: reading it says why)
        return None
    files = _folder_files(folder, shown)
    if not files:
        raise UserError(f"{shown} holds no .txt, .md or .pdf files")
    return _bounded([(p, p.relative_to(folder).as_posix()) for p in files], shown)


MAX_SCAN = 50_000      # entries a folder load looks at before it says the folder is too big


def _folder_files(folder: Path, shown: str) -> list[Path]:
    """The .txt/.md/.pdf files under `folder`, hidden ones and hidden folders left out, sorted. An
    entry that vanishes or cannot be read while the walk runs is skipped (/proc, a busy folder); a
    walk past MAX_SCAN entries is refused."""
    out: list[Path] = []
    seen = 0
    for root, dirs, names in os.walk(folder, onerror=lambda _err: None):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        seen += len(names) + len(dirs)
        if seen > MAX_SCAN:
            raise UserError(f"{shown} holds more than {MAX_SCAN:,} entries",
                            hint="load a smaller folder, or a pattern such as 'notes/**/*.md'")
        out += [Path(root) / n for n in names if not n.startswith(".") and Path(n).suffix.lower() in FOLDER_SUFFIXES
                and (Path(root) / n).is_file()]
    return sorted(out)


def _fixed_start(parts: tuple[str, ...]) -> list[str]:
    """The parts of a pattern's path before its first wildcard, the file name part excluded."""
    out = []
    for part in parts[:-1]:
        if _PATTERN.search(part):
            break
        out.append(part)
    return out


def _bounded(files: list[tuple[Path, str]], shown: str) -> list[tuple[Path, str]]:
    if len(files) > MAX_FILES:
        raise UserError(f"{shown} names {len(files):,} files; at most {MAX_FILES:,} load at once",
                        hint="narrow it with a pattern, e.g. /load 'docs/**/*.md'")
    return files


def read_document(path: Path, limit_mb: float = DEFAULT_LIMIT_MB) -> str:
    """The text of a .txt/.md (UTF-8) or .pdf file; any other file only if it is UTF-8 text."""
    return _read(Path(path), limit_mb)[0]


PIECE = 4 << 20       # bytes read and decoded between two progress (and so cancel) checks


def _read(path: Path, limit_mb: float, progress: Progress | None = None) -> tuple[str, int]:
    """(the text, where it starts in the file's bytes: 3 after a UTF-8 byte-order mark). A long
    file is read and decoded in pieces, with `progress(0, bytes)` between (it may raise to stop)."""
    path = Path(path).expanduser()
    check_file(path, limit_mb)   # regular files only (a FIFO or device never ends), size-capped
    try:
        data = _read_bytes(path, progress)
    except PermissionError:
        raise UserError(f"cannot read {path}: permission denied") from None
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror or error}") from None

    if not data or data.isspace():
        raise UserError(f"{path} is empty")
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        pdf_text = _pdf_text(path, data)
        if not pdf_text.strip():
            raise UserError(f"{path} has no extractable text", hint="a scanned PDF needs OCR first")
        return pdf_text, 0
    text = _utf8_text(data, progress)
    if text is None and suffix in TEXT_SUFFIXES:
        hint = "convert it to UTF-8" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else None
        raise UserError(f"{path} is not UTF-8 text", hint=hint)
    if text is None:
        raise UserError(f"{path} looks binary", hint="load .txt, .md or .pdf files")
    if not text or text.isspace():
        raise UserError(f"{path} is empty")
    return text, len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0


def _read_bytes(path: Path, progress: Progress | None) -> bytes:
    if progress is None:
        return path.read_bytes()
    pieces: list[bytes] = []
    size = max(path.stat().st_size, 1)
    with open(path, "rb") as f:
        while piece := f.read(PIECE):
            pieces.append(piece)
            progress(0, size)           # (0: reading is not yet cutting; the count starts there)
    return b"".join(pieces)


def _utf8_text(data: bytes, progress: Progress | None = None) -> str | None:
    """DATA as text when it is UTF-8 (a BOM allowed) without NUL bytes, else None."""
    if b"\0" in data:   # valid UTF-8, but only binaries and UTF-16 files carry NULs
        return None
    try:
        if progress is None or len(data) <= PIECE:
            return data.decode("utf-8-sig")
        decoder = codecs.getincrementaldecoder("utf-8-sig")()
        parts: list[str] = []
        for start in range(0, len(data), PIECE):
            parts.append(decoder.decode(data[start:start + PIECE], final=start + PIECE >= len(data)))
            progress(0, len(data))
        return "".join(parts)
    except UnicodeDecodeError:
        return None


def _pdf_text(path: Path, data: bytes) -> str:
    try:
        import pypdf
    except ImportError:
        raise UserError("reading PDF needs pypdf", hint="pip install 'sym-shell[pdf]'") from None
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not _decrypts_without_password(reader):
            raise UserError(f"{path} is encrypted", hint="decrypt it first, e.g. qpdf --decrypt")
        # Pages become paragraphs, so a chunk never glues the end of one page to the next.
        return "\n\n".join((page.extract_text() or "").strip() for page in reader.pages)
    except UserError:
        raise
    except Exception as error:  # pypdf raises many kinds (ValueError, KeyError, ...) on bad files
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise UserError(f"{path} is not a readable PDF: {reason}") from None


def _decrypts_without_password(reader: PdfReader) -> bool:
    try:  # many "encrypted" PDFs only restrict printing and open with an empty password
        return bool(reader.decrypt(""))
    except Exception:  # e.g. AES without the `cryptography` package
        return False



def document_id(path: Path) -> str:
    """A stable id from the file's resolved absolute path: loading it again replaces its chunks."""
    resolved = str(Path(path).expanduser().resolve())
    return "d" + hashlib.sha1(resolved.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def passage_ids(doc_id: str, passages: list[Passage], progress: Progress | None = None) -> list[str]:
    """Ids of a document's passages from their text: a reloaded file's unchanged passages keep
    theirs, so only what changed is stored (and embedded) again. A repeated text gets -2, -3, …
    `progress(passages done, passages in all)` is called every 5,000 (it may raise to stop)."""
    seen: dict[str, int] = {}
    out = []
    for n, p in enumerate(passages):
        if progress is not None and n and not n % 5_000:
            progress(n, len(passages))
        digest = hashlib.sha1(p.text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        seen[digest] = seen.get(digest, 0) + 1
        out.append(f"{doc_id}:{digest}" + (f"-{seen[digest]}" if seen[digest] > 1 else ""))
    return out


def load_document(path: Path, *, max_chars: int = MAX_CHARS, min_chars: int = MIN_CHARS,
                  limit_mb: float = DEFAULT_LIMIT_MB, progress: Progress | None = None,
                  name: str | None = None) -> Document:
    """Read PATH and cut it into passages; their offsets index the text `read_document` returns
    (characters) and the file (bytes; for a PDF, the UTF-8 of its extracted text). NAME (default:
    the file's name) is how the document is cited."""
    path = Path(path)
    text, byte_base = _read(path, limit_mb, progress)
    if progress is not None:
        progress(0, len(text))
    passages = cut_passages(text, max_chars=max_chars, min_chars=min_chars, progress=progress, byte_base=byte_base)
    if progress is not None:
        progress(len(text), len(text))      # (cancel is checked here: hashing a long text takes a while)
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
    return Document(id=document_id(path), path=str(path.expanduser().resolve()), name=name or path.name,
                    chars=len(text), passages=passages, digest=digest)
