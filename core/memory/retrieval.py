"""Hybrid retrieval: keyword ranking (BM25) fused with the embedder's ranking, and snippets.

Keyword ranks of passages come from the snapshot's FTS5 index (core.memory.snapshot: no new
dependency, written in the same transaction as the passages) or, where there is none (a Chroma
server's workspace, a sqlite3 without FTS5), from BM25 computed here over the stored passages.
Meaning ranks come from the vector store. The two are fused by weighted reciprocal rank fusion,
so an exact term and a paraphrase both find their passage; each hit says which ranks it had.
This room ranks and quotes; it never writes.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.memory.embedders import STOPWORDS, cosine
from sym.core.memory.store import ChromaStore, Hit, Record

if TYPE_CHECKING:
    from threading import Event
    from typing import TypeAlias

    from sym.core.memory.local import LocalStore

    Store: TypeAlias = ChromaStore | LocalStore

# Reciprocal rank fusion (Cormack et al. 2009) weighted: a keyword rank counts more (k=5) than a
# meaning rank (k=60, the usual constant, and half the weight). Measured on the Python reference
# (benchmarks/retrieval_bench.py): with the built-in embedders the meaning ranking alone put a
# gold passage in its top five for 13-37% (static) or 37-77% (hash) of questions where BM25 did
# for 57-90%, and plain RRF (k=60 both, equal weights) let it push keyword hits out (recall@5 0.73
# against 0.90). So meaning orders what the keywords leave tied and finds what shares no word
# with the question (car → automobiles), and an exact term is not outvoted.
KEYWORD_K, KEYWORD_WEIGHT = 5, 1.0
MEANING_K, MEANING_WEIGHT = 60, 0.5
DEPTH = 50              # how far down each ranking is read before fusing (at least k)
SNIPPET_CHARS = 220
MARK_OPEN, MARK_CLOSE = "«", "»"     # around matched words in a snippet: plain text a renderer may style

_WORD = re.compile(r"[^\W_]+")
_QUERY_STOPWORDS = STOPWORDS | frozenset(
    "how why when where can could should would will i you my me we our your there about into than so "
    "any all some no nor but also just only very more most such own same".split())
# where a sentence ends: after its stop (group p), or before a blank line or a list item
_SPLIT = re.compile(r"(?P<p>[.?!]+[\"')\]]*)\s+|\n[ \t]*\n\s*|\n(?=[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t])")


@dataclass(frozen=True)
class RankedHit(Hit):
    """A hit with the ranks that placed it: `score` is the fused score (1.0 = first in every
    ranking that was read), `similarity` the embedder's cosine where it ranked the hit."""

    keyword_rank: int | None = None
    meaning_rank: int | None = None
    keyword_score: float | None = None     # BM25, higher is better
    similarity: float | None = None
    snippet: str = ""                      # the best-matching sentence, matched words «marked»
    spans: tuple[tuple[int, int], ...] = ()   # the marked words, as offsets in `text`

    def explain(self) -> str:
        """`keyword #1, meaning #3 (0.61)`: which rankings found the hit, where, and the cosine."""
        similar = f" ({self.similarity:.2f})" if self.similarity is not None else ""
        parts = [f"keyword #{self.keyword_rank}" if self.keyword_rank else "",
                 f"meaning #{self.meaning_rank}{similar}" if self.meaning_rank else ""]
        return ", ".join(p for p in parts if p) or "—"


# -- words -------------------------------------------------------------------------------

def stem(word: str) -> str:
    """A light suffix stripper (cars → car, codes → cod = code, running → run, parsed → pars =
    parse): enough to match a query word with its forms in a passage when highlighting, or when
    ranking without FTS5 (whose Porter stemmer does more)."""
    w = word.lower()
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("ly", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not (suffix == "s" and w.endswith("ss")):
            w = w[:-len(suffix)] + keep
            if suffix == "s" and w.endswith("e") and w[-2:-1] in ("s", "x", "z", "h"):
                w = w[:-1]             # classes → class, boxes → box
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]                     # running → runn → run
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]                     # code → cod, as codes and coded
    return w


