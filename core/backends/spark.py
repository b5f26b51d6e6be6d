"""The Spark executor: the compiled program on Spark SQL, in local mode or on a cluster (`spark.master`).

Each table is a temporary view of this executor's own Spark session (`newSession`: the views of two
executors never meet) over a few *parts*, each a leaf plan: a query's rows materialised with
`localCheckpoint` (the rows in the executors' block stores, the plan a scan of them), rows of
parameters (a local relation), or a Parquet file read back. So a semi-naive round's query reads
data, never the plans of the rounds before it: a plan, and what the driver holds, stays the size of
one round however long the recursion runs. A round's fresh rows join the model as a part of it
(no job); the trailing parts are merged into one (one job) when four of about the same size meet
or a table holds 16, so a row is rewritten about log4(rounds) times, not once a round. A part no
table holds any more has its blocks freed at once (no wait for the JVM's garbage collector).

`checkpoint_every` N > 0 (0 by default; the setting `spark.checkpoint_every`, read when a spark
workspace opens) writes every N-th version of a growing
table (a recursive relation's model: every N rounds) as Parquet under Spark's checkpoint directory
(`spark.checkpoint.dir`; under a local master the workspace's `spark/rounds`) and reads it back:
the fallback on a cluster, where a table then no longer needs the blocks of executors that may go.

Spark's recursive CTE is UNION ALL only, so every recursive stratum runs the Python-driven
semi-naive loop (`Dialect.recursive_cte` False). Values travel as SQL parameters (`?`); the only
statements besides queries that the relational engine sends (CREATE TABLE, DELETE, INSERT) are read
here from their fixed shapes. Every job runs in this executor's job group; `interrupt` cancels that
group (`SparkContext.cancelJobGroup`). pyspark is imported on first use only.
"""

from __future__ import annotations

import itertools
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
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
MERGE = 4                # trailing parts of one size class merged into one
MAX_PARTS = 16           # parts of one table before its trailing ones are merged whatever their sizes

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
    every = int(getattr(options, "spark_checkpoint_every", 0) or 0)
    return RelationalEngine(SparkExecutor(master, directory=keep, checkpoint_every=every))


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
               # a checkpointed part keeps the constraints of the plan it came from, and a union of
               # parts then fails to rewrite them ("key not found: c0#13L"): they buy nothing here
               .config("spark.sql.constraintPropagation.enabled", "false")
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
                   .config("spark.sql.adaptive.enabled", "false")
                   .config("spark.sql.autoBroadcastJoinThreshold", "-1"))    # a broadcast is a job more
    try:
        spark = builder.getOrCreate()
    except Exception as err:  # no Java, a master that does not answer: one line
        raise UserError(f"cannot start Spark on {master}: {_line(err)}",
                        hint="Spark needs Java 17 or later (a JRE) and a reachable spark.master") from None
    spark.sparkContext.setLogLevel("ERROR")
    return spark


@dataclass(eq=False)
class _Part:
    """Some rows of a table as a leaf plan, and what holds them: a checkpointed RDD (JVM), a Parquet
    path, or None (rows of parameters: the plan holds them)."""

    frame: Any
    rows: int
    store: Any = None


@dataclass(eq=False)
class _Table:
    empty: Any                  # the table's columns, no rows
    parts: list[_Part] = field(default_factory=list)
    appends: int = 0            # how many times rows were appended (a recursive model's rounds)

    @property
    def rows(self) -> int:
        return sum(p.rows for p in self.parts)


