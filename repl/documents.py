"""Results of the document commands (/search, /docs, /ask --docs) and their plain text, and the
path /ask --docs takes (core.reason.docs_answer does the work).

A search hit shows its fused score, where it comes from (`notes.txt ¶3`, its heading path) and
which rankings found it (keyword, meaning), with a snippet at the best-matching sentence whose
matched words are marked «so»; the JSON form carries the ranks, the snippet and the offsets of
the marked words. Nothing here stores anything; the commands live in repl/commands/memory.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from sym.core.memory.library import DocumentInfo, citation, documents
from sym.core.reason.docs_answer import answer
from sym.core.reason.docs_check import check
from sym.repl.render import search_heading, to_text
from sym.repl.results import Hits, Result, Table

if TYPE_CHECKING:
    from sym.core.reason.docs_answer import DocsAnswer
    from sym.core.reason.swm.outcomes import AskOutcome
    from sym.core.run import Run


@dataclass
class Found(Hits):
    """/search: facts, rules and passages, best first, each with how it was ranked."""

    def to_dict(self) -> dict:
        out = super().to_dict()
        for shown, hit in zip(out["hits"], self.hits):
            ranks = {"keyword_rank": getattr(hit, "keyword_rank", None),
                     "meaning_rank": getattr(hit, "meaning_rank", None),
                     "similarity": _rounded(getattr(hit, "similarity", None)),
                     "bm25": _rounded(getattr(hit, "keyword_score", None))}
            shown.update({k: v for k, v in ranks.items() if v is not None})
            if hit.kind == "docs":
                shown.update({"cite": citation(hit.meta), "heading": hit.meta.get("heading", ""),
                              "snippet": getattr(hit, "snippet", ""),
                              "spans": [list(s) for s in getattr(hit, "spans", ())]})
        return out


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _ranks(hit: object) -> str:
    explain = getattr(hit, "explain", None)
    return explain() if callable(explain) else ""


@to_text.register
def _(r: Found) -> str:
    lines, empty = search_heading(r)
    if empty is not None:
        return empty
    for h in r.hits:
        ranks = _ranks(h)
        if h.kind == "docs":
            heading = h.meta.get("heading") or ""
            where = citation(h.meta) + (f" · {heading}" if heading else "")
            lines.append(f"{h.score:5.2f}  doc  {where}  ({ranks})" if ranks else f"{h.score:5.2f}  doc  {where}")
            snippet = getattr(h, "snippet", "") or " ".join(h.text.split())[:200]
            lines.append(f"       {snippet}")
        else:
            nl = f"    % {h.meta['nl']}" if h.meta.get("nl") else ""
            lines.append(f"{h.score:5.2f}  {h.id}  {h.text}{nl}  [{h.meta.get('source', '')}]"
                         + (f"  ({ranks})" if ranks else ""))
    return "\n".join(lines)


@dataclass
class DocumentTable(Table):
    """/docs: a row per document (name, chunks and size, path); its JSON form lists each whole."""

    documents: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {**super().to_dict(), "documents": self.documents}


def document_table(found: list[DocumentInfo]) -> DocumentTable:
    return DocumentTable("documents" if found else "no documents loaded (/load FILE)",
                         [(d.name, f"{_plural(d.chunks, 'chunk')}, {size(d.chars)}", d.path) for d in found],
                         [d.to_dict() for d in found])


@dataclass
class Preview(Result):
    """/docs show NAME [N]: a document's passages in brief, or one passage whole."""

    kind: ClassVar[str] = "document"
    document: DocumentInfo
    passages: list = field(default_factory=list)     # core.memory.store.Record, in document order
    number: int | None = None                         # the one passage shown whole (from 1)

    def to_dict(self) -> dict:
        shown = self.passages if self.number is None else [self.passages[self.number - 1]]
        return {"document": self.document.to_dict(), "passages": [
            {"cite": citation(p.meta), "id": p.id, "heading": p.meta.get("heading", ""), "text": p.text,
             "start": p.meta.get("start"), "end": p.meta.get("end"),
             "byte_start": p.meta.get("byte_start"), "byte_end": p.meta.get("byte_end")} for p in shown]}


PREVIEWED = 40       # passages /docs show lists before "… and N more"