def query_terms(text: str) -> list[str]:
    """The words of a query worth matching: lower-case, in order, without repeats; function
    words dropped unless nothing else is left."""
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(text)))
    content = [w for w in words if w not in _QUERY_STOPWORDS and len(w) > 1]
    return content or words


def fts_query(terms: Sequence[str]) -> str:
    """An FTS5 query: any of the terms, and the whole phrase (which adds to a passage's score)."""
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms]
    if len(terms) > 1:
        quoted.append('"' + " ".join(terms).replace('"', '""') + '"')
    return " OR ".join(quoted)


# -- the keyword ranking ------------------------------------------------------------------

def keyword_ranking(store: Store, text: str, depth: int = DEPTH) -> list[tuple[Record, float]]:
    """Passages ranked by BM25 for the words of TEXT, best first, with their scores."""
    terms = query_terms(text)
    if not terms:
        return []
    snapshot = getattr(store, "snapshot", None)
    if snapshot is not None and snapshot.count("docs") == 0:
        return []
    if snapshot is not None and snapshot.fts:
        try:
            return list(snapshot.keyword_search(fts_query(terms), depth))
        except sqlite3.OperationalError:     # a query FTS5 will not parse: rank without it
            pass
    return bm25_ranking(store.all("docs"), terms, depth)


def bm25_ranking(records: Sequence[Record], terms: Sequence[str], depth: int = DEPTH, *,
                 k1: float = 1.2, b: float = 0.75) -> list[tuple[Record, float]]:
    """BM25 (Robertson & Zaragoza) over RECORDS' text and heading, the fallback of FTS5: the
    terms, and (as `fts_query` asks) the whole phrase as one more term."""
    wanted = list(dict.fromkeys(stem(t) for t in terms))
    docs = []
    for r in records:
        words = [_stem(w) for w in _WORD.findall(f"{r.meta.get('heading', '')} {r.text}".lower())]
        counts = Counter(words)
        if len(wanted) > 1:
            n = len(wanted)
            counts[" ".join(wanted)] = sum(1 for i in range(len(words) - n + 1) if words[i:i + n] == wanted)
        docs.append((counts, len(words)))
    if not docs:
        return []
    keys = wanted + ([" ".join(wanted)] if len(wanted) > 1 else [])
    average = sum(length for _, length in docs) / len(docs) or 1.0
    frequency = {t: sum(1 for counts, _ in docs if counts.get(t)) for t in keys}
    scored = []
    for record, (counts, length) in zip(records, docs):
        score = 0.0
        for t in keys:
            tf = counts.get(t, 0)
            if tf:
                idf = math.log(1 + (len(docs) - frequency[t] + 0.5) / (frequency[t] + 0.5))
                score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / average))
        if score > 0:
            scored.append((record, score))
    scored.sort(key=lambda pair: -pair[1])
    return scored[:depth]


# -- the meaning ranking and the fusion -----------------------------------------------------

def meaning_ranking(store: Store, text: str, kinds: Iterable[str], depth: int = DEPTH, *,
                    wait: float | None = 2.0, cancel: Event | None = None,
                    progress: Callable[[int, int], object] | None = None) -> list[Hit]:
    """Records nearest TEXT by the workspace's embedder, best first (an embedded workspace waits
    up to `wait` seconds for its background writer first). An embedded workspace's passages come
    without their text (`hybrid_search` reads the few it shows from the snapshot)."""
    if isinstance(store, ChromaStore):
        return store.search(text, kinds, depth)
    return store.search(text, kinds, depth, wait=wait, cancel=cancel, progress=progress, ids_only=("docs",))


