"""Transitive closure on a dense, clustered social graph and kinship over 100k people: sym vs
SWI-Prolog (tabled) and DuckDB (recursive CTE), ratios from one run.

Not part of the test run. Usage (from the repository root):

    PYTHONPATH=. python benchmarks/closure_bench.py              # social closure + kinship 100k
    PYTHONPATH=. python benchmarks/closure_bench.py --only social|kinship
    PYTHONPATH=. python benchmarks/closure_bench.py --repeat 3   # median of 3 runs per engine

The social graph is shaped like SNAP's ego-Facebook (4,039 nodes, 88,234 edges): a dozen
communities of very different sizes, each with an "ego" linked to every member, edges dense
inside a community and rare between them, every edge directed from the lower id to the higher.
Its closure has about 2.5 M facts. Every engine is timed on load + eval + count from the same
fact text, in a fresh state: sym parses, adds, infers and counts; SWI-Prolog consults a file
with `:- table path/2.` in a fresh `swipl` process (start-up included, as a user pays it);
DuckDB splits the text with a regular expression (logic_bench.run_duckdb) and runs WITH
RECURSIVE … UNION. Counts must agree; a disagreement prints MISMATCH and exits 1.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.logic_bench import (  # noqa: E402
    TC_DERIVED,
    TC_RULES,
    Workload,
    _sql_tc,
    kinship,
    run_duckdb,
    run_sym,
)

GOALS = {"social": {"swipl": 0.8, "duckdb": 2.0}, "kinship-100000": {"duckdb": 2.0}}
COMMUNITIES = [348, 60, 1045, 230, 12, 760, 545, 66, 150, 260, 563]


def social_graph(nodes: int = 4039, edges: int = 88_234, cross: float = 0.0003, seed: int = 0) -> Workload:
    """An ego-Facebook-shaped graph: egos linked to their whole community, dense communities,
    a few edges between communities (`cross` of them), all directed low id -> high id."""
    rng = random.Random(seed)
    sizes = list(COMMUNITIES)
    sizes[-1] += nodes - sum(sizes)
    blocks, start = [], 0
    for size in sizes:
        blocks.append(range(start, start + size))
        start += size
    found = {(block[0], v) for block in blocks for v in block[1:]}
    weights = [len(b) ** 2 for b in blocks]
    while len(found) < edges:
        if rng.random() < cross:
            a, b = rng.randrange(nodes), rng.randrange(nodes)
        else:
            block = rng.choices(blocks, weights)[0]
            a, b = rng.choice(block), rng.choice(block)
        if a != b:
            found.add((min(a, b), max(a, b)))
    facts = "".join(f"edge({a}, {b}).\n" for a, b in sorted(found))
    return Workload(f"social-{nodes}", facts, len(found), TC_RULES, TC_DERIVED, _sql_tc)


def run_swipl(w: Workload, path: str) -> tuple[int, object]:
    """A fresh `swipl` consults the facts with path/2 tabled and counts the closure."""
    out = subprocess.run(
        ["swipl", "-q", "-g", "aggregate_all(count, path(_, _), N), write(N), nl", "-t", "halt", path],
        capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1]), None


def timed(fn) -> tuple[float, int]:
    t0 = time.perf_counter()
    count, _ = fn()
    return time.perf_counter() - t0, count


def bench(w: Workload, engines: dict, repeat: int) -> dict[str, tuple[float, int]]:
    """Median wall time and count per engine; engines take turns so drifting load hits all alike."""
    times: dict[str, list[float]] = {name: [] for name in engines}
    counts: dict[str, int] = {}
    for _ in range(repeat):
        for name, fn in engines.items():
            seconds, counts[name] = timed(fn)
            times[name].append(seconds)
    return {name: (statistics.median(times[name]), counts[name]) for name in engines}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["social", "kinship"])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    swipl = shutil.which("swipl")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f}; "
          f"median of {args.repeat} run(s), load + eval + count")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        workloads = []
        if args.only in (None, "social"):
            workloads.append(("social", social_graph()))
        if args.only in (None, "kinship"):
            workloads.append(("kinship-100000", kinship(100_000)))
        for goal_key, w in workloads:
            facts = os.path.join(tmp, f"{w.name}.lp")
            Path(facts).write_text(w.facts)
            engines = {"sym": lambda: run_sym(w), "duckdb": lambda: run_duckdb(w, facts)}
            if goal_key == "social" and swipl:
                program = os.path.join(tmp, f"{w.name}.pl")
                Path(program).write_text(":- table path/2.\n" + w.facts + w.rules)
                engines["swipl"] = lambda: run_swipl(w, program)
            result = bench(w, engines, args.repeat)
            if len({count for _, count in result.values()}) != 1:
                ok = False
                print(f"MISMATCH {w.name}: " + ", ".join(f"{k}={c}" for k, (_, c) in result.items()))
            sym_s = result["sym"][0]
            line = f"{w.name:<14} {w.n_facts:>8,} in {result['sym'][1]:>10,} derived  sym {sym_s:7.3f}s"
            for name, (seconds, _) in result.items():
                if name != "sym":
                    ratio = sym_s / seconds
                    goal = GOALS[goal_key].get(name)
                    met = "" if goal is None else f" (goal <= {goal}: {'met' if ratio <= goal else 'NOT met'})"
                    line += f"  {name} {seconds:7.3f}s  sym/{name} {ratio:5.2f}{met}"
            print(line, flush=True)
    if not ok:
        print("MISMATCH: engines disagree on derived-fact counts (see above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
