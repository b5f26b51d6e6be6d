"""DuckDB's readers under /consult FILE as …: one CSV, TSV or Parquet file, batch by batch, and
the lines its rows came from. Only the file's path travels as a parameter; the columns picked are
our own names (CSV) or quoted identifiers of the names the file has (Parquet). Typing the values is
`tabular`'s; nothing is added to memory here.
"""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError

if TYPE_CHECKING:
    from sym.core.backends.tabular import Staged, TableSpec

HINT = "/consult edges.csv as edge/2  or  /consult people.csv as person(name, age) --header"
SHOWN_BAD_ROWS = 5


class TableReader:
    """One file read by DuckDB, batch by batch: `(line, values)` pairs of the columns the spec
    picks, in file order; then `rejected()`, the lines DuckDB's CSV reader refused. A context
    manager: the in-memory DuckDB connection closes with it."""

    def __init__(self, path: Path, kind: str, spec: TableSpec, *, memory_limit: str | None = None) -> None:
        import duckdb

        self.path, self.kind, self.spec = path, kind, spec
        config: dict[str, str | bool | int | float | list[str]] = {"memory_limit": memory_limit} if memory_limit else {}
        self.con = duckdb.connect(":memory:", config=config)
        self.error = duckdb.Error
        self.names: list[str] = []       # the file's column names ("" where it has none)
        self.picked: list[int] = []      # the 0-based file columns the relation takes, in its order
        self.first_line = 1
        self.done = 0
        self.estimate = 0

    def __enter__(self) -> TableReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.con.close()

    def _fail(self, err: Exception) -> UserError:
        message = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return UserError(f"cannot read {self.path.name} as {self.kind.upper()}: {message[:160]}",
                         hint="check the file's format, or name it by its format (.csv, .tsv, .parquet)")

    def describe(self, arg: int) -> str:
        """The file column an argument of the relation comes from: its number, and its name."""
        col = self.picked[arg]
        name = self.names[col] if col < len(self.names) else ""
        return f"{col + 1} ({name})" if name else str(col + 1)

    def _pick(self, width: int) -> None:
        spec, names = self.spec, self.names
        if spec.columns is None:
            if width != spec.arity:
                raise UserError(f"{self.path.name} has {width} column{'s' if width != 1 else ''}; "
                                f"{spec.key} takes {spec.arity}",
                                hint=f"read it as {spec.pred}/{width}, or pick columns: as {spec.pred}(1, 2)")
            self.picked = list(range(width))
            return
        for col in spec.columns:
            if isinstance(col, int):
                if col > width:
                    raise UserError(f"{self.path.name} has {width} columns; there is no column {col}", hint=HINT)
                self.picked.append(col - 1)
            elif col in names:
                self.picked.append(names.index(col))
            else:
                shown = ", ".join(n for n in names if n)[:120] or "none"
                raise UserError(f"{self.path.name} has no column named {col!r} (its columns: {shown})",
                                hint="name columns as its header does, or by number: as p(1, 3)")

    def batches(self, size: int) -> Iterator[list[tuple[int, tuple[Any, ...]]]]:
        try:
            result = self._open_csv() if self.kind != "parquet" else self._open_parquet()
            line = self.first_line
            while True:
                rows = result.fetchmany(size)
                if not rows:
                    return
                self.done += len(rows)
                yield [(line + i, row) for i, row in enumerate(rows)]
                line += len(rows)
        except self.error as err:
            raise self._fail(err) from None

    def progress(self) -> tuple[int, int]:
        """(rows read, rows estimated in all), for a progress line."""
        return self.done, max(self.done, self.estimate)

    def _open_parquet(self) -> Any:
        described = self.con.execute("DESCRIBE SELECT * FROM read_parquet($1)", [str(self.path)]).fetchall()
        self.names = [str(row[0]) for row in described]
        self._pick(len(self.names))
        counted = self.con.execute("SELECT count(*) FROM read_parquet($1)", [str(self.path)]).fetchone()
        self.estimate = int(counted[0]) if counted else 0
        cols = ", ".join(quote_ident(self.names[c]) for c in self.picked)
        return self.con.execute(f"SELECT {cols} FROM read_parquet($1)", [str(self.path)])   # noqa: S608 (quoted identifiers)

    def _open_csv(self) -> Any:
        delim = "," if self.kind == "csv" else "\t"
        quote = '"' if self.kind == "csv" else ""
        first, sample = _first_record(self.path, delim, quote)
        if first is None:
            raise UserError(f"{self.path.name} is empty", hint="a table needs at least one row")
        header = self.spec.header if self.spec.header is not None else self.spec.named
        self.names = [n.strip() for n in first] if header else [""] * len(first)
        self._pick(len(first))
        self.first_line = 2 if header else 1
        size = self.path.stat().st_size
        self.estimate = int(size / sample) if sample else 0
        declared = "{" + ", ".join(f"'c{i}': 'VARCHAR'" for i in range(len(first))) + "}"   # our own names
        cols = ", ".join(f"c{c}" for c in self.picked)
        sql = (f"SELECT {cols} FROM read_csv($1, auto_detect=false, header=$2, delim=$3, quote=$4, escape=$4, "  # noqa: S608
               f"columns={declared}, store_rejects=true, rejects_table='sym_rejects', rejects_scan='sym_scan')")
        return self.con.execute(sql, [str(self.path), header, delim, quote])

    def rejected(self) -> list[tuple[int, str]]:
        """The lines the CSV reader refused (wrong number of columns, bad quoting or encoding), in order."""
        if self.kind == "parquet":
            return []
        try:
            rows = self.con.execute("SELECT DISTINCT ON (line) line, error_type FROM sym_rejects ORDER BY line").fetchall()
        except self.error:
            return []
        width = len(self.names)
        return [(int(line), f"{str(kind).lower()} (the file has {width})" if "COLUMNS" in str(kind)
                 else str(kind).lower()) for line, kind in rows]


