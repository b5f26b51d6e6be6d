"""The DuckDB executor: an embedded database file in the workspace (or in memory), out of core.

`memory_limit` and the spill directory are DuckDB's own settings, passed as connection config
(never as SQL text). `interrupt` is `connection.interrupt()`, called from the run's watchdog
(`guard`) when its cancel flag is set or its deadline passes. DuckDB's errors become one line:
the arithmetic's own (`error(…)` in the compiled SQL), an overflow, the memory limit.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from sym.core.backends.executor import BackendError, Dialect, Interrupted, Params, Row, columns
from sym.core.errors import UserError

DUCKDB = Dialect("duckdb", recursive_cte=True, types={"int": "BIGINT", "num": "DOUBLE", "str": "VARCHAR"})
SMALL = 64         # rows inserted with one parameterised statement rather than through numpy arrays
MEMORY = re.compile(r"\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\Z", re.IGNORECASE)


class DuckExecutor:
    """One DuckDB connection (`path` None: in memory)."""

    dialect = DUCKDB

    def __init__(self, path: str | Path | None = None, *, memory_limit: str | None = None,
                 temp_directory: str | Path | None = None, threads: int | None = None) -> None:
        config: dict[str, Any] = {}
        if memory_limit:
            if not MEMORY.match(memory_limit.strip()):
                raise UserError(f"bad memory limit {memory_limit!r}", hint="write a size such as 2GB or 512MB")
            config["memory_limit"] = memory_limit.strip()
        if temp_directory is not None:
            config["temp_directory"] = str(temp_directory)
        if threads:
            config["threads"] = threads
        config["preserve_insertion_order"] = False
        try:
            self.con = duckdb.connect(str(path) if path is not None else ":memory:", config=config)
        except duckdb.Error as err:
            raise UserError(f"cannot open the duckdb database {path}: {_line(err)}") from None
        self._duckdb = duckdb
        self._lock = threading.Lock()

    # -- statements ----------------------------------------------------------------

    def _run(self, sql: str, params: Params = ()) -> Any:
        duckdb = self._duckdb
        try:
            return self.con.execute(sql, list(params)) if params else self.con.execute(sql)
        except duckdb.InterruptException:
            raise Interrupted("interrupted") from None
        except duckdb.OutOfMemoryException as err:
            raise UserError(f"the duckdb engine ran out of memory: {_line(err)}",
                            hint="raise duckdb_memory or ask a narrower question") from None
        except duckdb.Error as err:
            text = _line(err)
            found = re.search(r"cannot evaluate .*", text)
            if found:
                raise UserError(found.group(0).rstrip("'\""),
                                hint="arithmetic takes numbers bound by the atoms before it; nothing was changed") from None
            if isinstance(err, duckdb.OutOfRangeException):
                raise UserError(f"a value is out of range for the duckdb engine: {text}",
                                hint="its integers are 64-bit; the native engine's are not") from None
            raise BackendError(text) from None

    def execute(self, sql: str, params: Params = ()) -> None:
        self._run(sql, params)

    def fetch(self, sql: str, params: Params = (), *, limit: int | None = None) -> list[Row]:
        cursor = self._run(sql, params)
        return list(cursor.fetchall() if limit is None else cursor.fetchmany(limit))

    def pages(self, sql: str, params: Params = (), *, size: int = 10_000) -> Iterator[list[Row]]:
        cursor = self._run(sql, params)
        while True:
            page = cursor.fetchmany(size)
            if not page:
                return
            yield list(page)

    def create_table(self, table: str, types: Sequence[str]) -> None:
        q = self.dialect.quote
        cols = ", ".join(f"{c} {self.dialect.type_of(t)}" for c, t in zip(columns(len(types)), types)) or "one INTEGER"
        self._run(f"CREATE OR REPLACE TABLE {q(table)} ({cols})")

    def create_table_as(self, table: str, sql: str, params: Params = ()) -> int:
        found = self._run(f"CREATE OR REPLACE TABLE {self.dialect.quote(table)} AS {sql}", params).fetchall()
        return int(found[0][0]) if found else self.count(table)     # DuckDB answers a CTAS with its row count

    def insert_from(self, table: str, sql: str, params: Params = ()) -> int:
        found = self._run(f"INSERT INTO {self.dialect.quote(table)} {sql}", params).fetchall()
        return int(found[0][0]) if found else 0

    def insert_rows(self, table: str, rows: Iterable[Row], types: Sequence[str]) -> int:
        rows = list(rows)
        if not rows:
            return 0
        if not types:
            self._run(f"INSERT INTO {self.dialect.quote(table)} VALUES (1)")
            return 1
        if len(rows) <= SMALL:      # a few rows: one statement with parameters beats registering arrays
            marks = "(" + ", ".join(f"CAST(? AS {self.dialect.type_of(t)})" for t in types) + ")"
            params = [_plain(v, t) for r in rows for v, t in zip(r, types)]
            self._run(f"INSERT INTO {self.dialect.quote(table)} VALUES {', '.join([marks] * len(rows))}", params)
            return len(rows)
        data = {}
        for i, (col, logical) in enumerate(zip(columns(len(types)), types)):
            values = [r[i] for r in rows]
            dtype = {"int": np.int64, "num": np.float64}.get(logical, object)
            try:
                data[col] = np.array(values, dtype=dtype)
            except OverflowError:
                raise UserError(f"a number in {table} is larger than the duckdb engine's 64-bit integers",
                                hint="/set engine native keeps integers of any size") from None
        view = f"rows_{threading.get_ident()}"
        with self._lock:
            self.con.register(view, data)
            try:
                self._run(f"INSERT INTO {self.dialect.quote(table)} SELECT * FROM {self.dialect.quote(view)}")
            finally:
                self.con.unregister(view)
        return len(rows)

    def count(self, table: str) -> int:
        return int(self._run(f"SELECT count(*) FROM {self.dialect.quote(table)}").fetchone()[0])

    def exists(self, table: str) -> bool:
        found = self._run("SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [table]).fetchone()
        return bool(found[0])

    def drop(self, table: str) -> None:
        self._run(f"DROP TABLE IF EXISTS {self.dialect.quote(table)}")

    def rename(self, table: str, to: str) -> None:
        self._run(f"ALTER TABLE {self.dialect.quote(table)} RENAME TO {self.dialect.quote(to)}")

    def interrupt(self) -> None:
        self.con.interrupt()

    def close(self) -> None:
        self.con.close()


def _plain(value: Any, logical: str) -> Any:
    return float(value) if logical == "num" else value


def _line(err: BaseException) -> str:
    return " ".join(str(err).split())
