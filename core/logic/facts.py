"""The asserted facts of an engine: insertion-ordered tuple sets per relation, the indexes on them
kept current as facts are added, the fact sets (and indexes) of another engine read as its own
without copying (a goal model reads its engine's), and, once the facts are many, the same facts
as id columns, encoded as they are added, for the dense path to read. This room derives nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import filterfalse, groupby, islice
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sym.core.logic.plan import Indexes, Row, Runner, add_to_indexes
from sym.core.logic.terms import Atom, relation_key

if TYPE_CHECKING:
    from sym.core.logic.columnar import Columns, Symbols

Facts = dict[str, dict[tuple[Any, ...], None]]   # relation key -> insertion-ordered set of argument tuples

_pred, _args, _neg = itemgetter(0), itemgetter(1), itemgetter(2)


class FactBase:
    """Asserted facts by relation, this engine's own and those it shares."""

    def __init__(self) -> None:
        self.own: Facts = {}
        self.shared: Facts = {}          # a goal model's: its engine's fact sets
        self.indexes: dict[str, Indexes] = {}   # indexes of own relations, kept current, that goal models share
        self.shared_indexes: dict[str, Indexes] | None = None   # a goal model's: its engine's `indexes`
        self.symbols: Symbols | None = None      # set by `encode`: the ids of the values in `columns`
        self.columns: dict[str, Columns] = {}    # own relations' facts as ids, each a prefix of its set

    def add(self, atoms: Iterable[Atom]) -> dict[str, list[Row]]:
        """Add ground facts; the new ones by relation (in the order first seen)."""
        news: dict[str, list[Row]] = {}
        base = self.own
        for pred, run in groupby(atoms, _pred):
            atoms_here = list(run)
            args = list(map(_args, atoms_here))
            if any(map(_neg, atoms_here)) or len(set(map(len, args))) != 1:
                self._add_each(atoms_here, news)
                continue
            key = relation_key(pred, len(args[0]), False)    # a run of one relation: added in C loops
            fresh = dict.fromkeys(args)
            rel = base.get(key)
            if rel is None:
                base[key] = fresh    # a new relation: its set is the run's (nothing else holds one)
            else:
                if rel:
                    fresh = dict.fromkeys(filterfalse(rel.__contains__, fresh))
                rel.update(fresh)
            news.setdefault(key, []).extend(fresh)
        news = {k: v for k, v in news.items() if v}
        for key, rows in news.items():
            if key in self.indexes:
                add_to_indexes(self.indexes[key], rows)
        return news

    def _add_each(self, atoms: list[Atom], news: dict[str, list[Row]]) -> None:
        shape: tuple[str, int, bool] | None = None
        rel: dict[tuple[Any, ...], None] = {}
        rows: list[Row] = []
        for pred, args, neg in atoms:
            if shape != (pred, len(args), neg):
                shape = (pred, len(args), neg)
                key = relation_key(*shape)
                rel = self.own.setdefault(key, {})
                rows = news.setdefault(key, [])
            before = len(rel)
            rel.setdefault(args)
            if len(rel) != before:
                rows.append(args)

    def remove(self, atom: Atom) -> bool:
        rel = self.own.get(atom.key)
        if not rel or atom.args not in rel:
            return False
        del rel[atom.args]
        self.indexes.pop(atom.key, None)
        self.columns.pop(atom.key, None)   # encoded again when next read
        return True

    def encode(self, news: Mapping[str, list[Row]] | None = None) -> None:
        """Keep own relations as id columns from now on: bring those just added to (`news`, in the
        order added), or all of them, up to date."""
        from sym.core.logic.columnar import Columns, Symbols, release_freed

        if self.symbols is None:
            self.symbols, news = Symbols(), None
        symbols, encoded = self.symbols, 0
        for key in self.own if news is None else news:
            rel = self.own[key]
            cols = self.columns.get(key)
            if cols is None:
                cols = self.columns[key] = Columns(int(key[key.rindex("/") + 1:]))
            if cols.n == len(rel):
                continue
            rows = news[key] if news is not None and cols.n + len(news[key]) == len(rel) else list(islice(rel, cols.n, None))
            cols.append(symbols.encode_rows(rows, cols.arity), len(rows))
            encoded += len(rows)
        if encoded >= 1 << 17:
            release_freed()   # the temporaries of a large batch

    def encoded(self) -> tuple[Symbols | None, dict[str, Columns]]:
        """The ids, and the columns of the relations `all()` gives exactly as they are encoded."""
        if self.symbols is None:
            return None, {}
        own, shared = self.own, self.shared
        return self.symbols, {k: c for k, c in self.columns.items() if k not in shared and c.n == len(own.get(k, ()))}

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
