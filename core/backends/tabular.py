"""Import of tabular files (CSV, TSV, Parquet) as the facts of one relation.

`/consult FILE as NAME/ARITY` or `as NAME(COLUMN, …)`: the file is read by DuckDB's own readers
in batches, each value typed as the logic's constants (as the parser reads them), and the rows
staged, so that the caller adds a whole relation or nothing. Nothing of the file or of what the
user typed is spliced into SQL text: the path is a parameter, columns are quoted identifiers of
names read back from the reader. DuckDB is imported only here, on the first import.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from sym.core.errors import UserError
from sym.core.files import check_file
from sym.core.logic.parser import MAX_DIGITS, _number, _unquote
from sym.core.logic.pause import gc_paused
from sym.core.logic.terms import Atom, Const

FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet", ".pq": "parquet"}
BATCH_ROWS = 8192            # rows fetched from DuckDB at a time: cancel is checked between batches
SHOWN_BAD_ROWS = 5           # the bad rows a report names (with their line numbers); then a count
OPTIONS = ("--header", "--no-header", "--skip-bad")
HINT = "/consult edges.csv as edge/2  or  /consult people.csv as person(name, age) --header"

_NAME = r"[^\W\dA-Z_\u00C0-\u00D6\u00D8-\u00DE\u0391-\u03A9\u0410-\u042F]\w*|'(?:[^'\\\n]|\\.|'')*'"
_TARGET = re.compile(rf"\s+as\s+(?P<name>{_NAME})\s*(?:/\s*(?P<arity>\d+)|\((?P<cols>[^()]*)\))\s*$", re.S)
_COLUMN = re.compile(r"""\s*(?:'((?:[^'\\]|\\.|'')*)'|"((?:[^"\\]|\\.|"")*)"|([^,'"]*?))\s*(,|$)""")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_QUOTED = re.compile(r"""'(?:[^'\\\n]|\\.|'')*'|"(?:[^"\\\n]|\\.)*\"""")
_GLOB = re.compile(r"[*?\[\]{}]")


@dataclass(frozen=True)
class TableSpec:
    """What `/consult FILE as …` asks for: the file, the relation, and which columns fill it."""

    file: str
    pred: str
    arity: int | None = None                         # `as NAME/ARITY`: all the columns, in order
    columns: tuple[str | int, ...] | None = None     # `as NAME(c1, 3)`: header names or 1-based positions
    header: bool | None = None                       # --header / --no-header (None: as the spec implies)
    skip_bad: bool = False                           # --skip-bad: add the good rows, report the bad

    @property
    def width(self) -> int:
        return self.arity if self.columns is None else len(self.columns)

    @property
    def key(self) -> str:
        return f"{self.pred}/{self.width}"

    @property
    def named(self) -> bool:
        return self.columns is not None and any(isinstance(c, str) for c in self.columns)


def parse_spec(arg: str) -> TableSpec | None:
    """The spec of a tabular /consult, or None when `arg` has no `as NAME/ARITY` or `as NAME(…)` at
    its end (a Prolog file). A malformed spec is a UserError."""
    text, flags = arg.strip(), set()
    while True:
        head, _, last = text.rpartition(" ")
        if last not in OPTIONS or not head.strip():
            break
        flags.add(last)
        text = head.rstrip()
    m = _TARGET.search(text)
    if m is None:
        if flags or (" as " in text and is_table_name(text.split(" as ")[0])):
            raise UserError("expected FILE as NAME/ARITY or FILE as NAME(COLUMN, …)", hint=HINT)
        return None
    file = text[:m.start()].strip()
    name = m.group("name")
    pred = _unquote(name) if name.startswith("'") else name
    if not file:
        raise UserError("no file given", hint=HINT)
    if not pred:
        raise UserError("the relation needs a name", hint=HINT)
    if "--header" in flags and "--no-header" in flags:
        raise UserError("both --header and --no-header given", hint="give one of them")
    header = True if "--header" in flags else False if "--no-header" in flags else None
    skip_bad = "--skip-bad" in flags
    if m.group("arity") is not None:
        arity = int(m.group("arity"))
        if arity < 1:
            raise UserError(f"{pred}/{arity}: a relation read from a table has at least one column", hint=HINT)
        return TableSpec(file, pred, arity=arity, header=header, skip_bad=skip_bad)
    columns = _columns(m.group("cols"))
    spec = TableSpec(file, pred, columns=columns, header=header, skip_bad=skip_bad)
    if spec.named and header is False:
        raise UserError("columns named by header, but --no-header given", hint="name them by number: as p(1, 3)")
    return spec


