"""A stratified program compiled once to relational plans, and run on an `Executor`.

Strongly connected components of the rules are evaluated dependencies first, each into the model
table of its relations (`m<n>`: asserted rows and derived ones): a component without recursion is
one `CREATE TABLE … AS SELECT … UNION SELECT …`; a single relation recursing linearly, with no
arithmetic that could feed it new values, is one `WITH RECURSIVE … UNION` where the dialect's
recursive CTE is set-based (DuckDB); any other recursion (non-linear, mutual, arithmetic, and every
recursion on Spark) runs the semi-naive loop from Python over delta tables: each round, one query
per rule and recursive atom read from the last delta (the database orders that variant's joins),
minus what is known. `not` and aggregates read lower components only (stratification), as NOT
EXISTS and LATERAL subqueries. Every round checks the run's budget (cancel, deadline, fact cap).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sym.core.backends.executor import Catalog, Executor, columns
from sym.core.backends.sql import Body, Compiler, Empty, Frag, cat, join
from sym.core.backends.types import Refused, infer
from sym.core.logic.pause import Budget
from sym.core.logic.strata import _stratified
from sym.core.logic.terms import Aggregate, Atom, Is, Literal, Rule, Var, clause_atoms, relation_key


@dataclass
class Component:
    keys: list[str]                     # the relations it derives
    rules: list[tuple[int, Rule]]       # (rule number, rule) of those heads
    recursive: bool


def components(rules: list[Rule]) -> list[Component]:
    """The program's components with rules, dependencies first."""
    _levels, _graph, comps = _stratified(rules)
    heads: dict[str, list[tuple[int, Rule]]] = {}
    for n, rule in enumerate(rules):
        if rule.head is not None:
            heads.setdefault(rule.head.key, []).append((n, rule))
    out = []
    for comp in comps:
        keys = [k for k in comp if k in heads]
        if not keys:
            continue
        members = set(keys)
        mine = [r for k in keys for r in heads[k]]
        recursive = len(keys) > 1 or any(a.key in members for _, r in mine for a in _atoms(r))
        out.append(Component(keys, mine, recursive))
    return out


def _atoms(rule: Rule) -> list[Atom]:
    return [lit for lit in rule.body if isinstance(lit, Atom)]


