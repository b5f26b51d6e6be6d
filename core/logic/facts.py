"""The asserted facts of an engine: insertion-ordered tuple sets per relation, the indexes on them
kept current as facts are added, and the fact sets (and indexes) of another engine read as its
own without copying (a goal model reads its engine's). This room derives nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sym.core.logic.plan import Indexes, Row, Runner, add_to_indexes
from sym.core.logic.terms import Atom, relation_key

Facts = dict[str, dict[tuple[Any, ...], None]]   # relation key -> insertion-ordered set of argument tuples


class FactBase:
    """Asserted facts by relation, this engine's own and those it shares."""

    def __init__(self) -> None:
        self.own: Facts = {}
        self.shared: Facts = {}          # a goal model's: its engine's fact sets
        self.indexes: dict[str, Indexes] = {}   # indexes of own relations, kept current, that goal models share
        self.shared_indexes: dict[str, Indexes] | None = None   # a goal model's: its engine's `indexes`

    def add(self, atoms: Iterable[Atom]) -> dict[str, list[Row]]:
        """Add ground facts; the new ones by relation (in the order first seen)."""
        shape: tuple[str, int, bool] | None = None
        rel: dict[tuple[Any, ...], None] = {}
        news: dict[str, list[Row]] = {}
        rows: list[Row] = []
        base = self.own
        for pred, args, neg in atoms:
            if shape != (pred, len(args), neg):  # runs of one relation skip the key lookup
                shape = (pred, len(args), neg)
                key = relation_key(*shape)
                rel = base.setdefault(key, {})
                rows = news.setdefault(key, [])
            before = len(rel)
            rel.setdefault(args)
            if len(rel) != before:
                rows.append(args)
        news = {k: v for k, v in news.items() if v}
        for key, rows in news.items():
            if key in self.indexes:
                add_to_indexes(self.indexes[key], rows)
        return news

    def remove(self, atom: Atom) -> bool:
        rel = self.own.get(atom.key)
        if not rel or atom.args not in rel:
            return False
        del rel[atom.args]
        self.indexes.pop(atom.key, None)
        return True

    def holds(self, atom: Atom) -> bool:
        return atom.args in self.own.get(atom.key, ()) or atom.args in self.shared.get(atom.key, ())

    def share(self, facts: Mapping[str, dict[tuple[Any, ...], None]], indexes: dict[str, Indexes] | None = None) -> None:
        """Read these fact sets as asserted too, without copying, and the indexes on them that their
        owner keeps current (`indexes`, added to on first use)."""
        self.shared.update(facts)
        if indexes is not None:
            self.shared_indexes = indexes

    def share_indexes(self, runner: Runner, heads: set[str]) -> None:
        """Let `runner` use the owner's indexes of the shared relations no rule derives."""
        if self.shared_indexes is not None:
            for key in self.shared:
                if key not in heads and key in runner.relations:
                    runner.share(key, self.shared_indexes.setdefault(key, {}))

    def all(self) -> Facts:
        """Every asserted relation, own and shared (a relation in both is merged, a copy)."""
        if not self.shared:
            return self.own
        out = dict(self.shared)
        for key, rel in self.own.items():
            out[key] = {**out[key], **rel} if key in out else rel
        return out

    def size(self) -> int:
        return sum(len(v) for v in self.own.values()) + sum(len(v) for v in self.shared.values())

    def keys(self) -> set[str]:
        """The relations that hold a fact."""
        return {k for k, v in self.own.items() if v} | {k for k, v in self.shared.items() if v}
