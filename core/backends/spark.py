"""The Spark executor: the compiled program on Spark SQL, in local mode or on a cluster (`spark.master`).

Tables are temporary views of this executor's own Spark session (`newSession`: views of two
executors never meet), each over a DataFrame materialised with `localCheckpoint`, so a semi-naive
round reads data, not a plan that grows with every round. Spark's recursive CTE is UNION ALL only,
so every recursive stratum runs the Python-driven semi-naive loop (`Dialect.recursive_cte` False).
Values travel as SQL parameters (`?`); the only statements besides queries that the relational
engine sends (CREATE TABLE, DELETE, INSERT) are read here from their fixed shapes. Every statement
runs in a job group of its own; `interrupt` cancels that group (`SparkContext.cancelJobGroup`).
pyspark is imported on first use only.
"""

from __future__ import annotations

import itertools
import re
import shutil
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sym.core.backends.engine import RelationalEngine
from sym.core.backends.executor import BackendError, Dialect, Interrupted, Params, Row, columns, safe_name
from sym.core.errors import UserError
from sym.core.logic.engine import Engine

SPARK = Dialect("spark", recursive_cte=False, types={"int": "BIGINT", "num": "DOUBLE", "str": "STRING"},
                quote_char="`", error="raise_error", int_div="div")
DEFAULT_MASTER = "local[*]"
VALUES_ROWS = 2_000      # rows of one inline VALUES table of parameters

_NAME = r"`?([a-z][a-z0-9_]*)`?"
_CREATE = re.compile(rf"\s*CREATE\s+TABLE\s+{_NAME}\s*\((.*)\)\s*\Z", re.I | re.S)
_DELETE = re.compile(rf"\s*DELETE\s+FROM\s+{_NAME}\s+WHERE\s+(.*)\Z", re.I | re.S)
_INSERT = re.compile(rf"\s*INSERT\s+INTO\s+{_NAME}\s+(.*)\Z", re.I | re.S)
_COPY = re.compile(rf"\s*SELECT\s+\*\s+FROM\s+{_NAME}\s*\Z", re.I)
_VALUES = re.compile(r"\s*VALUES\s*\((.*)\)\s*\Z", re.I | re.S)
_SQL_TYPES = {"VARCHAR": "STRING", "TEXT": "STRING", "INTEGER": "INT"}
_groups = itertools.count(1)
_session_lock = threading.Lock()
_root: Any = None
_root_master = DEFAULT_MASTER
_KEPT = re.compile(r"(e[0-9]+|sym_catalog)\Z")     # tables a workspace keeps: consulted relations, their catalog


def session(master: str = DEFAULT_MASTER) -> Any:
    """The process's Spark session (started on first use, on `master`, and again on another
    master: one Spark context per process); executors take a new session of it each. Spark's own
    UI and its noise on stderr are off."""
    global _root, _root_master
    with _session_lock:
        if _root is not None and _root_master != master:
            _root.stop()
            _root = None
        if _root is None:
            _root, _root_master = _start(master), master
        return _root


def open_engine(directory: Path | None, options: Any) -> Engine:
    """A workspace's engine on Spark (`options.spark_master`); what was consulted straight into it
    is kept as Parquet in the workspace directory (local masters: a cluster's workers do not share it)."""
    master = getattr(options, "spark_master", DEFAULT_MASTER)
    keep = directory / "spark" if directory is not None and master.startswith("local") else None
    return RelationalEngine(SparkExecutor(master, directory=keep))


def _start(master: str) -> Any:
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise UserError("the spark engine needs pyspark", hint="pip install 'sym-shell[spark]', or /set engine native") from None
    builder = (SparkSession.builder.master(master).appName("sym")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.session.timeZone", "UTC")
               # a semi-naive loop runs thousands of small jobs: the driver keeps the status of a few
               # (Spark's default of 1,000 jobs, stages and SQL plans each filled a 1 GB heap)
               .config("spark.ui.retainedJobs", "50")
               .config("spark.ui.retainedStages", "50")
               .config("spark.ui.retainedTasks", "1000")
               .config("spark.sql.ui.retainedExecutions", "20"))
    if master.startswith("local"):       # small local data: no shuffle fan-out, no code generation to wait for
        builder = (builder.config("spark.sql.shuffle.partitions", "1")
                   .config("spark.driver.memory", "2g")
                   .config("spark.default.parallelism", "2")
                   .config("spark.sql.codegen.wholeStage", "false")
                   .config("spark.sql.adaptive.enabled", "false"))
    try:
        spark = builder.getOrCreate()
    except Exception as err:  # no Java, a master that does not answer: one line
        raise UserError(f"cannot start Spark on {master}: {_line(err)}",
                        hint="Spark needs Java 17 or later (a JRE) and a reachable spark.master") from None
    spark.sparkContext.setLogLevel("ERROR")
    return spark