def fuse(rankings: Sequence[tuple[Sequence[str], int, float]]) -> list[tuple[str, float]]:
    """Weighted reciprocal rank fusion of (ids best first, k, weight) rankings: an id scores the
    sum of weight / (k + rank) over the rankings that hold it, scaled so that first in every
    ranking that found anything is 1.0. Ties keep the order of the first ranking holding the id."""
    scores: dict[str, float] = {}
    for ranking, k, weight in rankings:
        for rank, iid in enumerate(ranking, start=1):
            scores[iid] = scores.get(iid, 0.0) + weight / (k + rank)
    best = sum(weight / (k + 1) for ranking, k, weight in rankings if ranking) or 1.0
    return sorted(((iid, s / best) for iid, s in scores.items()), key=lambda pair: -pair[1])


def read_depth(k: int) -> int:
    """How deep the keyword ranking is read first for K results: twice K. With the weights above
    any passage in it outscores every passage found by meaning alone while 2K < 117, so 2K decide
    the first K, with the ranks and scores a full read gives; where they do not (`decided`),
    `hybrid_search` reads it to the full depth. The meaning ranking is read to the full depth at
    once: without the passages' text (`meaning_ranking`) Chroma answers 50 as fast as 10."""
    return min(2 * k, full_depth(k))


def full_depth(k: int) -> int:
    """How deep each ranking is read at most for K results."""
    return max(k, DEPTH)


def decided(keyword_ids: Sequence[str], meaning_ids: Sequence[str], fused: Sequence[tuple[str, float]], k: int, *,
            keyword_depth: int, meaning_depth: int) -> bool:
    """Whether the first K of FUSED (the rankings read to these depths) are those of the rankings
    read to the full depth, in the same order. A ranking cut at depth d may hold an id it did not
    show just below it, adding at most weight / (k + d + 1): each fused score is a range, and the
    first K are decided when no range reaches over the one above it (equal scores known exactly
    keep their order: the order of the rankings)."""
    full = full_depth(k)
    best = sum(w / (c + 1) for ids, c, w in ((keyword_ids, KEYWORD_K, KEYWORD_WEIGHT),
                                            (meaning_ids, MEANING_K, MEANING_WEIGHT)) if ids) or 1.0
    more_keyword = KEYWORD_WEIGHT / (KEYWORD_K + keyword_depth + 1) / best \
        if keyword_depth < full and len(keyword_ids) >= keyword_depth else 0.0
    more_meaning = MEANING_WEIGHT / (MEANING_K + meaning_depth + 1) / best \
        if meaning_depth < full and len(meaning_ids) >= meaning_depth else 0.0
    if not more_keyword and not more_meaning:
        return True
    in_keyword, in_meaning = set(keyword_ids), set(meaning_ids)

    def high(iid: str) -> float:     # how much more the id may score at full depth
        return (0.0 if iid in in_keyword else more_keyword) + (0.0 if iid in in_meaning else more_meaning)

    shown, rest = fused[:k], fused[k:]
    unseen = more_keyword + more_meaning      # an id neither ranking showed
    if len(shown) < k:
        return False
    for (_, low), (below, score) in zip(shown, shown[1:]):
        if not _stays_below(score, high(below), low):
            return False
    low = shown[-1][1]
    return unseen < low and all(_stays_below(score, high(iid), low) for iid, score in rest)


def _stays_below(score: float, gap: float, low: float) -> bool:
    """Whether a score that may grow by GAP stays under LOW (or, known exactly, ties it: order kept)."""
    return score + gap < low or (gap == 0.0 and score <= low)