def _columns(text: str) -> tuple[str | int, ...]:
    out: list[str | int] = []
    pos = 0
    while pos <= len(text):
        m = _COLUMN.match(text, pos)
        if m is None:
            raise UserError(f"cannot read the column list ({text.strip()[:60]})", hint=HINT)
        single, double, bare, end = m.groups()
        if single is not None:
            out.append(_unquote(f"'{single}'"))
        elif double is not None:
            out.append(_unquote(f'"{double}"'))
        elif bare and bare.isdigit():
            if int(bare) < 1:
                raise UserError("columns are numbered from 1", hint=HINT)
            out.append(int(bare))
        elif bare:
            out.append(bare)
        else:
            raise UserError("an empty column in the column list", hint=HINT)
        pos = m.end()
        if not end:
            break
    return tuple(out)


def is_table_name(name: str) -> bool:
    """Whether a file name says a table (.csv, .tsv, .parquet, or .csv.gz / .tsv.gz)."""
    suffixes = [s.lower() for s in Path(name.strip()).suffixes]
    return bool(suffixes) and (suffixes[-1] in FORMATS or suffixes[-2:] in ([".csv", ".gz"], [".tsv", ".gz"]))


def table_format(path: Path) -> str:
    """csv, tsv or parquet, by the file's extension (a .gz after .csv or .tsv is read compressed)."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes[-1:] == [".gz"] and len(suffixes) >= 2 and FORMATS.get(suffixes[-2]) in ("csv", "tsv"):
        return FORMATS[suffixes[-2]]
    kind = FORMATS.get(suffixes[-1] if suffixes else "")
    if kind is None:
        raise UserError(f"cannot tell the format of {path.name}: name it .csv, .tsv or .parquet",
                        hint="CSV (.csv), tab-separated (.tsv) and Parquet (.parquet) files are read as tables")
    return kind


# -- values --------------------------------------------------------------------------------------

class BadValue(ValueError):
    """A value that no constant of the logic can hold."""


def text_constant(text: str | None) -> Const:
    """A cell's text as the parser reads a constant: a number is its value (`1.0` is 1), a quoted
    atom ('bald eagle', "x") its unquoted text, anything else (spaces around it dropped) the atom
    it spells, capitals included (`Bob` is the atom 'Bob', never a variable)."""
    if text is None:                # an empty field: DuckDB's NULL
        raise BadValue("empty value")
    text = text.strip()
    if not text:
        raise BadValue("empty value")
    if _NUMBER.fullmatch(text):
        try:
            return _number(text)
        except ValueError as err:
            raise BadValue(str(err)) from None
    if _QUOTED.fullmatch(text):
        return _unquote(text)
    return text


def value_constant(value: object) -> Const:
    """A value of a typed column (Parquet) as a constant: integers and floats as numbers (a whole
    float is an integer, as in the parser), text as `text_constant` reads it, booleans, dates and
    times as the atoms of their text; NULL, NaN, infinities and nested values are bad values."""
    if isinstance(value, str):
        return text_constant(value)
    if value is None:
        raise BadValue("empty value (NULL)")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if len(str(abs(value))) > MAX_DIGITS:
            raise BadValue(f"an integer of more than {MAX_DIGITS} digits")
        return value
    if isinstance(value, (float, Decimal)):
        number = float(value)
        if not math.isfinite(number):
            raise BadValue(f"number {value} is not finite")
        if isinstance(value, Decimal) and value == value.to_integral_value():
            return int(value)
        return int(number) if number.is_integer() else number
    if isinstance(value, (bytes, bytearray, memoryview, list, tuple, dict)):
        raise BadValue(f"a {type(value).__name__} value (only numbers and text become constants)")
    return str(value)   # date, time, timestamp, UUID, interval: the atom of its text


# -- staging -------------------------------------------------------------------------------------

@dataclass
class Staged:
    """A relation read whole and checked, not yet added: its facts (with the line each came from),
    how many rows the file had, and the bad rows (the first few, and how many in all)."""

    spec: TableSpec
    label: str                                           # the file's name, as sources name it
    facts: list[Atom] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)       # the line (CSV) or row (Parquet) of each fact
    rows: int = 0                                        # rows read, bad ones included
    bad: list[tuple[int, str]] = field(default_factory=list)
    bad_count: int = 0
    unit: str = "line"                                   # what `lines` count: line (CSV/TSV) or row (Parquet)

    def note_bad(self, line: int, problem: str) -> None:
        self.bad_count += 1
        if len(self.bad) < SHOWN_BAD_ROWS:
            self.bad.append((line, problem))

    def bad_report(self) -> str:
        """The bad rows in one line: the first few with their line numbers, then a count."""
        shown = "; ".join(f"{self.unit} {line}: {problem}" for line, problem in sorted(self.bad))
        more = self.bad_count - len(self.bad)
        return shown + (f"; and {more:,} more" if more else "")

    def sources(self) -> Iterator[tuple[Atom, str]]:
        label = self.label
        for fact, line in zip(self.facts, self.lines, strict=True):
            yield fact, f"{label}:{line}"


class TableReader:
    """One file read by DuckDB, batch by batch: `(line, values)` pairs of the columns the spec
    picks, in file order; then `rejected()`, the lines DuckDB's CSV reader refused. A context
    manager: the in-memory DuckDB connection closes with it."""

    def __init__(self, path: Path, kind: str, spec: TableSpec, *, memory_limit: str | None = None) -> None:
        import duckdb

        self.path, self.kind, self.spec = path, kind, spec
        config = {"memory_limit": memory_limit} if memory_limit else {}
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
        self.estimate = self.con.execute("SELECT count(*) FROM read_parquet($1)", [str(self.path)]).fetchone()[0]
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
    import csv
    import gzip
    import io

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


def stage(path: Path, spec: TableSpec, *, check: Callable[[], None] = lambda: None,
          progress: Callable[[int, int], object] | None = None, max_rows: int | None = None,
          memory_limit: str | None = None) -> Staged:
    """Read `path` as `spec` says into a Staged relation. A missing or unreadable file, a wrong
    arity, an unknown column, more rows than `max_rows`, or (without --skip-bad) any bad row is a
    UserError; `check` (the run's cancel check) is called between batches. Nothing is added here."""
    check_file(path, 2.0**40)     # a regular file (no FIFO, no device): streamed, so of any size
    if _GLOB.search(path.name):
        raise UserError(f"{path.name}: a file name with * ? [ ] {{ }} cannot be read as a table",
                        hint="rename the file")
    kind = table_format(path)
    if kind == "parquet" and spec.header is not None:
        raise UserError("--header and --no-header are for CSV and TSV files", hint="a Parquet file names its columns")
    staged = Staged(spec, path.name, unit="row" if kind == "parquet" else "line")
    typed = value_constant if kind == "parquet" else text_constant
    cache: dict[Any, Const] = {}
    bad_lines: list[int] = []
    with TableReader(path, kind, spec, memory_limit=memory_limit) as reader, gc_paused():
        for batch in reader.batches(BATCH_ROWS):
            check()
            for line, row in batch:
                try:
                    args = tuple([_typed(v, typed, cache) for v in row])
                except BadValue as err:
                    bad_lines.append(line)
                    staged.note_bad(line, f"{err} in column {reader.describe(_first_bad(row, typed))}")
                    continue
                staged.facts.append(Atom(spec.pred, args))
                staged.lines.append(line)
            if max_rows is not None and len(staged.facts) > max_rows:
                raise UserError(f"{path.name} has more than {max_rows:,} rows; max_facts is {max_rows:,}",
                                hint="/set max_facts N to allow more")
            if progress is not None:
                progress(*reader.progress())
            if len(cache) > 1 << 18:
                cache.clear()
        rejected = reader.rejected()
    staged.rows = len(staged.facts) + staged.bad_count + len(rejected)
    if kind != "parquet":
        _place(path, reader, staged, bad_lines, rejected)
    if staged.bad_count and not spec.skip_bad:
        raise UserError(f"{path.name}: {staged.bad_count:,} of {staged.rows:,} rows are bad, nothing added: "
                        f"{staged.bad_report()}", hint="fix them, or add --skip-bad to add only the good rows")
    return staged


def _place(path: Path, reader: TableReader, staged: Staged, bad_lines: list[int],
           rejected: list[tuple[int, str]]) -> None:
    """Give the rows of a CSV/TSV file their lines. The reader numbered the rows it kept one line
    each; that is right when the file's lines are its header, those rows and the lines it refused.
    Otherwise (blank lines, line breaks inside quotes) the records' first lines are found by a pass
    of Python's csv module, which splits records as DuckDB does."""
    refused = [line for line, _ in rejected]
    kept = len(staged.facts) + len(bad_lines)
    if _line_count(path) != reader.first_line - 1 + kept + len(refused):
        starts = _record_lines(path, reader, set(refused))
        if len(starts) == kept:
            place = lambda line: starts[line - reader.first_line]  # noqa: E731
            staged.lines = [place(line) for line in staged.lines]
            moved = {line: place(line) for line in bad_lines}
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
    import gzip

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
    import csv
    import io

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


def _typed(value: object, typed: Callable[[Any], Const], cache: dict[Any, Const]) -> Const:
    if type(value) is not str:     # only text is cached: True == 1 == 1.0 would share an entry
        return typed(value)
    try:
        return cache[value]
    except KeyError:
        const = cache[value] = typed(value)
        return const


def _first_bad(row: Sequence[object], typed: Callable[[Any], Const]) -> int:
    for i, value in enumerate(row):
        try:
            typed(value)
        except BadValue:
            return i
    return 0
