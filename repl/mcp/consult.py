"""The consult tool's table arguments: what `/consult FILE.csv|.tsv|.parquet as NAME/ARITY` (or
`as NAME(COLUMN, …)`) with `--header`, `--no-header`, `--skip-bad` takes in the shell, as typed
fields of the tool's input schema.

`as` is read by the shell's own parser of that part (core.backends.tabular.parse_spec) on its own,
so it can only name a relation, never carry a flag or more text; the flags are booleans. sym writes
the command line from them and reads it back with the same parser: a line that would not mean the
relation and flags given (a file name that itself ends in `as …`, say) is refused, never run.
Nothing here runs a command or imports the SDK.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sym.core.backends import tabular
from sym.core.errors import UserError

FLAGS = (("header", "--header"), ("no_header", "--no-header"), ("skip_bad", "--skip-bad"))
HINT = 'as: "edge/2" (columns in order) or "person(name, age)" (by header name or number)'

TABLE: dict[str, dict[str, Any]] = {
    "as": {"type": "string", "description": "a table's rows (FILE.csv|.tsv|.parquet) as the facts of one relation: "
                                            "NAME/ARITY, its columns in order (edge/2), or NAME(COLUMN, …), columns "
                                            "by header name or by number from 1 (person(name, age), edge(1, 3))"},
    "header": {"type": "boolean", "description": "a CSV/TSV table's first line is a header (--header)"},
    "no_header": {"type": "boolean", "description": "a CSV/TSV table has no header line (--no-header)"},
    "skip_bad": {"type": "boolean", "description": "add the good rows and warn of bad ones, rather than refuse "
                                                   "the whole file (--skip-bad)"},
}


def table_line(args: dict[str, Any]) -> str | None:
    """The /consult line for a call that names a relation (`as`), checked; None for a call with
    none of the table arguments (a Prolog file: the tool's usual line)."""
    flags = [flag for key, flag in FLAGS if args.get(key)]
    target = args.get("as")
    if target is None:
        if flags:
            raise UserError("header, no_header and skip_bad go with as: the relation a table's rows become", hint=HINT)
        return None
    shown = target if len(target) <= 60 else target[:57] + "…"
    try:
        alone = tabular.parse_spec(f"t.csv as {target}")
    except UserError as err:
        raise UserError(f"as names no relation: {shown!r} ({err.message})", hint=HINT) from None
    if alone is None or alone.file != "t.csv" or alone.header is not None or alone.skip_bad:
        raise UserError(f"as names no relation: {shown!r}", hint=HINT)
    file = str(args.get("file", "")).strip()
    line = " ".join(["/consult", file, "as", target.strip(), *flags])
    read = tabular.parse_spec(line.removeprefix("/consult "))     # the flags' own checks: both headers, …
    wanted = replace(alone, file=file, header=True if args.get("header") else False if args.get("no_header") else None,
                     skip_bad=bool(args.get("skip_bad")))
    if read != wanted:
        raise UserError("the file name would be read as part of the relation", hint="rename the file, or move it")
    return line
