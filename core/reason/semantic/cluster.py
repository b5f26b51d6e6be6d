"""Embeddings put to work: similarity of texts, the nearest of a few choices, and near-duplicate
facts merged by clustering their arguments.

Everything uses the embedder it is given (the workspace's own); nothing here picks a default
model or calls a chat model, so all of it runs offline with an offline embedder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sym.core.logic.terms import Atom
from sym.core.memory.embedders import HashEmbedder, cosine

if TYPE_CHECKING:
    from sym.core.memory.embedders import Embedder
    from sym.core.memory.working import WorkingMemory

ARG_SIMILAR = 0.85      # two argument texts this close (cosine) name the same thing


def workspace_embedder(memory: WorkingMemory) -> Embedder:
    """The embedder of the memory's workspace; for a memory that lives in the process, the
    built-in hash embedder (what its schema uses for near-duplicate predicates)."""
    store = getattr(memory, "store", None)
    if store is not None and getattr(store, "embedder", None) is not None:
        embedder: Embedder = store.embedder
        return embedder

    return HashEmbedder()


def mean(vectors: list[list[float]]) -> list[float]:
    if not vectors:
        return []
    return [sum(col) / len(vectors) for col in zip(*vectors)]


def similarity(embedder: Embedder, a: list[str], b: list[str]) -> float:
    """Cosine of two texts, each given as its chunks (their vectors are averaged)."""
    vectors = embedder.embed([*a, *b])
    return cosine(mean(vectors[:len(a)]), mean(vectors[len(a):]))


def nearest(embedder: Embedder, text: str, choices: list[str]) -> tuple[int, list[float]]:
    """(index of the choice nearest to TEXT, every choice's cosine); ties go to the earlier choice."""
    vectors = embedder.embed([text, *choices])
    scores = [cosine(vectors[0], v) for v in vectors[1:]]
    best = max(range(len(choices)), key=lambda i: (scores[i], -i))
    return best, scores


@dataclass(frozen=True)
class Merged:
    """A fact dropped as a near-duplicate of the one kept."""

    dropped: Atom
    kept: Atom


def _text(value: object) -> str:
    return str(value).replace("_", " ")


def merge_facts(facts: list[Atom], embedder: Embedder, threshold: float = ARG_SIMILAR) -> tuple[list[Atom], int, list[Merged]]:
    """Exact duplicates dropped, then near-duplicates merged: two facts of one predicate whose
    arguments are, position by position, equal or texts at least THRESHOLD alike (numbers only
    when equal). Leader clustering in order, so the first-seen form is kept.
    → (kept facts, exact duplicates dropped, near-duplicates merged)."""
    unique = list(dict.fromkeys(facts))
    exact = len(facts) - len(unique)
    words = sorted({_text(a) for f in unique for a in f.args if isinstance(a, str)})
    vectors = dict(zip(words, embedder.embed(words))) if words else {}

    def same(a: Atom, b: Atom) -> bool:
        if a == b:
            return True
        if not (isinstance(a, str) and isinstance(b, str)):
            return False
        return cosine(vectors[_text(a)], vectors[_text(b)]) >= threshold

    kept: list[Atom] = []
    merged: list[Merged] = []
    for fact in unique:
        leader = next((k for k in kept if k.pred == fact.pred and k.neg == fact.neg and len(k.args) == len(fact.args)
                       and all(same(a, b) for a, b in zip(k.args, fact.args))), None)
        if leader is None:
            kept.append(fact)
        else:
            merged.append(Merged(fact, leader))
    return kept, exact, merged
