"""The 3-way join on the native engine against DuckDB (issue 49): `path3(X, W) :- e(X, Y), e(Y, Z),
e(Z, W).` over a random graph of n edges on n/2 nodes, each engine in a fresh process, CPU seconds
(all threads) of load + inference + count, and the memory the model holds per derived fact (the
process's resident set after the count less before the load, the input already built), beside the
peak over the same part. Counts must agree (MISMATCH exits 1). Goal: at most 2x DuckDB's time, at
most 100 bytes a derived fact.

    python benchmarks/join_bench.py [--sizes 1000000,10000000] [--runs 3] [--baseline DIR]

sym: `Engine.add_facts` of the edges as atoms (built before, untimed), the rule, `infer()`, the
length of path3/2. DuckDB: the edges registered from numpy, `CREATE TABLE e AS SELECT DISTINCT`,
`CREATE TABLE path3 AS SELECT DISTINCT` of the join, `count(*)`. `--baseline DIR` also runs sym
from another checkout (say a worktree of an earlier commit: `git worktree add /tmp/before HEAD~3`),
so before and after are measured in the same run. README's performance table has the last run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
GOAL_RATIO, GOAL_BYTES = 2.0, 100


def edges(n: int) -> tuple[object, object]:
    import numpy as np

    rng = np.random.default_rng(0)
    return rng.integers(0, n // 2, n, dtype=np.int64), rng.integers(0, n // 2, n, dtype=np.int64)


def resident() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))


def reset_peak() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")     # the peak resident set starts again from now
    except OSError:
        pass


def child_sym(n: int) -> dict[str, float]:
    from sym.core.logic.engine import Engine
    from sym.core.logic.parser import parse_program
    from sym.core.logic.terms import Atom

    src, dst = edges(n)
    atoms = [Atom("e", (a, b)) for a, b in zip(src.tolist(), dst.tolist())]   # type: ignore[attr-defined]
    rule = next(getattr(c, "clause", c) for c in parse_program("path3(X, W) :- e(X, Y), e(Y, Z), e(Z, W).\n"))
    engine = Engine()
    reset_peak()
    before = resident()
    cpu, wall = time.process_time(), time.perf_counter()
    engine.add_facts(atoms)
    engine.add_rules({"r1": rule})
    engine.infer()
    count = len(engine.relation("path3/2"))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu": cpu, "wall": wall, "count": count, "held": resident() - before, "peak": peak() - before}


def child_duckdb(n: int) -> dict[str, float]:
    import duckdb

    src, dst = edges(n)
    con = duckdb.connect(config={"preserve_insertion_order": False})
    reset_peak()
    before = resident()
    cpu, wall = time.process_time(), time.perf_counter()
    con.register("edges_in", {"x": src, "y": dst})
    con.execute("CREATE TABLE e AS SELECT DISTINCT x, y FROM edges_in")
    con.execute("CREATE TABLE path3 AS SELECT DISTINCT a.x, c.y AS w FROM e a JOIN e b ON a.y = b.x JOIN e c ON b.y = c.x")
    count = con.execute("SELECT count(*) FROM path3").fetchone()[0]   # type: ignore[index]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu": cpu, "wall": wall, "count": count, "held": resident() - before, "peak": peak() - before}


def measure(engine: str, n: int, baseline: Path | None = None) -> dict[str, float]:
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="sym-join-") as tmp:
        if baseline is not None:     # `sym` resolves to the other checkout first
            (Path(tmp) / "sym").symlink_to(baseline.resolve())
            env["PYTHONPATH"] = tmp + os.pathsep + env.get("PYTHONPATH", "")
        out = subprocess.run([sys.executable, __file__, "--child", engine, str(n)], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="a checkout of an earlier commit, also measured")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        engine, n = args.child
        print(json.dumps((child_sym if engine == "sym" else child_duckdb)(int(n))))
        return 0
    ok = True
    engines = [("duckdb", None), ("sym", None)] + ([("sym before", args.baseline)] if args.baseline else [])
    print(f"{'edges':>11} {'engine':<11}{'derived':>11}{'cpu s':>8}{'wall s':>8}{'ratio':>7}{'B/fact':>8}{'peak B':>8}")
    for n in (int(s) for s in args.sizes.split(",")):
        runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in engines}
        for _ in range(args.runs):        # interleaved: a loaded machine's noise falls on each alike
            for name, where in engines:
                runs[name].append(measure(name.split()[0], n, where))
        anchor = median(r["cpu"] for r in runs["duckdb"])
        want = runs["duckdb"][0]["count"]
        for name, _ in engines:
            found = runs[name]
            cpu, wall = median(r["cpu"] for r in found), median(r["wall"] for r in found)
            held, high = median(r["held"] for r in found) / want, median(r["peak"] for r in found) / want
            flag = "" if all(r["count"] == want for r in found) else f"  MISMATCH ({found[0]['count']:,})"
            ok &= not flag
            goal = "" if name == "duckdb" or (cpu / anchor <= GOAL_RATIO and held <= GOAL_BYTES) else \
                f"  (goal {GOAL_RATIO:g}x, {GOAL_BYTES} B)"
            print(f"{n:>11,} {name:<11}{int(found[0]['count']):>11,}{cpu:>8.2f}{wall:>8.2f}{cpu / anchor:>6.2f}x"
                  f"{held:>8.0f}{high:>8.0f}{goal}{flag}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