class RelationalProgram:
    """Rules (by id) compiled against stored relations; `run` materialises the model tables."""

    def __init__(self, rules: Mapping[str, Rule], executor: Executor, catalog: Catalog,
                 stored: Mapping[str, Sequence[str | None]], tables: Mapping[str, list[str]] | None = None) -> None:
        self.ids = list(rules)
        self.rules = [rules[i] for i in self.ids]
        self.executor, self.catalog = executor, catalog
        self.dialect = executor.dialect
        self.stored = dict(stored)              # asserted relations: key -> stored logical types
        self.tables = dict(tables) if tables is not None else {k: [catalog.base(k)] for k in stored}
        self.derived = {r.head.key for r in self.rules if r.head is not None}
        self.keys = self.derived | set(self.stored) | {a.key for r in self.rules for a in _all_atoms(r.body)}
        self.types = infer(self.rules, self.stored, self.keys)
        self.parts = components([r for r in self.rules if r.head is not None])
        self.steps = 0

    # -- where a relation is read ------------------------------------------------

    def column_type(self, key: str, i: int) -> str:
        return self.types.column(key, i)

    def col_types(self, key: str) -> list[str]:
        return [self.column_type(key, i) for i in range(int(key.rsplit("/", 1)[1]))]

    def base_source(self, key: str) -> Frag:
        """The asserted rows of a relation, in the program's column types."""
        q = self.dialect.quote
        want = self.col_types(key)
        cols = columns(len(want))
        if key not in self.stored:
            empty = [f"CAST(NULL AS {self.dialect.type_of(t)}) AS {c}" for t, c in zip(want, cols)] or ["1 AS one"]
            return Frag(f"(SELECT {', '.join(empty)} WHERE FALSE)")
        have = list(self.stored[key])
        tables = self.tables[key]
        if len(tables) == 1 and all(h in (None, w) for h, w in zip(have, want)) and cols:
            return Frag(q(tables[0]))
        picks = [c if h in (None, w) else f"CAST({c} AS {self.dialect.type_of(w)}) AS {c}"
                 for h, w, c in zip(have, want, cols)] or ["1 AS one"]
        selects = [f"SELECT {', '.join(picks)} FROM {q(t)}" for t in tables]
        return Frag(f"({' UNION '.join(selects)})")

    def source(self, key: str) -> Frag:
        """Where the model of a relation is read once its component is done."""
        if key in self.derived:
            return Frag(self.dialect.quote(self.catalog.model(key)))
        return self.base_source(key)

    def compiler(self, n: int | None, reads: Any = None) -> Compiler:
        """A body compiler for rule `n` (None: a query, whose variables are typed as rule -1)."""
        number = -1 if n is None else n
        var_type = lambda v: self.types.var(number, v)  # noqa: E731

        def at(key: str, index: int | None) -> Frag:
            return reads(key, index) if reads is not None else self.source(key)
        return Compiler(self.dialect, at, var_type, self.column_type)

    # -- SQL of rules --------------------------------------------------------------

    def head_select(self, n: int, rule: Rule, compiler: Compiler, delta_at: int | None = None) -> Frag | None:
        """`SELECT head args FROM body`, or None where the body can have no rows."""
        assert rule.head is not None
        try:
            body = compiler.body(rule.body, delta_at=delta_at)
        except Empty:
            return None
        return cat("SELECT ", self.projection(rule.head, body, compiler, n), body.clauses())

    def projection(self, head: Atom, body: Body, compiler: Compiler, n: int) -> Frag:
        picks = []
        for i, arg in enumerate(head.args):
            logical = self.column_type(head.key, i)
            if isinstance(arg, Var):
                if arg not in body.vars:
                    raise Refused(f"{self.rules[n]}: {arg.name} in the head is not bound by the body")
                value = body.vars[arg]
                if self.types.var(n, arg) != logical:
                    value = cat("CAST(", value, f" AS {self.dialect.type_of(logical)})")
                picks.append(cat(value, f" AS c{i}"))
            else:
                picks.append(cat(compiler.param(arg, logical), f" AS c{i}"))
        return join(picks, ", ") if picks else Frag("1 AS one")

    def base_select(self, key: str) -> Frag:
        cols = columns(int(key.rsplit("/", 1)[1]))
        return cat(f"SELECT {', '.join(cols) or '1 AS one'} FROM ", self.base_source(key), " AS s")

    # -- running -----------------------------------------------------------------

    def run(self, budget: Budget) -> int:
        """Materialise every derived relation; returns how many facts were derived."""
        self.steps = 0
        derived = 0
        for part in self.parts:
            budget.check(derived)
            if not part.recursive:
                (key,) = part.keys
                derived += self._plain(key, part)
            elif len(part.keys) == 1 and self.dialect.recursive_cte and self._linear(part):
                derived += self._cte(part.keys[0], part)
            else:
                derived += self._semi_naive(part, budget, derived)
            budget.check(derived)
        return derived

    def _count_new(self, key: str) -> int:
        if key in self.stored and len(self.tables[key]) == 1:
            base = self.executor.count(self.tables[key][0])
        elif key in self.stored:
            base = int(self.executor.fetch(f"SELECT count(*) FROM {self.base_source(key).sql} AS s")[0][0])
        else:
            base = 0
        return self.executor.count(self.catalog.model(key)) - base

    def _plain(self, key: str, part: Component) -> int:
        self.steps += 1
        selects = [self.base_select(key)]
        for n, rule in part.rules:
            found = self.head_select(n, rule, self.compiler(n))
            if found is not None:
                selects.append(found)
        self.executor.create_table_as(self.catalog.model(key), join(selects, " UNION ").sql, join(selects, "").params)
        return self._count_new(key)

    def _linear(self, part: Component) -> bool:
        members = set(part.keys)
        for _, rule in part.rules:
            if sum(a.key in members for a in _atoms(rule)) > 1:
                return False
            if any(a.key in members for a in _atoms(rule)) and any(isinstance(lit, (Is, Aggregate)) for lit in rule.body):
                return False
        return True

    def _cte(self, key: str, part: Component) -> int:
        self.steps += 1
        q = self.dialect.quote
        cte = q("rec")
        anchor = [self.base_select(key)]
        steps: list[Frag] = []
        for n, rule in part.rules:
            recursive = any(a.key == key for a in _atoms(rule))
            reads = (lambda k, i: Frag(cte) if k == key else self.source(k)) if recursive else None
            found = self.head_select(n, rule, self.compiler(n, reads))
            if found is not None:
                (steps if recursive else anchor).append(found)
        cols = ", ".join(columns(int(key.rsplit("/", 1)[1]))) or "one"
        body = join(anchor, " UNION ")
        if steps:
            body = cat("WITH RECURSIVE ", cte, f"({cols}) AS (", body, " UNION (", join(steps, " UNION ALL "),
                       ")) SELECT * FROM ", cte)
        self.executor.create_table_as(self.catalog.model(key), body.sql, body.params)
        return self._count_new(key)

    def _semi_naive(self, part: Component, budget: Budget, before: int) -> int:
        members = set(part.keys)
        ex, cat_ = self.executor, self.catalog
        q = self.dialect.quote
        for key in part.keys:     # the rows that need no recursive atom, and the first delta
            selects = [self.base_select(key)]
            for n, rule in part.rules:
                if rule.head is not None and rule.head.key == key and not any(a.key in members for a in _atoms(rule)):
                    found = self.head_select(n, rule, self.compiler(n))
                    if found is not None:
                        selects.append(found)
            ex.create_table_as(cat_.model(key), join(selects, " UNION ").sql, join(selects, "").params)
            ex.create_table_as(cat_.delta(key), f"SELECT * FROM {q(cat_.model(key))}")
        variants: dict[str, list[Frag]] = {key: [] for key in part.keys}
        for n, rule in part.rules:
            assert rule.head is not None
            for i, lit in enumerate(rule.body):
                if isinstance(lit, Atom) and lit.key in members:
                    def reads(k: str, index: int | None, i: int = i) -> Frag:
                        if k in members:
                            return Frag(q(cat_.delta(k) if index == i else cat_.model(k)))
                        return self.source(k)
                    found = self.head_select(n, rule, self.compiler(n, reads), delta_at=i)
                    if found is not None:
                        variants[rule.head.key].append(found)
        derived = sum(self._count_new(k) for k in part.keys)
        while True:
            self.steps += 1
            budget.check(before + derived)
            fresh = 0
            for key in part.keys:
                if not variants[key]:
                    ex.create_table_as(cat_.fresh(key), f"SELECT * FROM {q(cat_.delta(key))} WHERE FALSE")
                    continue
                union = join(variants[key], " UNION ")
                sql = cat("(", union, f") EXCEPT SELECT * FROM {q(cat_.model(key))}")
                fresh += ex.create_table_as(cat_.fresh(key), sql.sql, sql.params)
            for key in part.keys:       # the fresh rows join the model and are the next delta
                ex.insert_from(cat_.model(key), f"SELECT * FROM {q(cat_.fresh(key))}")
                ex.drop(cat_.delta(key))
                rename = getattr(ex, "rename", None)      # optional: a copy where an executor has none
                if rename is not None:
                    rename(cat_.fresh(key), cat_.delta(key))
                else:
                    ex.create_table_as(cat_.delta(key), f"SELECT * FROM {q(cat_.fresh(key))}")
                    ex.drop(cat_.fresh(key))
            derived += fresh
            if not fresh:
                break
        budget.check(before + derived)
        for key in part.keys:
            ex.drop(cat_.delta(key))
        return derived

    # -- questions ---------------------------------------------------------------

    def query(self, body: tuple[Literal, ...], named: list[Var], *, limit: int | None = None) -> list[tuple[Any, ...]]:
        """Distinct values of `named` over the body in the model, ordered (deterministic pages)."""
        compiler = self.compiler(None)
        compiler.dynamic = {}
        try:
            found = compiler.body(tuple(body))
        except Empty:
            return []
        for v in named:
            if v not in found.vars:
                raise Refused(f"{v.name} is not bound by the query")
        picks = [cat(found.vars[v], f" AS v{i}") for i, v in enumerate(named)] or [Frag("1 AS one")]
        order = f" ORDER BY {', '.join(f'v{i}' for i in range(len(named)))}" if named else ""
        sql = cat("SELECT DISTINCT ", join(picks, ", "), found.clauses(), order)
        rows = self.executor.fetch(sql.sql, sql.params, limit=limit)
        return [tuple(map(normal, row)) for row in rows] if named else [() for _ in rows[:1]]


def _all_atoms(body: tuple[Any, ...]) -> list[Atom]:
    return clause_atoms(Rule(None, tuple(body)))


def normal(value: Any) -> Any:
    """A value read back as the language holds it: a whole double is the integer it equals."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def key_of(atom: Atom) -> str:
    return relation_key(atom.pred, len(atom.args), atom.neg)