class SparkExecutor:
    """One Spark session of the process's Spark context, with its tables as views over leaf parts."""

    dialect = SPARK

    def __init__(self, master: str = DEFAULT_MASTER, *, spark: Any = None, directory: Path | None = None,
                 checkpoint_every: int = 0) -> None:
        root = spark if spark is not None else session(master)
        self.spark = root.newSession()
        self.context = root.sparkContext
        self._tables: dict[str, _Table] = {}
        self._group = f"sym-{next(_groups)}"
        self._cancelled = threading.Event()
        self.directory = directory
        self.checkpoint_every = checkpoint_every
        self._rounds: str | None = None         # where the Parquet checkpoints go (found on first use)
        self._written = itertools.count(1)
        if directory is not None and directory.is_dir():
            for kept in sorted(directory.iterdir()):
                if _KEPT.match(kept.name):
                    frame = self._act(lambda kept=kept: self.spark.read.parquet(str(kept)))
                    part = self._leaf(frame)
                    self._set(kept.name, _Table(self._empty_like(frame), [part] if part.rows else []), keep=False)

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

    # -- parts: leaf plans ---------------------------------------------------------------------

    def _leaf(self, frame: Any) -> _Part:
        """A frame's rows materialised as a leaf plan (`localCheckpoint`), and how many: one job
        computes, stores and counts them."""
        leaf = frame.localCheckpoint(eager=False)
        rows = int(self._act(leaf.count))
        return _Part(leaf, rows, _blocks(leaf))

    def _durable(self, frame: Any, rows: int) -> _Part:
        """A frame's rows written as Parquet under the checkpoint directory and read back."""
        path = f"{self._checkpoint_dir()}/{self._group}-{next(self._written)}"
        self._act(lambda: frame.write.parquet(path))
        return _Part(self._act(lambda: self.spark.read.parquet(path)), rows, path)

    def _checkpoint_dir(self) -> str:
        if self._rounds is None:
            found = self.context.getCheckpointDir() or self.context.getConf().get("spark.checkpoint.dir")
            if found:
                self._rounds = found.rstrip("/")
            elif self.context.master.startswith("local"):
                if self.directory is not None:
                    (self.directory / "rounds").mkdir(parents=True, exist_ok=True)
                    self._rounds = str(self.directory / "rounds")
                else:
                    self._rounds = tempfile.mkdtemp(prefix="sym-spark-")
            else:
                raise UserError("spark.checkpoint_every needs a directory every worker reaches",
                                hint="set spark.checkpoint.dir (hdfs://… or a shared path) in spark-defaults.conf, "
                                     "or /set spark.checkpoint_every 0")
        return self._rounds

    def _union(self, table: _Table, parts: list[_Part] | None = None) -> Any:
        frames = [p.frame for p in (table.parts if parts is None else parts)]
        if not frames:
            return table.empty
        frame = frames[0]
        for other in frames[1:]:
            frame = frame.union(other)
        return frame

    def _conform(self, part: _Part, empty: Any) -> _Part:
        """A part with the table's column names and types (a projection over its leaf where they differ)."""
        want = [(f.name, f.dataType) for f in empty.schema.fields]
        if [(f.name, f.dataType) for f in part.frame.schema.fields] == want:
            return part
        from pyspark.sql.functions import col

        picks = [col(have).cast(t).alias(n) for have, (n, t) in zip(part.frame.columns, want)]
        return _Part(part.frame.select(picks), part.rows, part.store)

    def _compact(self, table: _Table) -> list[_Part]:
        """Merge the trailing parts: four of one size class (rows within a factor of 4), or all but
        the first few where a table holds more than `MAX_PARTS`. Returns the parts merged away."""
        gone: list[_Part] = []
        while True:
            parts = table.parts
            if len(parts) >= MERGE and len({_size_class(p.rows) for p in parts[-MERGE:]}) == 1:
                k = MERGE
            elif len(parts) > MAX_PARTS:
                k = len(parts) - MAX_PARTS // 2 + 1
            else:
                return gone
            gone += parts[-k:]
            table.parts = parts[:-k] + [self._leaf(self._union(table, parts[-k:]))]

    # -- tables ---------------------------------------------------------------------------

    def _set(self, name: str, table: _Table, *, keep: bool = True) -> None:
        """Name `table` as `name` (its view: the union of its parts); free the parts it replaced."""
        old = self._tables.get(name)
        self._tables[name] = table
        self._union(table).createOrReplaceTempView(safe_name(name))
        if old is not None:
            self._free(old.parts)
        if keep and self.directory is not None and _KEPT.match(name):
            self.directory.mkdir(parents=True, exist_ok=True)
            self._act(lambda: self._union(table).write.mode("overwrite").parquet(str(self.directory / name)))

    def _table(self, name: str) -> _Table:
        table = self._tables.get(name)
        if table is None:
            raise BackendError(f"no table {name}")
        return table

    def _free(self, parts: Iterable[_Part]) -> None:
        """Release the stores of parts that no table holds any more (a copy may still hold them)."""
        held = {id(p.store) for t in self._tables.values() for p in t.parts}
        for part in parts:
            if part.store is not None and id(part.store) not in held:
                held.add(id(part.store))        # each store once
                self._release(part.store)

    def _release(self, store: Any) -> None:
        try:
            if isinstance(store, str):
                jvm = self.spark._jvm
                path = jvm.org.apache.hadoop.fs.Path(store)
                path.getFileSystem(self.context._jsc.hadoopConfiguration()).delete(path, True)
            else:
                store.unpersist(False)
        except Exception:  # noqa: BLE001 - freeing is best-effort: Spark's cleaner frees what is left
            pass

    def _parts_of(self, sql: str, params: Params) -> tuple[list[_Part], Any]:
        """A query's rows as parts, and its columns with no rows: a copy of a whole table shares
        that table's parts (no job)."""
        copy = _COPY.match(sql)
        if copy and not params and copy.group(1) in self._tables:
            source = self._tables[copy.group(1)]
            return list(source.parts), source.empty
        part = self._leaf(self._sql(sql, params))
        empty = self._empty_like(part.frame)
        if not part.rows:
            self._release(part.store)
            return [], empty
        return [part], empty

    # -- the Executor protocol -----------------------------------------------------------------

    def execute(self, sql: str, params: Params = ()) -> None:
        m = _CREATE.match(sql)
        if m:
            cols = [c.strip().rsplit(None, 1) for c in m.group(2).split(",")]
            self._set(m.group(1), _Table(self._empty([(safe_name(n), _SQL_TYPES.get(t.upper(), t.upper())) for n, t in cols])))
            return
        m = _DELETE.match(sql)
        if m:
            name = m.group(1)
            table = self._table(name)
            kept = self._sql(f"SELECT * FROM {self.dialect.quote(name)} WHERE NOT ({m.group(2)})", params)
            part = self._conform(self._leaf(kept), table.empty)
            self._set(name, _Table(table.empty, [part] if part.rows else [], table.appends))
            return
        m = _INSERT.match(sql)
        if m:
            rest = m.group(2)
            values = _VALUES.match(rest)
            if values:      # one row of parameters: a local relation, no job
                self._table(m.group(1))
                self._append(m.group(1), [_Part(self._sql(f"SELECT {values.group(1)}", params), 1)])
            else:
                self.insert_from(m.group(1), rest, params)
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

    def _empty_like(self, frame: Any) -> Any:
        """An empty DataFrame of a frame's columns (no plan of the frame's kept in it)."""
        return self._empty([(f.name, f.dataType.simpleString().upper()) for f in frame.schema.fields])

    def _empty(self, cols: list[tuple[str, str]]) -> Any:
        """An empty DataFrame of these (name, SQL type) columns, made by Spark SQL alone (no Python worker)."""
        if not re.fullmatch(r"[A-Z]+", "".join(t for _, t in cols) or "X"):
            raise BackendError(f"not a column type: {cols}")
        select = ", ".join(f"CAST(NULL AS {t}) AS {safe_name(n)}" for n, t in cols)
        return self._sql(f"SELECT {select} WHERE FALSE")

    def create_table(self, table: str, types: Sequence[str]) -> None:
        names = columns(len(types))
        cols = [(n, self.dialect.type_of(t)) for n, t in zip(names, types)] or [("one", "INT")]
        self._set(table, _Table(self._empty(cols)))

    def create_table_as(self, table: str, sql: str, params: Params = ()) -> int:
        parts, empty = self._parts_of(sql, params)
        self._set(table, _Table(empty, parts))
        return sum(p.rows for p in parts)

    def insert_from(self, table: str, sql: str, params: Params = ()) -> int:
        self._table(table)
        parts, _empty = self._parts_of(sql, params)
        self._append(table, parts)
        return sum(p.rows for p in parts)

    def insert_rows(self, table: str, rows: Iterable[Row], types: Sequence[str]) -> int:
        self._table(table)
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
            parts.append(_Part(self._sql(sql, [v for row in chunk for v in row]), len(chunk)))
        if len(parts) > 1:      # more than one inline table: stored in the executors, not in every plan
            union = parts[0].frame
            for part in parts[1:]:
                union = union.union(part.frame)
            parts = [self._leaf(union)]
        self._append(table, parts)
        return len(data)

    def _append(self, name: str, parts: list[_Part]) -> None:
        """Rows more for a table: its parts and these (no job), the trailing ones merged where
        many meet; every `checkpoint_every`-th time the whole table written as Parquet."""
        table = self._tables[name]
        added = [self._conform(p, table.empty) for p in parts if p.rows]
        if not added:
            return
        grown = _Table(table.empty, table.parts + added, table.appends + 1)
        if self.checkpoint_every and grown.appends % self.checkpoint_every == 0:
            gone, grown.parts = grown.parts, [self._durable(self._union(grown), grown.rows)]
        else:
            gone = self._compact(grown)
        self._set(name, grown)
        self._free(added + gone)

    def count(self, table: str) -> int:
        return self._table(table).rows

    def exists(self, table: str) -> bool:
        return table in self._tables

    def drop(self, table: str) -> None:
        found = self._tables.pop(table, None)
        if found is not None:
            self.spark.catalog.dropTempView(table)
            self._free(found.parts)
        if self.directory is not None and _KEPT.match(table):
            shutil.rmtree(self.directory / table, ignore_errors=True)

    def interrupt(self) -> None:
        self._cancelled.set()
        self.context.cancelJobGroup(self._group)

    def close(self) -> None:
        """Release the tables (what the workspace keeps stays on disk)."""
        tables = list(self._tables.items())
        self._tables.clear()
        for name, table in tables:
            self.spark.catalog.dropTempView(name)
            self._free(table.parts)
        if self._rounds is not None and self.directory is None and self._rounds.startswith(tempfile.gettempdir()):
            shutil.rmtree(self._rounds, ignore_errors=True)


def _blocks(leaf: Any) -> Any:
    """The checkpointed RDD under a leaf plan (to free its blocks), or None where it is not reached."""
    try:
        return leaf._jdf.queryExecution().logical().rdd()
    except Exception:  # noqa: BLE001 - another Spark (Connect): its cleaner frees the blocks
        return None


def _size_class(rows: int) -> int:
    return max(rows, 1).bit_length() // 2       # log4: 1-3 rows 0, 4-15 1, 16-63 2, …


def _line(err: BaseException) -> str:
    """An exception of Spark (or py4j) as one line: its first that says something, without the JVM's stack."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    said = [ln for ln in lines if not ln.startswith(("An error occurred while calling", "at ", "JVM stacktrace"))]
    return (said or lines or [type(err).__name__])[0].lstrip(": ")[:300]
