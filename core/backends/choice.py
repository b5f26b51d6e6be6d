"""Which engine a workspace evaluates on (native, duckdb, spark), recorded in the workspace, and
moving a filled workspace from one to another.

The choice is a one-word file `engine` in the workspace's directory; a DuckDB workspace keeps its
database file (`facts.duckdb`) and its spill directory there too. Opening the same database twice in
one process is refused by DuckDB, so an engine opened for a directory closes the one before it.
The spark engine comes from `core/backends/spark.py`'s `open_engine(directory, options) -> Engine`
(a `RelationalEngine` over its executor).
"""

from __future__ import annotations

import importlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sym.core.backends.engine import RelationalEngine
from sym.core.errors import UserError
from sym.core.logic.engine import Engine
from sym.core.logic.terms import Atom

if TYPE_CHECKING:
    from sym.core.memory.working import WorkingMemory

ENGINES = ("native", "duckdb", "spark")
CHOICE = "engine"
DATABASE = "facts.duckdb"


@dataclass(frozen=True)
class EngineOptions:
    """What opening a backend needs from the settings."""

    memory_limit: str | None = "2GB"
    spark_master: str = "local[*]"
    default: str = "native"         # the engine of a workspace that recorded none (config.toml's `engine`)
    spark_checkpoint_every: int = 0  # spark: rounds between Parquet checkpoints (0: none)


def options_from(settings: Any, default: str | None = None) -> EngineOptions:
    return EngineOptions(getattr(settings, "duckdb_memory", "2GB"), getattr(settings, "spark_master", "local[*]"),
                         str(default or getattr(settings, "engine", "native")),
                         int(getattr(settings, "spark_checkpoint_every", 0) or 0))


_open: dict[str, Engine] = {}     # directory -> the relational engine open on it


def recorded(directory: Path | None) -> str | None:
    """The engine recorded for a workspace directory (None where none is)."""
    if directory is None:
        return None
    try:
        word = (directory / CHOICE).read_text().strip()
    except OSError:
        return None
    return word if word in ENGINES else None


def record(directory: Path | None, name: str) -> None:
    if directory is None:
        return
    directory.mkdir(parents=True, exist_ok=True)
    (directory / CHOICE).write_text(name + "\n")


def kind(engine: Engine) -> str:
    """The name of an engine's kind (native, duckdb, spark)."""
    executor = getattr(engine, "executor", None)
    return "native" if executor is None else str(executor.dialect.name)


def check(name: str) -> str:
    word = name.strip().lower()
    if word not in ENGINES:
        raise UserError(f"unknown engine {name!r}", hint="engines: " + ", ".join(ENGINES))
    return word


def open_engine(name: str, directory: Path | None, options: EngineOptions = EngineOptions()) -> Engine:
    """A fresh engine of that kind for a workspace directory (None: in memory only)."""
    name = check(name)
    if name == "native":
        return Engine()
    key = str(directory) if directory is not None else None
    if key is not None and key in _open:
        close(_open.pop(key))
    if name == "duckdb":
        from sym.core.backends.duck import DuckExecutor  # duckdb, imported by a duckdb workspace alone

        path = temp = None
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
            path, temp = directory / DATABASE, directory / "duckdb.tmp"
        engine: Engine = RelationalEngine(DuckExecutor(path, memory_limit=options.memory_limit, temp_directory=temp))
    else:
        try:    # optional: pyspark and a Java runtime
            spark = importlib.import_module("sym.core.backends.spark")
        except ImportError as err:
            raise UserError(f"the spark engine is not available here: {err}",
                            hint="pip install pyspark (and a Java runtime)") from None
        opener = getattr(spark, "open_engine", None)     # spark.py: open_engine(directory, options) -> Engine
        if opener is None:
            raise UserError("the spark engine is not available in this build", hint="/set engine duckdb")
        engine = opener(directory, options)
    if key is not None:
        _open[key] = engine
    return engine


def close(engine: Engine) -> None:
    executor = getattr(engine, "executor", None)
    if executor is not None:
        try:
            executor.close()
        except Exception:  # noqa: BLE001 - closing what is being replaced; its file stays
            pass


def switch(memory: WorkingMemory, name: str, directory: Path | None, options: EngineOptions = EngineOptions()) -> int:
    """Move a workspace's facts and rules to an engine of another kind (recorded for its next
    opening); returns how many asserted facts moved. Nothing changes where it fails."""
    name = check(name)
    old = memory.engine
    if kind(old) == name:
        return 0
    attached = getattr(old, "attached", {})
    if attached and name == "native":
        shown = ", ".join(sorted(attached))
        raise UserError(f"{shown} lives only in the {kind(old)} engine (consulted into it); the native engine "
                        "would not keep it", hint="forget those relations first, or stay on this engine")
    facts = [_atom(key, args) for key, rel in old.base().items() for args in rel]
    rows = {key: _attached_rows(old, key) for key in attached}     # read before the old engine closes
    new = open_engine(name, directory, options)
    try:
        new.add_facts(facts)
        new.add_rules(old.rules)
        for key, types in attached.items():
            def fill(executor: Any, table: str, key: str = key, types: Any = types) -> int:
                return int(executor.insert_rows(table, rows[key], list(types)))
            new.attach(key, types, fill)   # type: ignore[attr-defined]
        new.stop = old.stop
    except BaseException:
        close(new)
        raise
    memory.engine = new
    close(old)
    if kind(old) == "duckdb" and directory is not None and not attached:
        for leftover in (directory / DATABASE, directory / "duckdb.tmp"):
            if leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)
    record(directory, name)
    return len(facts)


def _atom(key: str, args: tuple[Any, ...]) -> Atom:
    neg = key.startswith("~")
    return Atom(key[1 if neg else 0:key.rindex("/")], args, neg)


def _attached_rows(engine: Any, key: str) -> list[Any]:
    ex = engine.executor
    table = ex.dialect.quote("e" + str(engine.catalog.number(key)))
    return [row for page in ex.pages(f"SELECT * FROM {table}") for row in page]