def quote_ident(name: str) -> str:
    """A SQL identifier quoted, so that a column named by a file is never read as SQL."""
    return '"' + name.replace('"', '""') + '"'


def _first_record(path: Path, delim: str, quote: str) -> tuple[list[str] | None, float]:
    """The first non-blank record of a CSV/TSV file (Python's csv module, on its first 1 MB), and
    the mean bytes per line of that piece (for a row estimate)."""

    opener = gzip.open if path.suffix.lower() == ".gz" else open
    try:
        with opener(path, "rb") as raw:
            piece = raw.read(1 << 20)
    except OSError as err:
        raise UserError(f"cannot read {path.name}: {getattr(err, 'strerror', None) or err}") from None
    text = piece.decode("utf-8-sig", errors="replace")
    lines = text.count("\n")
    if lines and len(piece) == 1 << 20:
        text = text[:text.rindex("\n") + 1]
    per_line = len(piece) / lines if lines else 0.0
    reader = csv.reader(io.StringIO(text), delimiter=delim, quotechar=quote or None,
                        quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE)
    for record in reader:
        if record:
            return record, per_line
    return None, per_line


def place_lines(path: Path, reader: TableReader, staged: Staged, kept: int, bad_lines: list[int],
                rejected: list[tuple[int, str]]) -> None:
    """Give the rows of a CSV/TSV file their lines. The reader numbered the rows it kept one line
    each; that is right when the file's lines are its header, those rows and the lines it refused.
    Otherwise (blank lines, line breaks inside quotes) the records' first lines are found by a pass
    of Python's csv module, which splits records as DuckDB does."""
    refused = [line for line, _ in rejected]
    if _line_count(path) != reader.first_line - 1 + kept + len(refused):
        starts = _record_lines(path, reader, set(refused))
        if len(starts) == kept:
            first = reader.first_line
            staged.lines = [starts[line - first] for line in staged.lines]
            moved = {line: starts[line - first] for line in bad_lines}
            staged.bad = [(moved.get(line, line), problem) for line, problem in staged.bad]
            refused = []
    if refused:     # step over the lines the reader refused
        staged.lines = _renumber(staged.lines, refused)
        moved = dict(zip(bad_lines, _renumber(bad_lines, refused), strict=True))
        staged.bad = [(moved.get(line, line), problem) for line, problem in staged.bad]
    for line, problem in rejected:
        staged.note_bad(line, problem)
    staged.bad = sorted(staged.bad)[:SHOWN_BAD_ROWS]


def _open_bytes(path: Path) -> Any:

    return gzip.open(path, "rb") if path.suffix.lower() == ".gz" else open(path, "rb")


def _line_count(path: Path) -> int:
    lines, last = 0, b"\n"
    with _open_bytes(path) as raw:
        while piece := raw.read(1 << 22):
            lines += piece.count(b"\n")
            last = piece[-1:]
    return lines + (last != b"\n")


def _record_lines(path: Path, reader: TableReader, refused: set[int]) -> list[int]:
    """The first line of each record the reader kept (not blank, not the header, not refused)."""

    delim = "," if reader.kind == "csv" else "\t"
    quote = '"' if reader.kind == "csv" else None
    starts: list[int] = []
    with io.TextIOWrapper(_open_bytes(path), encoding="utf-8-sig", errors="replace", newline="") as text:
        records = csv.reader(text, delimiter=delim, quotechar=quote,
                             quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE)
        end = 0
        for record in records:
            start, end = end + 1, records.line_num
            if record and start >= reader.first_line and start not in refused:
                starts.append(start)
    return starts


def _renumber(lines: list[int], refused: list[int]) -> list[int]:
    """Provisional line numbers (one per kept row, in order) as the file's lines, given the sorted
    lines the reader refused in between."""
    out, shift, j = [], 0, 0
    for line in lines:
        while j < len(refused) and refused[j] <= line + shift:
            shift += 1
            j += 1
        out.append(line + shift)
    return out