class SparkExecutor:
    """One Spark session of the process's Spark context, with its tables as checkpointed views."""

    dialect = SPARK

    def __init__(self, master: str = DEFAULT_MASTER, *, spark: Any = None, directory: Path | None = None) -> None:
        root = spark if spark is not None else session(master)
        self.spark = root.newSession()
        self.context = root.sparkContext
        self._views: dict[str, Any] = {}
        self._rows: dict[str, int] = {}
        self._group = f"sym-{next(_groups)}"
        self._cancelled = threading.Event()
        self.directory = directory
        if directory is not None and directory.is_dir():
            for kept in sorted(directory.iterdir()):
                if _KEPT.match(kept.name):
                    frame = self._act(lambda kept=kept: self.spark.read.parquet(str(kept)))
                    self._view(kept.name, *self._materialise(frame), keep=False)

    # -- running ---------------------------------------------------------------------------

    def _sql(self, sql: str, params: Params = ()) -> Any:
        """A DataFrame of a query (nothing runs until an action)."""
        try:
            return self.spark.sql(sql, args=list(params)) if params else self.spark.sql(sql)
        except Exception as err:
            raise self._error(err) from None

    def _act(self, action: Any) -> Any:
        """Run one action (a job) in this executor's job group; a cancel or an error as ours. An
        interrupt that came while no job ran stops the next one before it starts."""
        self._stopped()
        self.context.setJobGroup(self._group, "sym", interruptOnCancel=True)
        try:
            return action()
        except Exception as err:
            self._stopped()
            raise self._error(err) from None

    def _stopped(self) -> None:
        if self._cancelled.is_set():
            self._cancelled.clear()
            raise Interrupted("interrupted")

    def _error(self, err: BaseException) -> Exception:
        text = _line(err)
        found = re.search(r"cannot evaluate [^'\"]*", text)
        if found:
            return UserError(found.group(0).strip(), hint="arithmetic takes numbers bound by the atoms before it; "
                                                          "nothing was changed")
        if "DIVIDE_BY_ZERO" in text:
            return UserError("division by zero", hint="nothing was changed")
        if "ARITHMETIC_OVERFLOW" in text or "CAST_OVERFLOW" in text:
            return UserError(f"a value is out of range for the spark engine: {text[:160]}",
                             hint="its integers are 64-bit; the native engine's are not")
        return BackendError(text)

    def _materialise(self, frame: Any) -> tuple[Any, int]:
        """The frame cached, and its row count (one job computes both)."""
        frame = frame.cache()
        return frame, int(self._act(frame.count))

    def _view(self, table: str, frame: Any, rows: int, *, keep: bool = True) -> None:
        """Name `frame` as `table` (of `rows` rows: counts are kept here, never asked of Spark again)."""
        frame.createOrReplaceTempView(safe_name(table))
        self._views[table] = frame
        self._rows[table] = rows
        if keep and self.directory is not None and _KEPT.match(table):
            self.directory.mkdir(parents=True, exist_ok=True)
            self._act(lambda: frame.write.mode("overwrite").parquet(str(self.directory / table)))

    def _frame(self, table: str) -> Any:
        frame = self._views.get(table)
        if frame is None:
            raise BackendError(f"no table {table}")
        return frame

    # -- the Executor protocol -----------------------------------------------------------------

    def execute(self, sql: str, params: Params = ()) -> None:
        m = _CREATE.match(sql)
        if m:
            cols = [c.strip().rsplit(None, 1) for c in m.group(2).split(",")]
            self._view(m.group(1), self._empty([(safe_name(n), _SQL_TYPES.get(t.upper(), t.upper())) for n, t in cols]), 0)
            return
        m = _DELETE.match(sql)
        if m:
            table = m.group(1)
            self._frame(table)
            kept = self._sql(f"SELECT * FROM {self.dialect.quote(table)} WHERE NOT ({m.group(2)})", params)
            self._view(table, *self._materialise(kept))
            return
        m = _INSERT.match(sql)
        if m:
            rest = m.group(2)
            values = _VALUES.match(rest)
            self.insert_from(m.group(1), f"SELECT {values.group(1)}" if values else rest, params)
            return
        self._act(self._sql(sql, params).collect)

    def fetch(self, sql: str, params: Params = (), *, limit: int | None = None) -> list[Row]:
        frame = self._sql(sql, params)
        if limit is not None:
            frame = frame.limit(limit)
        return [tuple(row) for row in self._act(frame.collect)]

    def pages(self, sql: str, params: Params = (), *, size: int = 10_000) -> Iterator[list[Row]]:
        frame = self._sql(sql, params)
        rows = self._act(frame.toLocalIterator)
        while True:
            page = self._act(lambda: [tuple(r) for r in itertools.islice(rows, size)])
            if not page:
                return
            yield page

    def _empty(self, cols: list[tuple[str, str]]) -> Any:
        """An empty DataFrame of these (name, SQL type) columns, made by Spark SQL alone (no Python worker)."""
        if not re.fullmatch(r"[A-Z]+", "".join(t for _, t in cols) or "X"):
            raise BackendError(f"not a column type: {cols}")
        select = ", ".join(f"CAST(NULL AS {t}) AS {safe_name(n)}" for n, t in cols)
        return self._sql(f"SELECT {select} WHERE FALSE")

    def create_table(self, table: str, types: Sequence[str]) -> None:
        names = columns(len(types))
        cols = [(n, self.dialect.type_of(t)) for n, t in zip(names, types)] or [("one", "INT")]
        self._view(table, self._empty(cols), 0)

    def _query(self, sql: str, params: Params) -> tuple[Any, int]:
        """A query's rows, cached, and how many; a copy of a whole table is that table's own frame."""
        copy = _COPY.match(sql)
        if copy and not params and copy.group(1) in self._views:
            return self._views[copy.group(1)], self._rows[copy.group(1)]
        return self._materialise(self._sql(sql, params))

    def create_table_as(self, table: str, sql: str, params: Params = ()) -> int:
        frame, count = self._query(sql, params)
        old = self._views.get(table)
        self._view(table, frame, count)
        if old is not None:
            self._release(old)
        return count

    def insert_from(self, table: str, sql: str, params: Params = ()) -> int:
        old = self._frame(table)
        new, count = self._query(sql, params)
        self._append(table, old, new, count)
        return count

    def insert_rows(self, table: str, rows: Iterable[Row], types: Sequence[str]) -> int:
        old = self._frame(table)
        if not types:
            data: list[tuple[Any, ...]] = [(1,)] if list(rows) else []
        else:
            cast = [int if t == "int" else float if t == "num" else str for t in types]
            data = [tuple(f(v) for f, v in zip(cast, row)) for row in rows]
        if not data:
            return 0
        if any(t == "int" and not -2**63 <= v < 2**63 for row in data for t, v in zip(types, row)):
            raise UserError(f"a number in {table} is larger than the spark engine's 64-bit integers",
                            hint="/set engine native keeps integers of any size")
        sql_types = [self.dialect.type_of(t) for t in types] or ["INT"]
        names = ", ".join(columns(len(types)) or ["one"])
        marks = "(" + ", ".join(f"CAST(? AS {t})" for t in sql_types) + ")"
        parts = []
        for start in range(0, len(data), VALUES_ROWS):     # inline tables of parameters: no Python worker starts
            chunk = data[start:start + VALUES_ROWS]
            sql = f"SELECT * FROM VALUES {', '.join([marks] * len(chunk))} AS t({names})"
            parts.append(self._sql(sql, [v for row in chunk for v in row]))
        new = parts[0]
        for part in parts[1:]:
            new = new.union(part)
        self._append(table, old, new, len(data))     # rows of parameters: a local relation, no job
        return len(data)

    def _append(self, table: str, old: Any, new: Any, added: int) -> None:
        """`table` with `added` rows more (`new`): to an empty table, `new` itself; else the union,
        cached when it is next read (its count is known: no job now)."""
        from pyspark.sql.functions import col

        new = new.select([col(n).cast(f.dataType).alias(f.name) for n, f in zip(new.columns, old.schema.fields)])
        before = self._rows.get(table, 0)
        if not added:
            return
        if not before:
            self._release(old)
            self._view(table, new, added)
            return
        merged = old.union(new).cache()
        self._act(merged.count)           # cached now, so the old version can go
        self._view(table, merged, before + added)
        self._release(old)

    def count(self, table: str) -> int:
        self._frame(table)
        return self._rows[table]

    def exists(self, table: str) -> bool:
        return table in self._views

    def drop(self, table: str) -> None:
        frame = self._views.pop(table, None)
        self._rows.pop(table, None)
        if frame is not None:
            self.spark.catalog.dropTempView(table)
            self._release(frame)
        if self.directory is not None and _KEPT.match(table):
            shutil.rmtree(self.directory / table, ignore_errors=True)

    def _release(self, frame: Any) -> None:
        """Uncache a frame no table names any more (a copy may still name it)."""
        if all(other is not frame for other in self._views.values()):
            frame.unpersist()

    def interrupt(self) -> None:
        self._cancelled.set()
        self.context.cancelJobGroup(self._group)

    def close(self) -> None:
        """Release the tables (what the workspace keeps stays on disk)."""
        for table, frame in list(self._views.items()):
            self.spark.catalog.dropTempView(table)
            frame.unpersist()
        self._views.clear()
        self._rows.clear()


def _line(err: BaseException) -> str:
    """An exception of Spark (or py4j) as one line: its first that says something, without the JVM's stack."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    said = [ln for ln in lines if not ln.startswith(("An error occurred while calling", "at ", "JVM stacktrace"))]
    return (said or lines or [type(err).__name__])[0].lstrip(": ")[:300]
