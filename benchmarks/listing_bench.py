"""Listing a query's answers costs what the answers cost (issue 31, item 5): `?- p(X, Y).` on an
N-edge chain's closure (N(N+1)/2 answers, 50 shown) through a recording shell, beside the
fixpoint alone (the same rules inferred by a bare engine). Goal: the query ≤ 1.5x the fixpoint
(issue 49; issue 31 asked for 2x).

Each size runs in a fresh process with its own SYM_HOME: the chain is consulted into an embedded
workspace with the session log recording, then the query is timed through `Shell.execute` (the
engine, the rows, the result and what the log writes of it); the fixpoint is timed in the same
process on a fresh engine. Not part of the test run:

    python benchmarks/listing_bench.py                 # chains of 1,000 and 2,000 edges
    python benchmarks/listing_bench.py --sizes 500,1000

Measured (2 shared cores): before this change, 1,000 edges (500,500 answers) took 27.4 s (17.7 s
in the session log's bookkeeping) against a 1.2 s fixpoint. After:

    edges    answers  fixpoint    query  ratio
    1,000    500,500     0.44s    0.58s  1.31x
    2,000  2,001,000     0.76s    1.53s  2.00x

Issue 49 measured 2.4x at 2,000 edges. The answers are now kept as the model's columns of symbol
ids (core.logic.dense_query.DenseRows): the 50 shown are decoded, the count is the columns'
length, and the log's digest of every row is read from each symbol's bytes, not from a tuple per
row; `?- p(X, Y).` over a whole relation takes its columns without a join. On 2 loaded cores:

    2,000  2,001,000     2.74s    2.59s  0.95x
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL = 1.5
RULES = "p(X, Y) :- e(X, Y).\np(X, Y) :- e(X, Z), p(Z, Y).\n"


def worker(n: int, folder: Path) -> dict:
    import sym.core.logic.dense_query  # noqa: F401  (the set-at-a-time path's imports, numpy's: timed by neither side)
    import sym.core.logic.dense_rounds  # noqa: F401
    from sym.core.logic.engine import Engine
    from sym.core.logic.parser import parse_program
    from sym.repl.dispatcher import MemoryOptions, open_shell

    program = folder / "chain.pl"
    program.write_text("".join(f"e(n{i}, n{i + 1}).\n" for i in range(n)) + RULES)
    engine = Engine()           # the fixpoint alone first, then dropped: the query starts on a clean heap
    engine.add_program(item.clause for item in parse_program(program.read_text()))
    began = time.perf_counter()
    engine.infer()
    fixpoint = time.perf_counter() - began
    del engine
    gc.collect()
    shell = open_shell(MemoryOptions("bench", background=False), base_dir=folder)   # as --batch opens it
    shell.execute(f"/consult {program}")
    began = time.perf_counter()
    _, result = shell.execute("?- p(X, Y).")
    query = time.perf_counter() - began
    log = shell.ctx.session.path if getattr(shell.ctx, "session", None) is not None else None
    answers = len(result.answer.bindings)
    size = log.stat().st_size if log is not None and log.exists() else None
    return {"n": n, "answers": answers, "query": query, "fixpoint": fixpoint, "log_bytes": size}


def run(n: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="sym-listing-") as tmp:
        env = {**os.environ, "SYM_HOME": str(Path(tmp) / "home"), "PYTHONPATH": str(ROOT)}
        proc = subprocess.run([sys.executable, __file__, "--worker", str(n), "--folder", tmp], capture_output=True,
                              text=True, env=env, cwd=tmp)
        if proc.returncode:
            raise SystemExit(proc.stderr.strip()[-2000:])
        return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,2000", help="chain lengths, comma-separated")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, Path(args.folder))))
        return 0
    print(f"{'edges':>7} {'answers':>10} {'fixpoint':>9} {'query':>8} {'ratio':>6}  goal ≤ {GOAL:g}x")
    worst = 0.0
    for n in (int(s) for s in args.sizes.split(",")):
        r = run(n)
        ratio = r["query"] / r["fixpoint"]
        worst = max(worst, ratio)
        print(f"{n:>7,} {r['answers']:>10,} {r['fixpoint']:>8.2f}s {r['query']:>7.2f}s {ratio:>5.2f}x")
    print("goal met" if worst <= GOAL else "goal missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
