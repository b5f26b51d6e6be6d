"""`RelationalEngine`: the native `Engine`'s interface with its model computed and answered on a
relational backend (an `Executor`), the seam through which a workspace evaluates on DuckDB or Spark.

The program side (rules, stratification, the asserted facts as the working memory hands them over)
stays the native engine's own, so checks and messages are the same; the asserted facts are copied
to the backend's tables before an inference (appended where they only grew); the model (the bulk:
derived facts) lives in the backend only, and so do relations loaded straight into it
(`attach`). Questions are answered by SQL over the model tables; `provenance` re-derives a proof
on the native engine from the facts the answer needs (`proofs`). Where the backend cannot compile
a construct it says so in one line, never a wrong answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from sym.core.backends.compile import RelationalProgram, normal
from sym.core.backends.demand import goal_rows
from sym.core.backends.executor import Catalog, Executor, Row, columns
from sym.core.backends.guard import guarded
from sym.core.backends.proofs import Proofs
from sym.core.backends.types import Refused, const_type, join_types
from sym.core.errors import UserError
from sym.core.logic.derivation import Derivation, Inference, Violation, instantiate_atom
from sym.core.logic.engine import Engine
from sym.core.logic.pause import Budget
from sym.core.logic.terms import Atom, Literal, Query, Var, literal_atoms

CATALOG = "sym_catalog"
PAGE = 10_000


def refused(err: Refused) -> UserError:
    return UserError(str(err), hint="/set engine native evaluates it in memory")


class RelationalEngine(Engine):
    """An Engine whose model lives in a relational backend (`executor`)."""

    def __init__(self, executor: Executor) -> None:
        super().__init__(goal_directed=False)
        self.executor = executor
        self.catalog = Catalog()
        self._stored: dict[str, tuple[str | None, ...]] = {}     # asserted tables now in the backend
        self._appended: dict[str, list[Row]] = {}                 # asserted rows not yet copied
        self._reload: set[str] = set()                            # relations to copy whole again
        self.attached: dict[str, tuple[str, ...]] = {}            # relations loaded straight into the backend
        self._program: RelationalProgram | None = None
        self._proofs: Any = None
        self.goal_queries = True        # until the whole model is asked for, questions are goal-directed
        self._load_catalog()

    # -- the catalog of attached relations (kept in the database) --------------------------

    def _load_catalog(self) -> None:
        ex = self.executor
        if not ex.exists(CATALOG):
            ex.execute(f"CREATE TABLE {ex.dialect.quote(CATALOG)} (key VARCHAR, number BIGINT, types VARCHAR)")
            return
        for key, number, types in ex.fetch(f"SELECT key, number, types FROM {ex.dialect.quote(CATALOG)}"):
            self.catalog.numbers[key] = int(number)
            self.attached[key] = tuple(types.split(",")) if types else ()

    def attach(self, key: str, types: Sequence[str], fill: Callable[[Executor, str], int]) -> int:
        """A relation loaded straight into the backend (a consulted CSV or Parquet file, say):
        `fill(executor, table)` fills the new empty table `table` of these logical types and returns
        its row count. All or nothing: a fill that raises leaves the relation as it was."""
        ex, q = self.executor, self.executor.dialect.quote
        final = f"e{self.catalog.number(key)}"
        staging = f"x{self.catalog.number(key)}"
        ex.create_table(staging, list(types))
        try:
            count = fill(ex, staging)
        except BaseException:
            ex.drop(staging)
            raise
        ex.create_table_as(final, f"SELECT * FROM {q(staging)}")
        ex.drop(staging)
        ex.execute(f"DELETE FROM {q(CATALOG)} WHERE key = ?", [key])
        ex.execute(f"INSERT INTO {q(CATALOG)} VALUES (?, ?, ?)", [key, self.catalog.number(key), ",".join(types)])
        self.attached[key] = tuple(types)
        self._fresh, self._program = False, None
        return count

    def detach(self, key: str) -> bool:
        """Drop a relation loaded with `attach`."""
        if key not in self.attached:
            return False
        ex = self.executor
        ex.drop(f"e{self.catalog.number(key)}")
        ex.execute(f"DELETE FROM {ex.dialect.quote(CATALOG)} WHERE key = ?", [key])
        del self.attached[key]
        self._fresh, self._program = False, None
        return True

    # -- the program changes: what to copy, what is stale ------------------------------------------

    def note_added(self, news: dict[str, list[Row]]) -> bool:
        for key, rows in news.items():
            self._appended.setdefault(key, []).extend(rows)
        self._fresh, self._pending, self._proofs = False, None, None
        return False

    def remove_fact(self, atom: Atom) -> bool:
        removed = super().remove_fact(atom)
        if removed:
            self._reload.add(atom.key)
            self._appended.pop(atom.key, None)
            self._proofs = None
        return removed

    def _program_changed(self, rules: Any, **how: Any) -> None:
        super()._program_changed(rules, **how)
        self._program, self._proofs = None, None

    def relation_keys(self) -> set[str]:
        return super().relation_keys() | set(self.attached)

    # -- copying the asserted facts --------------------------------------------------------

    def _sync(self) -> None:
        ex = self.executor
        before = dict(self._stored)
        for key in list(self._reload | set(self._appended)):
            rows = self._base.get(key) or {}
            table = self.catalog.base(key)
            if not rows:
                ex.drop(table)
                self._stored.pop(key, None)
                continue
            new = self._appended.get(key, [])
            growing = key in self._stored and key not in self._reload     # only appended to
            types = _column_types(key, new if growing else rows, self._stored.get(key) if growing else None)
            if growing and types == self._stored[key]:
                ex.insert_rows(table, new, _filled(types))
            else:
                ex.create_table(table, _filled(types))
                ex.insert_rows(table, list(rows), _filled(types))
            self._stored[key] = types
        self._appended.clear()
        self._reload.clear()
        if self._stored != before:      # a column's type or the set of tables changed: compile again
            self._program = None

    def program(self) -> RelationalProgram:
        """The rules compiled against the tables as they are now."""
        self._sync()
        if self._program is None:
            tables = {key: [self.catalog.base(key)] for key in self._stored}
            stored = dict(self._stored)
            for key, types in self.attached.items():
                tables.setdefault(key, []).append(f"e{self.catalog.number(key)}")
                prior = stored.get(key)
                stored[key] = tuple(join_types(a, b, key) for a, b in zip(prior, types)) if prior else types
            try:
                self._program = RelationalProgram(self._rules, self.executor, self.catalog, stored, tables)
            except Refused as err:
                raise refused(err) from None
        return self._program

    # -- inference ---------------------------------------------------------------------

    def infer(self, max_steps: int | None = None, *, query: bool = False) -> Inference:
        if max_steps is not None:
            raise UserError(f"max_steps ({max_steps}) counts the native engine's rounds; "
                            f"the {self.executor.dialect.name} engine computes the whole model",
                            hint="/set max_steps none, or /set engine native")
        self._fresh, self._proofs = False, None
        program = self.program()
        budget = self._budget(query)
        try:
            with guarded(self.executor, budget):
                derived = program.run(budget)
        except Refused as err:
            raise refused(err) from None
        self.steps, self._complete, self._fresh, self._limit = program.steps, True, True, None
        return Inference(program.steps, derived, True, self.violations())

    def _current(self) -> None:
        if not self._fresh:
            self.infer(None, query=True)

    def ensure_model(self, max_steps: int | None = None) -> None:
        if not self.fresh_for(max_steps):
            self.infer(max_steps)

    def clear_model(self) -> None:
        self._fresh, self._pending, self._proofs = False, None, None

    @property
    def dense(self) -> bool:
        return False

    # -- answers ---------------------------------------------------------------------

    def query_budget(self) -> Budget:
        return self._budget(True)

    def rows(self, body: tuple[Literal, ...], named: list[Var]) -> list[tuple[Any, ...]]:
        if not self._fresh and self.goal_queries:
            found = goal_rows(self, tuple(body), named)
            if found is not None:
                return found
        self._current()
        program = self.program()
        try:
            with guarded(self.executor, self._budget(True)):
                return program.query(tuple(body), named)
        except Refused as err:
            raise refused(err) from None

    def solve(self, query: Query | tuple[Literal, ...]) -> list[dict[Var, object]]:
        body = query.body if isinstance(query, Query) else tuple(query)
        named = Query(body).variables()
        return [dict(zip(named, values)) for values in self.rows(body, named)]

    def holds(self, atom: Atom) -> bool:
        if atom.key not in self.relation_keys():
            return False
        return bool(self.rows((atom,), []))

    def relation(self, key: str) -> Mapping[tuple[Any, ...], Any]:
        self._current()
        return _RelationView(self, key)

    def facts(self, key: str | None = None, *, derived: bool | None = None, offset: int = 0,
              limit: int | None = None) -> Iterator[Atom]:
        """Model facts a page at a time from the backend (asserted ones: derived=False); `offset`
        and `limit` page them in the backend (each relation's rows in column order, the relations
        by key), so a page of a model larger than memory costs its own rows."""
        self._current()
        program = self.program()
        keys = sorted(program.keys) if key is None else [key]
        return self._pages(program, [k for k in keys if k in program.keys], derived, offset, limit)

    def _pages(self, program: RelationalProgram, keys: list[str], derived: bool | None, offset: int,
               limit: int | None) -> Iterator[Atom]:
        for k in keys:
            if limit is not None and limit <= 0:
                return
            sql = _facts_sql(program, k, derived)
            if sql is None:
                continue
            if offset and len(keys) > 1:        # a whole relation before the page: skipped by its count
                n = self._count(sql)
                if offset >= n:
                    offset -= n
                    continue
            neg = k.startswith("~")
            pred = k[1 if neg else 0:k.rindex("/")]
            shown = 0
            for page in self.executor.pages(_paged(sql, k, offset, limit), size=PAGE):
                for row in page:
                    yield Atom(pred, tuple(map(normal, row)), neg)
                shown += len(page)
            offset = 0
            limit = None if limit is None else limit - shown

    def count_facts(self, key: str | None = None, *, derived: bool | None = None) -> int:
        """How many model facts `facts` would give (asserted ones: derived=False), counted in the backend."""
        self._current()
        program = self.program()
        keys = program.keys if key is None else {key} & program.keys
        return sum(self._count(sql) for k in keys if (sql := _facts_sql(program, k, derived)) is not None)

    def _count(self, sql: str) -> int:
        return int(self.executor.fetch(f"SELECT count(*) FROM ({sql}) AS s")[0][0])

    def provenance(self, atom: Atom) -> Derivation | None:
        self._current()
        if self._proofs is None:
            self._proofs = Proofs(self)
        found: Derivation | None = self._proofs.derivation(atom)
        return found

    def violations(self) -> list[Violation]:
        self._current()
        program = self.program()
        out: list[Violation] = []
        for key in sorted(program.keys):
            if key.startswith("~") and key[1:] in program.keys:
                arity = int(key.rsplit("/", 1)[1])
                xs = [Var(f"X{i}") for i in range(arity)]
                pred = key[1:key.rindex("/")]
                both = program.query((Atom(pred, tuple(xs)), Atom(pred, tuple(xs), True)), xs)
                out += [Violation((Atom(pred, args), Atom(pred, args, True))) for args in both]
        for rid, rule in self._constraints.items():
            named = list(dict.fromkeys(v for lit in rule.body for v in lit.variables()))
            try:
                found = program.query(rule.body, [v for v in named if _binds(rule.body, v)])
            except Refused as err:
                raise refused(err) from None
            bindable = [v for v in named if _binds(rule.body, v)]
            for row in found:
                binding = dict(zip(bindable, row))
                facts = tuple(instantiate_atom(a, binding) for a in literal_atoms(rule.body))
                out.append(Violation(facts, rid, rule))
        return out


def _binds(body: tuple[Literal, ...], var: Var) -> bool:
    return any(var in a.args for a in literal_atoms(body))


def _facts_sql(program: RelationalProgram, key: str, derived: bool | None) -> str | None:
    q = program.dialect.quote
    cols = ", ".join(columns(int(key.rsplit("/", 1)[1]))) or "one"
    base = program.base_select(key).sql if key in program.stored else None
    if derived is False:
        return base
    model = f"SELECT {cols} FROM {q(program.catalog.model(key))}" if key in program.derived else None
    if derived is None:
        return model or base
    if model is None:
        return None
    return f"{model} EXCEPT {base}" if base is not None else model


def _paged(sql: str, key: str, offset: int, limit: int | None) -> str:
    """A relation's rows in the order of their columns, from `offset`, at most `limit` of them (a
    page stays the same page from one call to the next). The two numbers are ints of ours, never text."""
    if not offset and limit is None:
        return sql
    order = ", ".join(columns(int(key.rsplit("/", 1)[1])))
    by = f" ORDER BY {order}" if order else ""
    page = (f" LIMIT {int(limit)}" if limit is not None else "") + (f" OFFSET {int(offset)}" if offset else "")
    return f"SELECT * FROM ({sql}) AS s{by}{page}"


class _RelationView(Mapping[tuple[Any, ...], Any]):
    """A relation of the backend's model as the native engine's mapping args -> provenance marker
    (None: asserted; "derived" otherwise), read through the backend."""

    def __init__(self, engine: RelationalEngine, key: str) -> None:
        self.engine, self.key = engine, key

    def _atom(self, args: tuple[Any, ...]) -> Atom:
        neg = self.key.startswith("~")
        return Atom(self.key[1 if neg else 0:self.key.rindex("/")], args, neg)

    def __getitem__(self, args: tuple[Any, ...]) -> Any:
        atom = self._atom(args)
        if not self.engine.holds(atom):
            raise KeyError(args)
        return None if self.engine.is_asserted(atom) or self.key in self.engine.attached and not \
            self.engine.program().derived & {self.key} else "derived"

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return (a.args for a in self.engine.facts(self.key))

    def __len__(self) -> int:
        return self.engine.count_facts(self.key)


def _column_types(key: str, rows: Any, prior: tuple[str | None, ...] | None) -> tuple[str | None, ...]:
    arity = int(key.rsplit("/", 1)[1])
    types: list[str | None] = list(prior) if prior else [None] * arity
    for row in rows:
        for i, value in enumerate(row):
            t = const_type(value)
            if types[i] != t:
                try:
                    types[i] = join_types(types[i], t, f"{key} argument {i + 1}")
                except Refused as err:
                    raise refused(err) from None
    return tuple(types)


def _filled(types: Sequence[str | None]) -> list[str]:
    return [t or "int" for t in types]
