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

from sym.core.backends.tabular_reader import HINT, SHOWN_BAD_ROWS, TableReader, place_lines
from sym.core.backends.types import Refused, join_types
from sym.core.errors import UserError
from sym.core.files import check_file
from sym.core.logic.parser import MAX_DIGITS, _number, _unquote
from sym.core.logic.pause import gc_paused
from sym.core.logic.terms import Atom, Const

FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet", ".pq": "parquet"}
BATCH_ROWS = 8192            # rows fetched from DuckDB at a time: cancel is checked between batches
OPTIONS = ("--header", "--no-header", "--skip-bad")
_LOGICAL = {int: "int", float: "num", str: "str"}      # a constant's type as a SQL column holds it

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
        return len(self.columns) if self.columns is not None else self.arity or 0

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
    if text.isdigit() and text.isascii() and len(text) <= MAX_DIGITS:    # the common case, fast
        return int(text)
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

    def skipped(self) -> list[str]:
        """The warning of --skip-bad: the bad rows left out (none: no warning)."""
        if not self.bad_count:
            return []
        return [f"{self.bad_count:,} bad row{'s' if self.bad_count != 1 else ''} skipped (--skip-bad): "
                f"{self.bad_report()}"]

    def sources(self) -> Iterator[tuple[Atom, str]]:
        label = self.label
        for fact, line in zip(self.facts, self.lines, strict=True):
            yield fact, f"{label}:{line}"


@dataclass
class Survey:
    """A first pass over a table for a relational backend: its rows checked (`staged`, with no
    facts kept) and the logical type of each column (`int`, `num`, `str`)."""

    staged: Staged
    types: tuple[str, ...]


def _checked(path: Path, spec: TableSpec) -> str:
    check_file(path, 2.0**40)     # a regular file (no FIFO, no device): streamed, so of any size
    if _GLOB.search(path.name):
        raise UserError(f"{path.name}: a file name with * ? [ ] {{ }} cannot be read as a table",
                        hint="rename the file")
    kind = table_format(path)
    if kind == "parquet" and spec.header is not None:
        raise UserError("--header and --no-header are for CSV and TSV files", hint="a Parquet file names its columns")
    return kind


def _scan(path: Path, spec: TableSpec, staged: Staged, *, check: Callable[[], None],
          progress: Callable[[int, int], object] | None, memory_limit: str | None = None,
          ) -> Iterator[list[tuple[int, tuple[Const, ...]]]]:
    """The good rows of the table, a batch at a time, as (line, constants); the bad ones noted in
    `staged` (their lines placed once the file is read), its row count set at the end."""
    kind = _checked(path, spec)
    staged.unit = "row" if kind == "parquet" else "line"
    text = kind != "parquet"       # every value a str or None: the cache is tried first
    typed = text_constant if text else value_constant
    cache: dict[Any, Const] = {}
    get = cache.get
    bad_lines: list[int] = []
    kept = 0
    with TableReader(path, kind, spec, memory_limit=memory_limit) as reader, gc_paused():
        for batch in reader.batches(BATCH_ROWS):
            check()
            good = []
            for line, row in batch:
                try:
                    args = (tuple([c if (c := get(v)) is not None else _typed(v, typed, cache) for v in row])
                            if text else tuple([_typed(v, typed, cache) for v in row]))
                except BadValue as err:
                    bad_lines.append(line)
                    staged.note_bad(line, f"{err} in column {reader.describe(_first_bad(row, typed))}")
                    continue
                good.append((line, args))
            kept += len(batch)
            yield good
            if progress is not None:
                progress(*reader.progress())
            if len(cache) > 1 << 18:
                cache.clear()       # `get` is bound to this same dict
        rejected = reader.rejected()
    staged.rows = kept + len(rejected)
    if kind != "parquet":
        place_lines(path, reader, staged, kept, bad_lines, rejected)