def hybrid_search(store: Store, text: str, kinds: Sequence[str] = ("facts", "rules", "docs"), k: int = 5, *,
                  wait: float | None = 2.0, cancel: Event | None = None,
                  progress: Callable[[int, int], object] | None = None,
                  keyword: bool = True, meaning: bool = True, snippets: bool = True,
                  depth: int | None = None) -> list[RankedHit]:
    """The K best records for TEXT: passages by keyword and by meaning, facts and rules by
    meaning, fused; passages with a snippet (unless `snippets` is False). The keyword ranking is
    read as deep as the first K need (`read_depth`, then the full depth where that did not decide
    them); `depth` reads both rankings that deep. `keyword` / `meaning` False leaves that ranking
    out (the benchmark compares them)."""
    full = full_depth(k) if depth is None else depth
    seen = list(meaning_ranking(store, text, kinds, full, wait=wait, cancel=cancel, progress=progress)) \
        if meaning else []
    meaning_ids = [h.id for h in seen]
    read = read_depth(k) if depth is None else depth
    while True:
        found = keyword_ranking(store, text, read) if keyword and "docs" in kinds else []
        keyword_ids = [r.id for r, _ in found]
        ranked = fuse([(keyword_ids, KEYWORD_K, KEYWORD_WEIGHT), (meaning_ids, MEANING_K, MEANING_WEIGHT)])
        if read >= full or decided(keyword_ids, meaning_ids, ranked, k, keyword_depth=read, meaning_depth=full):
            break
        read = full
    by_meaning = {h.id: (rank, h) for rank, h in enumerate(seen, start=1)}
    by_keyword = {r.id: (rank, r, score) for rank, (r, score) in enumerate(found, start=1)}
    fused = ranked[:k]
    fresh = _stored_passages(store, [iid for iid, _ in fused if iid not in by_keyword
                                     and by_meaning[iid][1].kind == "docs"])
    terms = query_terms(text)
    out: list[RankedHit] = []
    for iid, score in fused:
        m, kw = by_meaning.get(iid), by_keyword.get(iid)
        if kw is not None:
            kind, body, meta = "docs", kw[1].text, kw[1].meta
        else:
            assert m is not None
            hit = m[1]
            kind, body, meta = hit.kind, hit.text, hit.meta
            if kind == "docs":
                if fresh is not None and iid not in fresh:
                    continue                       # removed since the vector store saw it
                if fresh is not None:
                    body, meta = fresh[iid].text, fresh[iid].meta
        out.append(RankedHit(kind, iid, body, meta, score,
                             keyword_rank=kw[0] if kw else None, meaning_rank=m[0] if m else None,
                             keyword_score=kw[2] if kw else None, similarity=m[1].score if m else None))
    if not snippets:
        return out
    return _with_snippets(out, text, terms, getattr(store, "embedder", None) if meaning else None)


SENTENCES_COMPARED = 24     # sentences of one passage weighed by meaning for its snippet


def _with_snippets(hits: list[RankedHit], text: str, terms: Sequence[str], embedder: Any) -> list[RankedHit]:
    """Passages with their snippets: at the sentence holding the most query words, or, where none
    does, at the sentence nearest the query by meaning (one embedding call for all of them)."""
    found = {h.id: matches(h.text, terms) for h in hits if h.kind == "docs"}
    plain = [h for h in hits if h.kind == "docs" and not found[h.id]]
    nearest: dict[str, int] = {}
    if plain and embedder is not None:
        parts = {h.id: sentences(h.text)[:SENTENCES_COMPARED] for h in plain}
        texts = [h.text[s:e] for h in plain for s, e in parts[h.id]]
        try:
            query, *vectors = embedder.embed([text, *texts])
        except UserError:          # no embedder answers: the first sentence will do
            vectors = []
        at = 0
        for h in plain:
            mine = vectors[at:at + len(parts[h.id])]
            at += len(parts[h.id])
            if mine:
                nearest[h.id] = max(range(len(mine)), key=lambda i: cosine(query, mine[i]))
    out = []
    for h in hits:
        if h.kind == "docs":
            snippet, spans = best_snippet(h.text, terms, around=nearest.get(h.id), found=found[h.id])
            h = replace(h, snippet=snippet, spans=spans)
        out.append(h)
    return out


def _stored_passages(store: Store, ids: list[str]) -> dict[str, Record] | None:
    """The store of record's text and metadata of passages the vector store returned (a reloaded
    document's unchanged passages moved: only the snapshot knows where to); None without one."""
    snapshot = getattr(store, "snapshot", None)
    if snapshot is None:
        return None
    return dict(snapshot.records_by_id("docs", ids)) if ids else {}


