"""What a relational backend must provide for the compiled program to run on it: the `Executor`.

The compiler (`compile`) turns a stratified program into SQL text built only from generated table
names (`Catalog`), quoted identifiers and `?` parameter markers; values always travel as
parameters. A new executor (DuckDB in `duck`, Spark in `spark`) implements the methods of
`Executor` below and says in its `Dialect` how its SQL differs:

- `recursive_cte`: whether `WITH RECURSIVE … UNION` is set-based there (DuckDB: yes, used for a
  linear recursive stratum with no arithmetic; Spark: no, its recursive CTE is UNION ALL only, so
  every recursive stratum runs the Python-driven semi-naive loop over delta tables);
- `types`: the column type for each logical type of the language (`int`, `num`, `str`);
- `quote`: how an identifier is quoted (`"t1"` on DuckDB, `` `t1` `` on Spark);
- `error`: the function that fails a query with a message (DuckDB's `error(msg)`, Spark's
  `raise_error(msg)`), used where native arithmetic would stop with one line (division by zero);
- `int_div`: the operator of truncating integer division (`//` on DuckDB, `div` on Spark).

An executor may also offer `rename(table, to)` (DuckDB's ALTER TABLE … RENAME): the semi-naive
loop then moves a round's fresh rows into the next delta without a copy.

Everything else is standard SQL: `SELECT DISTINCT`, `EXCEPT`, `NOT EXISTS`, `JOIN LATERAL`
(correlated subqueries), `COALESCE`, `CASE`. An executor never receives user text in the SQL
string: a table name comes from `Catalog.table` (a whitelist of generated names), checked again by
`safe_name` before it is quoted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Row = tuple[Any, ...]
Params = Sequence[Any]
LOGICAL_TYPES = ("int", "num", "str")

_SAFE = re.compile(r"[a-z][a-z0-9_]{0,62}\Z")


class BackendError(Exception):
    """A failure of the backend itself (not a user error): the message is already one line."""


def safe_name(name: str) -> str:
    """A generated table or column name, checked against the whitelist pattern (lower-case
    letters, digits and `_`, starting with a letter): anything else is a bug, never quoted."""
    if not _SAFE.match(name):
        raise ValueError(f"not a generated identifier: {name!r}")
    return name


@dataclass(frozen=True)
class Dialect:
    """How one backend's SQL differs (see the module docstring)."""

    name: str
    recursive_cte: bool
    types: dict[str, str]
    quote_char: str = '"'
    error: str = "error"
    int_div: str = "//"

    def quote(self, name: str) -> str:
        q = self.quote_char
        return f"{q}{safe_name(name)}{q}"

    def type_of(self, logical: str) -> str:
        return self.types[logical]


class Executor(Protocol):
    """One connection to a relational engine. All SQL comes from the compiler; `params` fill its
    `?` markers in order. Tables are named by the caller (already whitelisted)."""

    dialect: Dialect

    def execute(self, sql: str, params: Params = ()) -> None:
        """Run a statement that returns nothing the caller needs."""

    def fetch(self, sql: str, params: Params = (), *, limit: int | None = None) -> list[Row]:
        """All rows of a query (or the first `limit`)."""

    def pages(self, sql: str, params: Params = (), *, size: int = 10_000) -> Iterator[list[Row]]:
        """A query's rows a page at a time (for listings of relations larger than memory)."""

    def create_table(self, table: str, types: Sequence[str]) -> None:
        """An empty table `table(c0, c1, …)` of these logical types, replacing any of that name."""

    def create_table_as(self, table: str, sql: str, params: Params = ()) -> int:
        """`CREATE TABLE table AS sql` (replacing one of that name); returns its row count."""

    def insert_from(self, table: str, sql: str, params: Params = ()) -> int:
        """`INSERT INTO table sql`; returns the number of rows inserted."""

    def insert_rows(self, table: str, rows: Iterable[Row], types: Sequence[str]) -> int:
        """Append Python rows (constants of the given logical types) in bulk; returns how many."""

    def count(self, table: str) -> int:
        """The number of rows of a table."""

    def exists(self, table: str) -> bool:
        """Whether a table of that name exists."""

    def drop(self, table: str) -> None:
        """Drop a table if it exists."""


    def interrupt(self) -> None:
        """Stop the statement running now (from another thread): it raises `Interrupted`."""

    def close(self) -> None:
        """Release the connection (its database file stays)."""


class Interrupted(BackendError):
    """The running statement was stopped by `Executor.interrupt` (a cancel or a deadline)."""


@dataclass
class Catalog:
    """Relation key (`father_of/2`, `~green/1`) -> generated table names, the only names that ever
    reach SQL text: the asserted facts of a relation live in `b<n>`, its model (asserted and
    derived) in `m<n>`, a semi-naive round's delta in `d<n>`/`n<n>`. `types` keeps each asserted
    table's logical column types."""

    numbers: dict[str, int] = field(default_factory=dict)
    types: dict[str, tuple[str, ...]] = field(default_factory=dict)
    prefix: str = ""        # a goal-directed question's own tables: "q" (qm3, qd3, …)

    def number(self, key: str) -> int:
        if key not in self.numbers:
            self.numbers[key] = max(self.numbers.values(), default=0) + 1
        return self.numbers[key]

    def base(self, key: str) -> str:
        return f"{self.prefix}b{self.number(key)}"

    def model(self, key: str) -> str:
        return f"{self.prefix}m{self.number(key)}"

    def delta(self, key: str) -> str:
        return f"{self.prefix}d{self.number(key)}"

    def fresh(self, key: str) -> str:
        return f"{self.prefix}n{self.number(key)}"


def columns(arity: int) -> list[str]:
    """The column names of a relation of this arity."""
    return [f"c{i}" for i in range(arity)]


def arity_of(key: str) -> int:
    return int(key.rsplit("/", 1)[1])