def _refuse_bad(path: Path, spec: TableSpec, staged: Staged) -> None:
    if staged.bad_count and not spec.skip_bad:
        raise UserError(f"{path.name}: {staged.bad_count:,} of {staged.rows:,} rows are bad, nothing added: "
                        f"{staged.bad_report()}", hint="fix them, or add --skip-bad to add only the good rows")


def stage(path: Path, spec: TableSpec, *, check: Callable[[], None] = lambda: None,
          progress: Callable[[int, int], object] | None = None, max_rows: int | None = None,
          memory_limit: str | None = None) -> Staged:
    """Read `path` as `spec` says into a Staged relation. A missing or unreadable file, a wrong
    arity, an unknown column, more rows than `max_rows`, or (without --skip-bad) any bad row is a
    UserError; `check` (the run's cancel check) is called between batches. Nothing is added here."""
    staged = Staged(spec, path.name)
    pred, facts, lines = spec.pred, staged.facts, staged.lines
    for batch in _scan(path, spec, staged, check=check, progress=progress, memory_limit=memory_limit):
        for line, args in batch:
            facts.append(Atom(pred, args))
            lines.append(line)
        if max_rows is not None and len(facts) > max_rows:
            raise UserError(f"{path.name} has more than {max_rows:,} rows; max_facts is {max_rows:,}",
                            hint="/set max_facts N to allow more")
    _refuse_bad(path, spec, staged)
    return staged


def survey(path: Path, spec: TableSpec, *, check: Callable[[], None] = lambda: None,
           progress: Callable[[int, int], object] | None = None) -> Survey:
    """A first pass for a relational backend: every row checked (as `stage` does, keeping no
    facts) and each column's type found; a column of both numbers and atoms is a UserError (a SQL
    column has one type)."""
    staged = Staged(spec, path.name)
    types: list[str | None] = [None] * spec.width
    seen: list[set[type]] = [set() for _ in range(spec.width)]
    for batch in _scan(path, spec, staged, check=check, progress=progress):
        for _, args in batch:
            for i, value in enumerate(args):
                seen[i].add(type(value))
    for i, kinds in enumerate(seen):
        try:
            for kind in kinds:
                types[i] = join_types(types[i], _LOGICAL[kind], f"column {i + 1} of {path.name}")
        except Refused as err:
            raise UserError(str(err), hint="/set engine native reads it into memory, where a column may mix them") from None
    _refuse_bad(path, spec, staged)
    return Survey(staged, tuple(t or "str" for t in types))


def filler(path: Path, spec: TableSpec, surveyed: Survey, *, check: Callable[[], None] = lambda: None,
           progress: Callable[[int, int], object] | None = None) -> Callable[[Any, str], int]:
    """What fills a relational backend's staging table with the good rows (a second pass): for
    `RelationalEngine.attach`, which swaps the table in whole only once it is full."""

    def fill(executor: Any, table: str) -> int:
        staged, types, count = Staged(spec, path.name), list(surveyed.types), 0
        for batch in _scan(path, spec, staged, check=check, progress=progress):     # a batch at a time, never whole
            if batch:
                count += int(executor.insert_rows(table, [args for _, args in batch], types))
        if staged.bad_count != surveyed.staged.bad_count or staged.rows != surveyed.staged.rows:
            raise UserError(f"{path.name} changed while it was read", hint="consult it again")
        return count

    return fill


def _typed(value: object, typed: Callable[[Any], Const], cache: dict[Any, Const]) -> Const:
    """`typed(value)`, remembered for text (only text: True == 1 == 1.0 would share an entry)."""
    if type(value) is not str:
        return typed(value)
    const = cache.get(value)
    if const is None:
        const = cache[value] = typed(value)
    return const


def _first_bad(row: Sequence[object], typed: Callable[[Any], Const]) -> int:
    for i, value in enumerate(row):
        try:
            typed(value)
        except BadValue:
            return i
    return 0
