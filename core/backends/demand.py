"""Goal-directed questions on a relational backend: the native engine's magic-set rewriting
(`core/logic/magic.py`), its program compiled and run in tables of the question's own (`q…`).

Until the whole model is asked for (`/infer`), a question whose constants restrict what it needs
(`?- ancestor(ann, X).`) evaluates only that: the rewritten program reads the asserted tables
and writes its own, so the whole model's tables are never touched. A question its constants do
not restrict, or one the rewrite cannot type for SQL, is answered from the whole model instead
(None here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sym.core.backends.compile import RelationalProgram
from sym.core.backends.executor import Catalog
from sym.core.backends.guard import guarded
from sym.core.backends.types import Refused, const_type
from sym.core.logic.magic import Rewrite
from sym.core.logic.terms import Literal, Var

if TYPE_CHECKING:
    from sym.core.backends.engine import RelationalEngine


def goal_rows(engine: RelationalEngine, body: tuple[Literal, ...], named: list[Var]) -> list[tuple[Any, ...]] | None:
    """The answers of `body` from its demand program; None where the whole model should answer."""
    deps = engine.dependencies()
    whole = engine.program()       # the asserted tables, copied and typed
    taken = set(deps.reads) | {k for keys in deps.reads.values() for k in keys} | set(whole.keys)
    demand = Rewrite(deps, taken).demand(tuple(body))
    if not demand.guarded and demand.answer is None:
        return None
    ex = engine.executor
    catalog = Catalog(prefix="q")
    stored = {k: whole.stored[k] for k in demand.keys if k in whole.stored}
    tables = {k: whole.tables[k] for k in stored}
    seeds: dict[str, list[tuple[Any, ...]]] = {}
    for atom in demand.seeds:
        seeds.setdefault(atom.key, []).append(atom.args)
    try:
        for key, rows in seeds.items():
            types = tuple(const_type(v) for v in rows[0])
            if any(tuple(const_type(v) for v in r) != types for r in rows):
                return None
            ex.create_table(catalog.base(key), list(types))
            ex.insert_rows(catalog.base(key), list(dict.fromkeys(rows)), list(types))
            stored[key], tables[key] = types, [catalog.base(key)]
        program = RelationalProgram(demand.rules, ex, catalog, stored, tables)
        goal = body if demand.answer is None else (demand.answer,)
        budget = engine.query_budget()
        with guarded(ex, budget):
            program.run(budget)
            return program.query(tuple(goal), named)
    except Refused:
        return None
