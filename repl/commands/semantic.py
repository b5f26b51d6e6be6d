"""Semantic operations (core/reason/semantic): /extract, /classify, /compare, /rank.

Each reads its arguments, calls the operation with the workspace's embedder and returns a
result whose text says, one line per thing, what the model chose and where a fallback was taken.
Only /extract writes memory, after every model call has come back.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from sym.core.errors import UserError
from sym.core.reason.semantic.cluster import workspace_embedder
from sym.core.run import Run
from sym.repl.arguments import Args, Option
from sym.repl.commands.swm import _tell_source
from sym.repl.context import Context
from sym.repl.registry import command
from sym.repl.render import to_text
from sym.repl.results import Failure, Result

if TYPE_CHECKING:
    from sym.core.reason.semantic.extract import Extraction
    from sym.core.reason.semantic.ops import Classification, Comparison, Ranking

# option values run to the next option: --by how sweet it is
FROM = Option("--from", metavar="FILE|DOC", words=True, values="file", help="read a file or a loaded document")
EXTRACT_OPTIONS = (Option("--into", metavar="PRED/N,…", words=True, required=True,
                          help="the predicates to extract, e.g. born_in/2,parent_of/2"), FROM)
CLASSIFY_OPTIONS = (Option("--labels", metavar="A,B,…", words=True, required=True,
                           help="the labels to choose from, separated by , or |"), FROM)
RANK_OPTIONS = (Option("--by", metavar="CRITERION", words=True, required=True, help="what makes an item better"),)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _calls(n: int) -> str:
    return _plural(n, "LLM call")


def _source_text(ctx: Context, run: Run, text: str, ref: str | None, usage: str) -> tuple[str, str, str]:
    """(text, what it is called, memory source) from TEXT or --from FILE|DOC (whose first word
    names it; words after it belong to the text)."""
    if ref is None:
        return text, "", "extract"

    try:
        words = shlex.split(ref)
    except ValueError:
        words = ref.split()
    if not words:
        raise UserError("--from needs a file or document name", hint=usage)
    if len(words) > 1 or text:
        raise UserError("give either TEXT or --from FILE|DOC, not both", hint=usage)
    body, name = _tell_source(ctx, words[0], run.settings.max_file_mb)
    return body, name, f"extract:{name}"


def _embedder(ctx: Context):
    return workspace_embedder(ctx.memory)


# -- /extract ------------------------------------------------------------------------------

@dataclass
class Extracted(Result):
    kind: ClassVar[str] = "extracted"
    extraction: Extraction | None = None
    items: list = field(default_factory=list)       # the memory items added
    known: int = 0                                  # facts memory already held
    notes: list[str] = field(default_factory=list)
    source: str = ""

    def to_dict(self) -> dict:
        x = self.extraction
        return {"predicates": [s.key for s in x.specs], "added": [it.to_dict() for it in self.items],
                "known": self.known, "exact_duplicates": x.exact,
                "merged": [{"dropped": str(m.dropped), "kept": str(m.kept)} for m in x.merged],
                "rejected": [{"fact": r.shown, "reason": r.reason, "chunk": r.chunk + 1} for r in x.rejected],
                "fallback_chunks": [n + 1 for n, c in enumerate(x.chunks) if c.fallback],
                "unread_chunks": [{"chunk": n + 1, "problem": x.chunks[n].problem} for n in x.unread],
                "chunks": len(x.chunks), "llm_calls": x.calls, "notes": self.notes,
                **({"source": self.source} if self.source else {})}


def _extraction_lines(x) -> list[str]:
    many = len(x.chunks) > 1
    lines = []
    for m in x.merged:
        lines.append(f"~ merged {m.dropped} into {m.kept} (near-duplicate by embedding)")
    if x.exact:
        lines.append(f"= {_plural(x.exact, 'repeated fact')} across chunks dropped")
    for r in x.rejected:
        lines.append(f"✗ rejected {r.shown}" + (f" (chunk {r.chunk + 1})" if many else "") + f": {r.reason}")
    for n, c in enumerate(x.chunks):
        where = f"chunk {n + 1}" if many else "the reply"
        if c.fallback:
            lines.append(f"(fallback: {where} still broke the schema after a repair; its valid facts were kept)")
        if c.problem:
            lines.append(f"(fallback: nothing taken from {where}: {c.problem})")
    return lines


@to_text.register
def _(r: Extracted) -> str:
    x = r.extraction
    lines = [f"+ {it.kind} {it.id}: {it.text}" for it in r.items]
    if r.known:
        lines.append(f"= {_plural(r.known, 'fact')} already known")
    if not r.items and not r.known:
        lines.append("no facts of " + ", ".join(s.key for s in x.specs) + " found")
    lines += _extraction_lines(x)
    lines += [f"schema: {note}" for note in r.notes]
    if x.merged:
        lines.append(f"({_plural(len(x.merged), 'near-duplicate')} merged)")
    lines.append(f"({_plural(len(x.chunks), 'chunk')}, {_calls(x.calls)})")
    return "\n".join(lines)


@command("/extract", args="TEXT", options=EXTRACT_OPTIONS, group="semantic")
def extract(ctx: Context, args: Args, run: Run) -> Extracted | Failure:
    """Extract facts of the given predicates from a text, a file or a loaded document, and store them.

    The model picks a predicate from the list and writes each argument as a short string; sym
    turns the strings into constants ("Ada Lovelace" → ada_lovelace, "the red barn" → 'red
    barn'), reads each fact back with the logic parser and names the ones it rejects. A reply
    that breaks the schema gets one repair, then its valid facts are kept (marked fallback).
    Long texts are read chunk by chunk (Esc stops between chunks); repeated and near-duplicate
    facts (by embedding) are merged. Nothing is stored if a model call fails."""
    from sym.core.reason.semantic import extract as ops

    usage = "/extract TEXT --into PRED/N,… | --from FILE|DOC --into PRED/N,…"
    specs = ops.parse_specs(args.into)
    text, _name, source = _source_text(ctx, run, args.text, args["from"], usage)
    if not text.strip():
        raise UserError("nothing to extract from", hint=usage)
    templates = {k: p.template for k, p in ctx.memory.schema.predicates.items() if getattr(p, "template", "")}
    x = ops.extract(text, specs, run, embedder=_embedder(ctx), templates=templates)
    if x.unread and len(x.unread) == len(x.chunks):
        return Failure(f"the model's reply could not be read as facts: {x.chunks[0].problem}"[:300],
                       "try again, or /set model to a stronger model")
    run.check()
    outcome = ops.store(ctx.memory, x, source="llm:" + source, merge=run.settings.schema_merge)
    return Extracted(x, outcome.items, outcome.duplicates, outcome.notes, _name)


# -- /classify -----------------------------------------------------------------------------

@dataclass
class Classified(Result):
    kind: ClassVar[str] = "classified"
    result: Classification | None = None

    def to_dict(self) -> dict:
        c = self.result
        out = {"label": c.label, "labels": c.labels, "fallback": bool(c.fallbacks), "chunks": len(c.chunks),
               "llm_calls": c.calls}
        if len(c.chunks) > 1:
            out["votes"] = c.votes
        if c.fallbacks:
            out["fallback_chunks"] = [{"chunk": n + 1, "label": c.chunks[n].label, "answered": c.chunks[n].answered,
                                       "problem": c.chunks[n].problem, "similarity": round(c.chunks[n].score, 4)}
                                      for n in c.fallbacks]
        return out


@to_text.register
def _(r: Classified) -> str:
    c = r.result
    lines = [c.label]
    many = len(c.chunks) > 1
    for n in c.fallbacks:
        ch = c.chunks[n]
        where = f" in chunk {n + 1}" if many else ""
        to = f"the model's answer {ch.answered!r}" if ch.answered else "the text (the model's reply could not be read)"
        lines.append(f"(fallback{where}: nearest label by embedding to {to}: {ch.label}, {ch.score:.2f})")
    if many:
        votes = ", ".join(f"{label} {n}" for label, n in sorted(c.votes.items(), key=lambda kv: -kv[1]))
        lines.append(f"(votes over {len(c.chunks)} chunks: {votes})")
    lines.append(f"({_calls(c.calls)})")
    return "\n".join(lines)


@command("/classify", args="TEXT", options=CLASSIFY_OPTIONS, group="semantic")
def classify(ctx: Context, args: Args, run: Run) -> Classified:
    """Classify a text as exactly one of the given labels.

    The model chooses from the labels (an enum); an answer outside them gets one repair, then the
    label nearest by embedding to its answer is taken and marked as a fallback. A long text is
    classified chunk by chunk and the chunks vote."""
    from sym.core.reason.semantic.ops import classify as classify_text

    usage = "/classify TEXT --labels A,B,… | --from FILE|DOC --labels A,B,…"
    if not args.labels:
        raise UserError("give the labels with --labels A,B,…", hint=usage)
    labels = [x for x in re.split(r"[,|]", args.labels)]
    from sym.core.reason.semantic.ops import check_labels

    labels = check_labels(labels)
    text, _name, _source = _source_text(ctx, run, args.text, args["from"], usage)
    if not text.strip():
        raise UserError("nothing to classify", hint=usage)
    return Classified(classify_text(text, labels, run, embedder=_embedder(ctx)))


# -- /compare ------------------------------------------------------------------------------

@dataclass
class Compared(Result):
    kind: ClassVar[str] = "compared"
    result: Comparison | None = None

    def to_dict(self) -> dict:
        c = self.result
        out = {"similarity": round(c.similarity, 4), "embedder": c.embedder, "verdict": c.verdict or None,
               "reasons": c.reasons, "fallback": c.fallback, "llm_calls": c.calls}
        if c.problem:
            out["problem"] = c.problem
        if c.clipped:
            out["clipped"] = True
        return out


@to_text.register
def _(r: Compared) -> str:
    c = r.result
    lines = [f"similarity {c.similarity:.2f} (embedding: {c.embedder})"]
    if c.fallback:
        lines.append(f"verdict: none (fallback: the model's judgement broke its schema — {c.problem}; "
                     "embedding similarity only)")
    else:
        lines.append(f"verdict: {c.verdict}")
        lines += [f"  - {reason}" for reason in c.reasons]
    if c.clipped:
        lines.append("(the model judged the first 4000 characters of each text)")
    lines.append(f"({_calls(c.calls)})")
    return "\n".join(lines)


@command("/compare", args="A ||| B", group="semantic")
def compare(ctx: Context, arg: str, run: Run) -> Compared:
    """Compare two texts: their similarity by embedding, and the model's verdict with reasons.

    The verdict is one of equivalent, similar, related, different, contradictory; a judgement that
    breaks that schema gets one repair, then only the similarity is shown (marked as a fallback)."""
    from sym.core.reason.semantic.ops import compare as compare_texts

    if arg.count("|||") != 1:
        raise UserError("separate the two texts with one |||", hint="/compare A ||| B")
    a, _, b = arg.partition("|||")
    if not a.strip() or not b.strip():
        raise UserError("compare needs text on both sides of |||", hint="/compare A ||| B")
    return Compared(compare_texts(a.strip(), b.strip(), run, embedder=_embedder(ctx)))


# -- /rank ---------------------------------------------------------------------------------

@dataclass
class Ranked(Result):
    kind: ClassVar[str] = "ranked"
    result: Ranking | None = None
    criterion: str = ""

    def to_dict(self) -> dict:
        k = self.result
        out = {"criterion": self.criterion, "order": [k.items[i] for i in k.order], "method": k.method,
               "fallback": k.fallback, "llm_calls": k.calls}
        if k.problem:
            out["problem"] = k.problem
        if k.method != "listwise":
            out["scores"] = {k.items[i]: round(k.scores[i], 4) for i in k.order}
        if k.unusable:
            out["unusable_pairs"] = k.unusable
        return out


_FALLBACKS = {"pairwise": "pairwise comparisons", "embedding": "order by embedding similarity to the criterion"}


@to_text.register
def _(r: Ranked) -> str:
    k = r.result
    lines = [f"{n}. {k.items[i]}" for n, i in enumerate(k.order, start=1)]
    if k.fallback:
        why = f"the model's order was rejected: {k.problem}" if k.problem else "the model's order was rejected"
        lines.append(f"(fallback: {_FALLBACKS[k.method]} — {why})")
    if k.unusable:
        lines.append(f"({_plural(k.unusable, 'pair')} the model did not decide, counted as ties)")
    lines.append(f"(by {r.criterion}; {k.method}, {_calls(k.calls)})")
    return "\n".join(lines)


def split_items(text: str) -> list[str]:
    """Items one a line, or separated by |, or by commas or semicolons, or else words (quotes group)."""
    text = text.strip()
    for sep in ("\n", "|"):
        if sep in text:
            return [i.strip() for i in text.split(sep) if i.strip()]
    if "," in text or ";" in text:
        return [i.strip() for i in re.split(r"[,;]", text) if i.strip()]
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


@command("/rank", args="ITEM, ITEM, …", options=RANK_OPTIONS, group="semantic")
def rank(ctx: Context, args: Args, run: Run) -> Ranked:
    """Order items by a criterion, best first: a full order, checked to be a permutation.

    The model gives the order as item numbers (listwise); an order that is not a permutation gets
    one repair, then pairwise comparisons decide (up to 6 items), else the order by embedding
    similarity to the criterion — both marked as fallbacks."""
    from sym.core.reason.semantic.ops import rank as rank_items

    usage = "/rank ITEM, ITEM, … --by CRITERION"
    text = args.text
    criterion = " ".join(args.by.split()).strip("\"'")
    if not criterion:
        raise UserError("rank by what? add --by CRITERION", hint=usage)
    items = split_items(text)
    return Ranked(rank_items(items, criterion, run, embedder=_embedder(ctx)),
                  criterion)