def with_similarity(hits: Sequence[RankedHit], text: str, embedder: Any) -> list[RankedHit]:
    """HITS scored by cosine similarity to TEXT (for callers that compare with a threshold);
    those only the keyword ranking found are embedded now."""
    missing = [h for h in hits if h.similarity is None]
    if missing:
        query, *vectors = embedder.embed([text, *[h.text for h in missing]])
        found = {h.id: cosine(query, v) for h, v in zip(missing, vectors)}
    else:
        found = {}
    return [replace(h, score=h.similarity if h.similarity is not None else found[h.id]) for h in hits]


# -- snippets -------------------------------------------------------------------------------

def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, paragraph or list item of TEXT, trimmed of spaces."""
    out: list[tuple[int, int]] = []

    def add(start: int, end: int) -> None:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            out.append((start, end))

    at = 0
    for match in _SPLIT.finditer(text):
        add(at, match.end("p") if match.group("p") else match.start())
        at = match.end()
    add(at, len(text))
    return out


_stem = lru_cache(maxsize=1 << 16)(stem)     # a passage's words repeat across hits and queries


def matches(text: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """Offsets of the words of TEXT that match a term (by light stem)."""
    wanted = {stem(t) for t in terms}
    return [m.span() for m in _WORD.finditer(text) if _stem(m.group()) in wanted]


def best_snippet(text: str, terms: Sequence[str], size: int = SNIPPET_CHARS, *, around: int | None = None,
                 found: list[tuple[int, int]] | None = None) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The sentence of TEXT holding the most distinct terms (when none does, sentence AROUND, else
    the first), widened by its neighbours up to SIZE characters or cut around its first match;
    the matched words marked «so». Returns the snippet and the matched words' offsets in TEXT
    (FOUND: those offsets, where the caller has them already)."""
    found = matches(text, terms) if found is None else found
    parts = sentences(text) or [(0, len(text))]

    def weight(span: tuple[int, int]) -> tuple[int, int]:
        inside = [text[s:e].lower() for s, e in found if span[0] <= s < span[1]]
        return len({stem(w) for w in inside}), len(inside)

    if found:
        best = max(range(len(parts)), key=lambda i: (weight(parts[i]), -i))
    else:
        best = around if around is not None and 0 <= around < len(parts) else 0
    start, end = parts[best]
    before, after, grew = best - 1, best + 1, True
    while grew:              # widen with whole neighbouring sentences, one on each side in turn
        grew = False
        if after < len(parts) and parts[after][1] - start <= size:
            end, after, grew = parts[after][1], after + 1, True
        if before >= 0 and end - parts[before][0] <= size:
            start, before, grew = parts[before][0], before - 1, True
    if end - start > size:   # one long sentence: a window around its first match
        first = next((s for s, _ in found if start <= s < end), start)
        start = max(start, min(first - size // 3, end - size))
        start = _word_start(text, start)
        end = _word_end(text, min(end, start + size))
    inside = tuple((s, e) for s, e in found if start <= s and e <= end)
    return _marked(text, start, end, inside), inside


def _word_start(text: str, at: int) -> int:
    while 0 < at < len(text) and not text[at - 1].isspace():
        at += 1
    return at


def _word_end(text: str, at: int) -> int:
    while 0 < at < len(text) and not text[at].isspace():
        at -= 1
    return at


def _marked(text: str, start: int, end: int, spans: Sequence[tuple[int, int]]) -> str:
    out, at = [], start
    for s, e in spans:
        out += [text[at:s], MARK_OPEN, text[s:e], MARK_CLOSE]
        at = e
    out.append(text[at:end])
    shown = " ".join("".join(out).split())
    lead = "…" if start > 0 else ""
    tail = "…" if end < len(text.rstrip()) else ""
    return lead + shown + tail
