"""Items of an exploration: reading a model's list reply into phrases, and phrases into atoms.

A reply is read line by line, tolerating numbering, bullets, markdown, preambles and
commentary; a phrase becomes an atom by normalising case, spacing and punctuation, so the
same phrase written twice is one atom. Nothing here calls a model or builds clauses.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# Atoms that would name a built-in of SWI-Prolog 9 (arity 0) once quoted: `'halt'.` in an
# exported program must not stop the Prolog that consults it. Such atoms get a suffix.
PROLOG_BUILTINS = frozenset("""
abolish_all_tables abolish_monotonic_tables abolish_nonincremental_tables abolish_private_tables
abolish_shared_tables abort answer_count_restraint at_end_of_stream attach_packs break compiling
fail false flush_output garbage_collect garbage_collect_atoms garbage_collect_clauses halt initialize
known_licenses license mutex_statistics mutex_unlock_all nl noprotocol notrace print_toplevel_variables
prolog prolog_interrupt radial_restraint reload_library_index repeat reset_profiler seen told trace tracing
trim_heap trim_stacks true ttyflush undefined version listing otherwise not
""".split())
BUILTIN_SUFFIX = " (item)"

_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_APOSTROPHE = re.compile(r"['’‘`´]")
_NON_WORD = re.compile(r"[\W_]+")

# Leading list markers: bullets, "1.", "1)", "(1)", "a)", "iv.", "Step 2:", "#", ">".
_MARKER = re.compile(
    r"""^\s*(?:
        [-*•·+–—>#]+\s*                                   # bullets, quote marks, headings
      | \(?(?:\d{1,3}|[a-z]|[ivx]{1,5})[.)\]:]\s+          # 1.  1)  (1)  a)  iv.
    )""", re.IGNORECASE | re.VERBOSE)
_LABEL_PREFIX = re.compile(
    r"^(?:cause|reason|step|alternative|option|item|consequence|outcome|effect|argument|objection|"
    r"premise|condition|answer|explanation|concept|approach)s?\s*\d*\s*[:.)-]\s*", re.IGNORECASE)
_PREAMBLE = re.compile(
    r"^(?:sure|certainly|of course|okay|ok|here (?:are|is)|below|the following|these are|i hope|note\b|"
    r"as an ai|i (?:can(?:not|'t)?|would|will)|let me|in summary|hope this)", re.IGNORECASE)
_MARKDOWN = re.compile(r"\*\*|__|`+|^\*|\*$")
_MARKUP = re.compile(r"^(?:</?[A-Za-z!?][^>]*>|[{}]|\[\s*[{\[\"\]])")   # HTML/XML tags, JSON: not items

MAX_WORDS = 12
MAX_CHARS = 160


def normalise(text: str) -> str:
    """The atom for a phrase: NFKC, lower case, apostrophes dropped, other punctuation and
    underscores as spaces, single spaces, a leading article dropped. '' if nothing is left."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _APOSTROPHE.sub("", text)
    text = _NON_WORD.sub(" ", text).strip()
    shorter = _ARTICLE.sub("", text)
    return shorter or text


def atom_of(text: str) -> str:
    """`normalise`, with a suffix for the few words that name a Prolog built-in."""
    atom = normalise(text)
    return atom + BUILTIN_SUFFIX if atom in PROLOG_BUILTINS else atom


def clean_label(line: str) -> str:
    """A phrase as shown to people and models: markers, markdown, quotes and a trailing
    full stop removed, spaces collapsed."""
    text = " ".join(line.split())
    for _ in range(3):  # "1. - **Rain**" has stacked markers
        stripped = _MARKER.sub("", text, count=1)
        stripped = _MARKDOWN.sub("", stripped).strip()
        if stripped == text:
            break
        text = stripped
    text = _LABEL_PREFIX.sub("", text)
    text = text.strip().strip("\"'“”‘’").strip()
    return text.rstrip(".;,!").strip()


@dataclass
class Parsed:
    """Phrases read from one reply, in order and de-duplicated by atom, and what was skipped."""

    items: list[tuple[str, str]] = field(default_factory=list)   # (atom, label)
    ignored: list[str] = field(default_factory=list)              # lines that were not items
    repeats: int = 0                                              # lines that repeated an earlier item


