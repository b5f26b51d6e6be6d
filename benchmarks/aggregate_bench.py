"""Grouped count and sum over 10^6 facts: sym's engine next to DuckDB's GROUP BY on the same data,
ratios from one run (issue 47's goal: at most 2x DuckDB).

Not a test. Usage (from the repository root):

    PYTHONPATH=. python benchmarks/aggregate_bench.py                  # 10^6 facts, 1,000 groups
    PYTHONPATH=. python benchmarks/aggregate_bench.py --facts 100000 --runs 5
    PYTHONPATH=. python benchmarks/aggregate_bench.py --batch 100000   # also sym --batch /consult

The data is `item(gI, V)`: every pair distinct (sym holds a set, SQL a bag, so their counts agree),
values 0..999, shuffled. Both sides start from Python lists made before the clock starts, each in
its own input form: sym a list of `Atom`s, DuckDB one list per column. Each figure is the median of
`--runs`, each run a fresh engine or connection, timed with its load, sym's runs and DuckDB's
taken in turn:

  sym      Engine(): add_facts(items + 1,000 group/1 facts), add_program(the rule), solve(`?- n(G, N).`)
           for  n(G, N) :- group(G), aggregate_all(count, item(G, _), N).
           and  s(G, S) :- group(G), aggregate_all(sum(V), item(G, V), S).
  duckdb   connect, register the columns as numpy arrays, SELECT g, count(*) / sum(v) ... GROUP BY g,
           fetchall.
  load     sym's add_facts alone (a set of 10^6 tuples: in pure Python about what DuckDB takes in
           all); "x, load aside" is the rule and its answer over DuckDB's whole time.
  join     a program without aggregates on the same facts, `big(G, V) :- item(G, V), keep(V).`
           (keep: 100 of the values), its time printed next to DuckDB's same join: aggregates must
           not slow such programs, and what they add to planning is per rule, not per fact.

`--batch N` also times, once per run, a fresh `sym --batch` process consulting a file of N such
facts and answering the count, next to a fresh Python process reading the same facts as CSV into
DuckDB (both start to exit); at 10^6 it takes minutes, so it is off unless asked for.
Answers must agree with DuckDB's; a disagreement prints MISMATCH and exits 1.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
SYM = str(Path(sys.executable).with_name("sym"))
GOAL = 2.0

RULES = {
    "count": "n(G, N) :- group(G), aggregate_all(count, item(G, _), N).",
    "sum": "s(G, S) :- group(G), aggregate_all(sum(V), item(G, V), S).",
}
QUERIES = {"count": "n(G, N)", "sum": "s(G, S)"}
SQL = {"count": "SELECT g, count(*) FROM item GROUP BY g", "sum": "SELECT g, sum(v) FROM item GROUP BY g"}
JOIN_RULE = "big(G, V) :- item(G, V), keep(V)."
JOIN_SQL = "SELECT item.g, item.v FROM item JOIN keep ON item.v = keep.v"


def data(n: int, groups: int) -> list[tuple[str, int]]:
    order = list(range(n))
    random.Random(47).shuffle(order)     # shuffled before the tuples are made, as a parse makes them in file order
    return [(f"g{i % groups}", i // groups) for i in order]


def medians(runs: int, ours: Callable[[], Any], theirs: Callable[[], Any]) -> tuple[float, Any, float, Any]:
    """(median s, answer) of each, their runs taken in turn so that a busy machine slows both alike."""
    times: tuple[list[float], list[float]] = ([], [])
    answers: list[Any] = [None, None]
    for _ in range(runs):
        for i, once in enumerate((ours, theirs)):
            gc.collect()
            start = time.perf_counter()
            answers[i] = once()
            times[i].append(time.perf_counter() - start)
    return statistics.median(times[0]), answers[0], statistics.median(times[1]), answers[1]


def sym_answer(atoms: list[Any], rule: str, query: str, loads: list[float]) -> set[tuple[Any, ...]]:
    """The answers; how long add_facts took goes into `loads`."""
    from sym.core.logic.engine import Engine
    from sym.core.logic.parser import parse_one, parse_query

    start = time.perf_counter()
    engine = Engine()
    engine.add_facts(atoms)
    loads.append(time.perf_counter() - start)
    engine.add_program([parse_one(rule)])
    q = parse_query(f"?- {query}.")
    return {tuple(b.values()) for b in engine.solve(q)}


def duck_answer(columns: dict[str, dict[str, list[Any]]], sql: str) -> set[tuple[Any, ...]]:
    import duckdb
    import numpy as np

    con = duckdb.connect()
    for name, cols in columns.items():
        con.register(name, {c: np.array(v, dtype=object if isinstance(v[0], str) else np.int64)
                            for c, v in cols.items()})
    found = {tuple(r) for r in con.execute(sql).fetchall()}
    con.close()
    return found


def batch_times(n: int, groups: int, runs: int) -> tuple[float, float, bool]:
    """(sym --batch, duckdb from CSV, answers agree): fresh processes, medians of `runs`."""
    home = Path(tempfile.mkdtemp(prefix="sym-aggregate-bench-"))
    try:
        rows = data(n, groups)
        program = home / "items.pl"
        program.write_text("".join(f"item({g}, {v}).\n" for g, v in rows)
                           + "".join(f"group(g{i}).\n" for i in range(groups)) + RULES["count"] + "\n",
                           encoding="utf-8")
        csv = home / "items.csv"
        csv.write_text("g,v\n" + "".join(f"{g},{v}\n" for g, v in rows), encoding="utf-8")
        env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
        script = f"/consult {program}\n?- n(g1, N).\n"
        duck = (f"import duckdb; print(duckdb.sql(\"SELECT count(*) FROM read_csv('{csv}') "
                "WHERE g = 'g1' GROUP BY g\").fetchall()[0][0])")
        sym_t, duck_t, agree = [], [], True
        for run in range(runs):
            start = time.perf_counter()
            out = subprocess.run([SYM, "--batch", "-"], input=script, capture_output=True, text=True,
                                 env={**env, "SYM_HOME": str(home / f"home{run}")}, cwd=ROOT)
            sym_t.append(time.perf_counter() - start)
            start = time.perf_counter()
            ref = subprocess.run([sys.executable, "-c", duck], capture_output=True, text=True, env=env)
            duck_t.append(time.perf_counter() - start)
            expected = ref.stdout.strip()
            agree = agree and out.returncode == 0 and f"N = {expected}" in out.stdout
        return statistics.median(sym_t), statistics.median(duck_t), agree
    finally:
        shutil.rmtree(home, ignore_errors=True)


def row(name: str, sym_s: float, load_s: float | None, duck_s: float, same: bool) -> str:
    load = f"{load_s:11.2f}" if load_s is not None else f"{'':11}"
    aside = f"{(sym_s - load_s) / duck_s:14.1f}" if load_s is not None else f"{'':14}"
    return (f"{name:28} {sym_s:7.2f} {load} {duck_s:9.3f} {sym_s / duck_s:9.1f} {aside}"
            f"{'' if same else '  MISMATCH'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=1_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=0, metavar="N", help="also sym --batch /consult of N facts")
    ap.add_argument("--general", action="store_true", help="also time the aggregates' general path (no fast path)")
    args = ap.parse_args()
    from sym.core.logic import aggregate
    from sym.core.logic.terms import Atom

    rows = data(args.facts, args.groups)
    names = [f"g{i}" for i in range(args.groups)]
    kept = list(range(0, 1000, 10))
    atoms = [Atom("item", r) for r in rows] + [Atom("group", (g,)) for g in names]
    columns = {"item": {"g": [g for g, _ in rows], "v": [v for _, v in rows]}}
    print(f"{args.facts:,} facts item(G, V) in {args.groups:,} groups; median of {args.runs} runs, load included")
    print(f"{'case':28} {'sym s':>7} {'sym load s':>11} {'duckdb s':>9} {'x duckdb':>9} {'x, load aside':>14}")
    failed = False
    worst = 0.0
    for case in RULES:      # imports and the grammar's tables, before any clock
        sym_answer(atoms[:10], RULES[case], QUERIES[case], [])
        duck_answer({"item": {"g": ["g0"], "v": [0]}}, SQL[case])
    for case, fast in [(c, f) for c in ("count", "sum") for f in ((True, False) if args.general else (True,))]:
        aggregate.FAST_PATH = fast
        loads: list[float] = []
        sym_s, got, duck_s, want = medians(args.runs, lambda: sym_answer(atoms, RULES[case], QUERIES[case], loads),
                                           lambda: duck_answer(columns, SQL[case]))
        aggregate.FAST_PATH = True
        ratio = sym_s / duck_s
        if fast:
            worst = max(worst, ratio)
        same = got == want
        failed |= not same
        name = f"grouped {case}" + ("" if fast else " (general path)")
        print(row(name, sym_s, statistics.median(loads), duck_s, same))
    join_atoms = atoms + [Atom("keep", (v,)) for v in kept]
    join_columns = {**columns, "keep": {"v": kept}}
    loads = []
    sym_s, got, duck_s, want = medians(args.runs, lambda: sym_answer(join_atoms, JOIN_RULE, "big(G, V)", loads),
                                       lambda: duck_answer(join_columns, JOIN_SQL))
    same = got == want
    failed |= not same
    print(row("join, no aggregate", sym_s, statistics.median(loads), duck_s, same))
    if args.batch:
        sym_s, duck_s, same = batch_times(args.batch, args.groups, args.runs)
        failed |= not same
        print(row(f"--batch /consult {args.batch:,}", sym_s, None, duck_s, same))
    print(f"goal: grouped count and sum <= {GOAL:.0f}x DuckDB: {worst:.1f}x {'ok' if worst <= GOAL else 'MISSED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