@to_text.register
def _(r: Preview) -> str:
    d = r.document
    if r.number is not None:
        p = r.passages[r.number - 1]
        heading = p.meta.get("heading") or ""
        where = f"characters {p.meta.get('start')}–{p.meta.get('end')}"
        if p.meta.get("byte_end") is not None:
            where += f", bytes {p.meta.get('byte_start')}–{p.meta.get('byte_end')}"
        return "\n".join([f"{citation(p.meta)} of {len(r.passages)}" + (f" · {heading}" if heading else "")
                          + f" ({where})", p.text])
    lines = [f"{d.name}: {_plural(d.chunks, 'chunk')}, {size(d.chars)} — {d.path}"]
    for p in r.passages[:PREVIEWED]:
        heading = p.meta.get("heading") or ""
        first = " ".join(p.text.split())
        first = first[:90] + ("…" if len(first) > 90 else "")
        lines.append(f"  ¶{int(p.meta.get('index', 0)) + 1:<4} " + (f"[{heading}] " if heading else "") + first)
    if len(r.passages) > PREVIEWED:
        lines.append(f"  … and {len(r.passages) - PREVIEWED} more; /docs show {d.name} N shows passage N")
    return "\n".join(lines)


def size(chars: int) -> str:
    """A size in characters, in words a person reads at a glance: 980 characters, 12.3k characters."""
    if chars < 10_000:
        return f"{chars:,} characters"
    if chars < 1_000_000:
        return f"{chars / 1000:.1f}k characters"
    return f"{chars / 1_000_000:.1f}M characters"


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


# -- /ask --docs -----------------------------------------------------------------------------------

@dataclass
class DocsAnswered(Result):
    """/ask --docs, or an /ask memory could not settle: the passages found and, with a model, its
    answer citing them; verified only when the facts read from the cited passages let the engine
    prove the question (core.reason.docs_check)."""

    kind: ClassVar[str] = "asked"
    outcome: DocsAnswer | None = None
    memory: AskOutcome | None = None  # what memory alone said, when asked first

    def to_dict(self) -> dict:
        out = {"from": "documents", **self.outcome.to_dict()}
        return out | ({"memory": self.memory.to_dict()} if self.memory is not None else {})

    @property
    def verified(self) -> bool:       # read by policy scoring: only what the engine proved
        return bool(self.outcome.verified)

    @property
    def status(self) -> str:
        if self.outcome.verified:
            answer = self.outcome.check.answer
            return answer if answer in ("true", "false") else "solved"
        return "unverified" if self.outcome.text else "passages"


SHOWN_CHARS = 220    # a passage under an answer: its snippet, or its start


@to_text.register
def _(r: DocsAnswered) -> str:
    a, check = r.outcome, r.outcome.check
    lines = []
    if r.memory is not None:
        m = r.memory
        lines.append(f"memory cannot settle it ({m.answer or 'no answer'}"
                     + (f": {m.settle}" if m.settle else "") + "); from the loaded documents:")
    if a.text:
        lines.append(a.text)
        if a.verified:
            lines.append(f"(verified: with the facts read from {', '.join(f'[{c}]' for c in check.read)}, "
                         f"memory derives: {check.answer})")
            lines += ["because:", *[f"  {n}. {s}" for n, s in enumerate(check.steps, start=1)]] if check.steps else []
            lines.append("facts read: " + " ".join(check.facts))
        else:
            why = f"; {check.why_not}" if check is not None and check.why_not else ""
            lines.append(f"(unverified: read from the documents by the model, not proved from memory{why})")
        if a.unknown:
            lines.append(f"(dropped citations of passages not given: {', '.join(f'[{n}]' for n in a.unknown)})")
        lines += ["", "passages:"] if a.passages else []
    elif a.passages:
        lines.append(f"{a.why_no_answer}; the passages that best match the question (not an answer, nothing proved):")
    else:
        lines.append(a.why_no_answer)
    for p in a.passages:
        shown = p.snippet or " ".join(p.text.split())
        shown = shown if len(shown) <= SHOWN_CHARS else shown[:SHOWN_CHARS - 1] + "…"
        lines.append(f"  [{p.cite}] {shown}")
    return "\n".join(lines)


def ask_documents(ctx, question: str, run: Run, memory: AskOutcome | None = None,
                  unanswered: Exception | None = None) -> DocsAnswered:
    """The command path of /ask --docs, and of an /ask memory could not settle (MEMORY: what it
    said): passages for QUESTION, the model's cited answer when one answers (the passages alone
    when none does), checked against the facts read from the passages it cites. `unanswered`: the
    model already failed this run (no model, none reachable): the passages alone, not asked again."""
    def model():
        if unanswered is not None:
            raise unanswered
        return run.llm

    found = answer(question, ctx.memory.store, model if run.has_model else None, k=run.settings.search_k,
                   wait=None if ctx.patient else 2.0, cancel=run.cancel)
    run.check()
    if found.text and found.cited:
        found.check = check(question, found.cited_passages(), ctx.memory, run)
        found.verified = found.check.verified
    return DocsAnswered(found, memory)


def has_documents(ctx) -> bool:
    """Whether the workspace holds a loaded document (an /ask memory cannot settle goes to them)."""
    return bool(ctx.memory.store is not None and documents(ctx.memory.store))