def _split_one_line(lines: list[str]) -> list[str]:
    # "rain, wind; snow" on a single line is a list too
    if len(lines) == 1 and re.search(r"[;,]", lines[0]):
        parts = [p for p in re.split(r"\s*[;,]\s*|\s+and\s+", lines[0]) if p.strip()]
        if len(parts) >= 2 and all(len(p.split()) <= 6 for p in parts):
            return parts
    return lines


def _item_text(line: str) -> str | None:
    """The phrase on one line, or None when the line is commentary."""
    text = line.strip()
    if not text or text.startswith("```") or _MARKUP.match(text):
        return None
    if _PREAMBLE.match(clean_label(text) or text):
        return None
    label = clean_label(text)
    if not label or label.endswith(":") or label.endswith("?"):
        return None
    if ":" in label:  # "Greenhouse gases: they trap heat" -> the part before the colon
        label = clean_label(label.split(":", 1)[0])
    dash = re.split(r"\s+[-–—]\s+", label, maxsplit=1)
    if len(dash) == 2 and dash[0]:  # "Deforestation – fewer trees take up CO2"
        label = dash[0].strip()
    if not re.search(r"[^\W\d_]", label):  # no letter at all
        return None
    if len(label) > MAX_CHARS or len(label.split()) > MAX_WORDS:
        return None
    return label


def parse_items(reply: str, limit: int | None = None) -> Parsed:
    """Read a list reply into (atom, label) pairs: one item per line (or one line of commas),
    duplicates by atom merged, at most `limit` items."""
    out = Parsed()
    seen: set[str] = set()
    lines = [ln for ln in reply.replace("\r", "\n").split("\n") if ln.strip()]
    for line in _split_one_line(lines):
        label = _item_text(line)
        atom = atom_of(label) if label else ""
        if not atom or not label:   # (no label, no atom)
            out.ignored.append(line.strip())
            continue
        if atom in seen:
            out.repeats += 1
            continue
        if limit is not None and len(out.items) >= limit:
            out.ignored.append(line.strip())
            continue
        seen.add(atom)
        out.items.append((atom, label))
    return out


_TRUE = re.compile(r"^(?:true|yes|relevant|correct)\b", re.IGNORECASE)
_FALSE = re.compile(r"^(?:false|no|not relevant|irrelevant|incorrect)\b", re.IGNORECASE)


def read_decision(reply: str) -> bool | None:
    """An oracle's True/False answer (True, yes, **False.**, "Answer: True"); None if unreadable."""
    for line in reply.splitlines():
        text = clean_label(line)
        text = re.sub(r"^(?:answer|decision|verdict)\s*[:=-]?\s*", "", text, flags=re.IGNORECASE)
        if not text:
            continue
        if _TRUE.match(text):
            return True
        if _FALSE.match(text):
            return False
        return None
    return None


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?", re.IGNORECASE)


def read_score(reply: str) -> tuple[float, float] | None:
    """A rater's 0–100 score as (score, as written): the first number in the reply, clamped
    into 0–100; None when the reply holds no number."""
    m = _NUMBER.search(reply)
    if m is None:
        return None
    try:
        value = float(m.group(0))
    except ValueError:
        return None
    if value != value:  # NaN
        return None
    clamped = min(100.0, max(0.0, value))
    return clamped, value


def read_pairs(reply: str, known: dict[str, str]) -> list[tuple[str, str]]:
    """Pairs `first ; second` naming known atoms (by their normalised form), for integrity
    constraints; pairs naming anything unknown are dropped."""
    pairs: list[tuple[str, str]] = []
    for line in reply.splitlines():
        parts = re.split(r"\s*(?:;|\|)\s*", clean_label(line))
        if len(parts) != 2:
            continue
        a, b = (atom_of(clean_label(p)) for p in parts)
        if a in known and b in known and a != b and (a, b) not in pairs and (b, a) not in pairs:
            pairs.append((a, b))
    return pairs
