"""Items to store records and back: what a fact, rule or document chunk looks like in Chroma.

Symbolic forms are stored as their canonical one-line text and read back in bulk through
the logic parser (never evaluated). The embedded text is the NL form when there is one,
else the symbolic form spelled as words, so meaning search finds `father_of(a, b)` by "father".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sym.core.errors import ParseError
from sym.core.logic.parser import _fast_fact, parse_program
from sym.core.logic.terms import Atom, Query, Rule, Var, clause_atoms
from sym.core.memory.embedders import words_of
from sym.core.memory.items import made
from sym.core.memory.store import KINDS, ChromaStore, Record, dumps

if TYPE_CHECKING:
    from sym.core.memory.items import Item
    from sym.core.memory.local import LocalStore
    from sym.core.memory.schema import Schema


def words(text: str) -> str:
    """`fatherOf(joshua, 'Don Q')` -> `father of joshua don q` (the embedder's own word split)."""
    return " ".join(words_of(text))


def kind_of(item_kind: str) -> str:
    return "facts" if item_kind == "fact" else "rules"


def item_record(item: Item) -> Record:
    clause = item.clause
    atom = clause if isinstance(clause, Atom) else clause.head
    meta = {"kind": item.kind, "nl": item.nl, "source": item.source, "created_at": float(item.created_at),
            "pred": atom.pred if atom is not None else "", "arity": len(atom.args) if atom is not None else 0}
    return Record(item.id, item.text, meta)


def clause_words(clause: Atom | Rule | Query) -> str:
    """What a clause is about, as words: its predicates and constants, not its variables
    (`father_of(F, C) :- parent_of(F, C), male(F).` -> `father of parent of male`)."""
    parts = []
    for atom in clause_atoms(clause):
        parts.append(atom.pred)
        parts += [str(a) for a in atom.args if not isinstance(a, Var)]
    return words(" ".join(parts))


def embed_text(item: Item) -> str:
    return item.nl or clause_words(item.clause)   # as embedding_text() for a stored fact or rule


def row_record(iid: str, kind: str, text: str, nl: str, source: str, created_at: float,
               clause: Atom | Rule) -> tuple[Record, str]:
    """A stored item row as its Chroma record and the text its vector is computed from."""
    atom = clause if isinstance(clause, Atom) else clause.head
    meta = {"kind": kind, "nl": nl, "source": source, "created_at": float(created_at),
            "pred": atom.pred if atom is not None else "", "arity": len(atom.args) if atom is not None else 0}
    return Record(iid, text, meta), nl or clause_words(clause)


def save_items(store: ChromaStore | LocalStore, items: list[Item], progress: Callable[[int, int], object] | None = None) -> None:
    """Write items to their collections; on failure nothing of this call stays written.
    A workspace's local store (core.memory.local) takes them in one transaction instead."""
    if not isinstance(store, ChromaStore):
        store.put_items(items, progress)
        return
    for kind in ("facts", "rules"):
        part = [it for it in items if kind_of(it.kind) == kind]
        if not part:
            continue
        try:
            store.add(kind, [item_record(it) for it in part], [embed_text(it) for it in part], progress)
        except Exception:
            if kind == "rules":  # the facts went in already: take them out again
                written = [it.id for it in items if kind_of(it.kind) == "facts"]
                if written:
                    store.delete("facts", written)
            raise


def delete_items(store: ChromaStore | LocalStore, items: list[Item]) -> None:
    if not isinstance(store, ChromaStore):
        store.drop_items(items)
        return
    for kind in ("facts", "rules"):
        ids = [it.id for it in items if kind_of(it.kind) == kind]
        if ids:
            store.delete(kind, ids)


def load_items(store: ChromaStore) -> list[Item]:
    """Every stored fact and rule of a Chroma server's collections as items, oldest first."""
    records = store.all("facts") + store.all("rules")
    records.sort(key=lambda r: (r.meta.get("created_at", 0.0), r.id))
    rows = [(r.id, r.meta.get("kind", "fact"), r.text, r.meta.get("nl", ""), r.meta.get("source", "typed"),
             r.meta.get("created_at", 0.0)) for r in records]
    return items_from_rows(rows, f"workspace {store.workspace}")


def items_from_rows(rows: Sequence[tuple[str, str, str, str, str, float]], label: str) -> list[Item]:
    """Items from stored rows (id, kind, text, nl, source, created_at), in their order: a plain
    fact read by the parser's fast path, the rest in one parse (as one parse of all would read them)."""
    if not rows:
        return []
    texts = [row[2].strip() for row in rows]
    clauses: list[Atom | Rule | Query | None] = [_fast_fact(t) for t in texts]
    rest = [i for i, c in enumerate(clauses) if c is None]
    if rest:
        try:
            located = parse_program("\n".join(texts[i] for i in rest), source=label)
        except ParseError:
            parse_program("\n".join(texts), source=label)    # the error where it is among all of them
            raise
        if len(located) != len(rest):
            raise ValueError("stored clauses did not read back one per record")
        for i, loc in zip(rest, located):
            clauses[i] = loc.clause
    items = []
    for (iid, kind, _, nl, source, at), text, clause in zip(rows, texts, clauses):
        if isinstance(clause, (Atom, Rule)):     # the canonical text it was stored as: not printed again
            items.append(made(iid, kind, clause, nl, source, at, text))
    return items


SCHEMA_ID = "schema"


def save_schema(store: ChromaStore | LocalStore, schema: Schema) -> None:
    """The schema's templates and merges persist as one JSON record (counts are rebuilt from items)."""
    text = dumps(schema.to_dict())
    store.add("schema", [Record(SCHEMA_ID, text, {"kind": "schema"})], ["schema of the workspace"])


def load_templates(store: ChromaStore | LocalStore, schema: Schema) -> None:
    for rec in store.all("schema"):
        if rec.id != SCHEMA_ID:
            continue
        try:
            saved = type(schema).from_dict(json.loads(rec.text))
        except (ValueError, TypeError, KeyError):
            return  # an unreadable schema record loses templates only, never items
        for key, pred in saved.predicates.items():
            if pred.template and key in schema.predicates:
                schema.predicates[key].template = pred.template


def embedding_text(kind: str, rec: Record) -> str:
    """What a stored record's vector is computed from (the same rule `save_items` follows)."""
    if kind in ("facts", "rules"):
        if rec.meta.get("nl"):
            nl: str = rec.meta["nl"]
            return nl
        from sym.core.logic.parser import parse_one

        return clause_words(parse_one(rec.text))
    if kind == "schema":
        return "schema of the workspace"
    return rec.text


def rebuild(store: ChromaStore, new_store: ChromaStore, progress: Callable[[int, int], object] | None = None) -> int:
    """Copy every record into `new_store` (another embedder), embedding all first so that a
    failing embedder leaves the old collections untouched. Returns the records copied."""
    kept = {kind: store.all(kind) for kind in KINDS}
    vectors = {}
    for kind, records in kept.items():
        texts = [embedding_text(kind, r) for r in records]
        vectors[kind] = [v for start in range(0, len(texts), 512)
                         for v in new_store.embedder.embed(texts[start:start + 512])]
    store.drop()
    for kind, records in kept.items():
        new_store.add(kind, records, vectors=vectors[kind], progress=progress)
    return sum(len(r) for r in kept.values())
