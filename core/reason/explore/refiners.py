"""Refiners: decide which abducibles (leaf goals) an exploration keeps.

`truth` keeps a leaf when the working memory holds something close to it (k nearest
neighbours by embedding similarity), `oracle` asks the model True/False about relevance,
`rater` asks for a 0–100 score. Each returns a `Verdict` per leaf; none of them writes
clauses or memory — the recursor turns verdicts into clauses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from string import Template
from typing import TYPE_CHECKING, Protocol

from sym.core.memory.embedders import HashEmbedder, cosine
from sym.core.memory.library import settled_search
from sym.core.reason.explore.items import read_decision, read_pairs, read_score

if TYPE_CHECKING:
    from sym.core.memory.embedders import Embedder
    from sym.core.memory.working import WorkingMemory

SUPPORT_CHARS = 160


@dataclass(frozen=True)
class Verdict:
    kept: bool
    prob: float | None = None       # probability for a probabilistic export
    support: str | None = None      # truth: the text that supports the leaf
    detail: str = ""                # why, in a few words
    flag: str = ""                  # "unreadable" (no usable answer) or "clamped" (score out of range)


@dataclass(frozen=True)
class Leaf:
    atom: str
    label: str
    context: str                    # the path from the top goal, as shown to the model


class Refiner(Protocol):
    name: str

    def appraise(self, leaves: list[Leaf], topic: str) -> list[Verdict]: ...


Ask = Callable[[list[str], str], list[str]]   # (prompts, purpose) -> replies, same order


def _fill(template: str, **values: object) -> str:
    return Template(template).safe_substitute({k: str(v) for k, v in values.items()}).strip()


# -- truth: similarity to the working memory ------------------------------------------

Search = Callable[[str, int], list[tuple[str, float]]]   # (text, k) -> [(text, similarity)], best first


def _support_text(text: str) -> str:
    text = " ".join(text.split()).strip()
    if len(text) <= SUPPORT_CHARS:
        return text
    cut = text[:SUPPORT_CHARS].rsplit(" ", 1)[0]
    return cut + "…"


class TruthRefiner:
    """Keeps a leaf when the mean similarity of its k nearest memory items reaches the
    threshold; the nearest item becomes the leaf's supporting (ground-truth) body."""

    name = "truth"

    def __init__(self, search: Search, *, threshold: float = 0.5, k: int = 3) -> None:
        self.search, self.threshold, self.k = search, threshold, k

    def appraise(self, leaves: list[Leaf], topic: str) -> list[Verdict]:
        out = []
        for leaf in leaves:
            hits = self.search(leaf.label, self.k)[: self.k]
            if not hits:
                out.append(Verdict(False, 0.0, None, "nothing in memory to compare with"))
                continue
            score = sum(s for _, s in hits) / len(hits)
            prob = min(1.0, max(0.0, score))
            support = _support_text(hits[0][0])
            if score >= self.threshold and support:
                out.append(Verdict(True, prob, support, f"similarity {score:.2f} ≥ {self.threshold:g}"))
            else:
                out.append(Verdict(False, prob, None, f"similarity {score:.2f} < {self.threshold:g}"))
        return out


def memory_search(memory: WorkingMemory, *, embedder: Embedder | None = None) -> Search:
    """A `Search` over a working memory: its Chroma store (facts, rules, documents) when it
    has one, else its facts and rules embedded in the process (hash embedder by default)."""
    store = getattr(memory, "store", None)
    if store is not None:
        def via_store(text: str, k: int) -> list[tuple[str, float]]:
            hits = settled_search(store, text, ("facts", "rules", "docs"), k)
            return [(h.meta.get("nl") or h.text, h.score) for h in hits]
        return via_store

    emb = embedder or HashEmbedder()
    texts = [it.nl or it.text for it in memory.items.values()]
    vectors = emb.embed(texts) if texts else []

    def in_process(text: str, k: int) -> list[tuple[str, float]]:
        if not texts:
            return []
        (q,) = emb.embed([text])
        scored = sorted(((cosine(q, v), t) for v, t in zip(vectors, texts)), key=lambda p: -p[0])
        return [(t, s) for s, t in scored[:k]]
    return in_process


# -- oracle and rater: the model judges ---------------------------------------------

DEFAULT_ORACLE = """
Decide whether "$g" is relevant to "$topic".
Answer with the single word True or the single word False.
"""
DEFAULT_RATER = """
How relevant and true is "$g" with respect to "$topic"?
Answer with one whole number from 0 to 100, and nothing else.
"""


class OracleRefiner:
    """The model answers True/False per leaf; an unreadable answer rejects the leaf. With a
    constraint prompt it can also name pairs of kept items that cannot hold together."""

    name = "oracle"

    def __init__(self, ask: Ask, template: str | None = None, constraint_template: str | None = None) -> None:
        self.ask, self.template = ask, template or DEFAULT_ORACLE
        self.constraint_template = constraint_template

    def appraise(self, leaves: list[Leaf], topic: str) -> list[Verdict]:
        prompts = [_fill(self.template, g=leaf.label, context=leaf.context, topic=topic) for leaf in leaves]
        out = []
        for reply in self.ask(prompts, "explore.oracle"):
            decision = read_decision(reply)
            if decision is None:
                out.append(Verdict(False, None, None, f"unreadable oracle answer {_brief(reply)}", "unreadable"))
            else:
                out.append(Verdict(decision, None, None, "oracle: True" if decision else "oracle: False"))
        return out

    def constraints(self, labels: dict[str, str], topic: str) -> list[tuple[str, str]]:
        """Pairs of atoms (from `labels`: atom -> label) that the model says exclude each other."""
        if not self.constraint_template or len(labels) < 2:
            return []
        items = "\n".join(f"- {label}" for label in labels.values())
        (reply,) = self.ask([_fill(self.constraint_template, items=items, topic=topic, g=topic, context=topic)],
                            "explore.constraint")
        return read_pairs(reply, labels)


class RaterRefiner:
    """The model scores each leaf 0–100; score/100 is its probability, kept at or above the
    threshold. Scores outside 0–100 are clamped (and say so); a reply without a number rejects."""

    name = "rater"

    def __init__(self, ask: Ask, template: str | None = None, *, threshold: float = 0.5) -> None:
        self.ask, self.template, self.threshold = ask, template or DEFAULT_RATER, threshold

    def appraise(self, leaves: list[Leaf], topic: str) -> list[Verdict]:
        prompts = [_fill(self.template, g=leaf.label, context=leaf.context, topic=topic) for leaf in leaves]
        out = []
        for reply in self.ask(prompts, "explore.rater"):
            got = read_score(reply)
            if got is None:
                out.append(Verdict(False, None, None, f"no score in rater answer {_brief(reply)}", "unreadable"))
                continue
            score, written = got
            prob = round(score / 100.0, 4)
            note = f"score {score:g}" if score == written else f"score {written:g} out of range, clamped to {score:g}"
            out.append(Verdict(prob >= self.threshold, prob, None, note, "" if score == written else "clamped"))
        return out


def _brief(reply: str, limit: int = 40) -> str:
    text = " ".join(reply.split())
    return repr(text if len(text) <= limit else text[:limit] + "…")
