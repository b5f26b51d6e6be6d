"""How `minimal_model` scales: random propositional Horn programs of growing size, timed.

Run: python benchmarks/horn_bench.py. Not a test; it prints a table, the time ratio between
consecutive sizes, and whether 10x the clauses cost at most 12x the time.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.logic.horn import minimal_model  # noqa: E402

LINEAR_RATIO = 12.0  # allowed time ratio for 10x the clauses


def random_program(n: int, seed: int = 0) -> list[tuple[str | None, tuple[str, ...]]]:
    """n clauses over about n/2 atoms: ~10% facts, a few constraints, the rest rules of 1-3 atoms."""
    rng = random.Random(seed)
    atoms = [f"a{i}" for i in range(max(2, n // 2))]
    m = len(atoms)
    constraints = max(1, n // 10_000)
    draw = rng.random
    program: list[tuple[str | None, tuple[str, ...]]] = []
    add = program.append
    for _ in range(n - constraints):
        if draw() < 0.10:
            add((atoms[int(draw() * m)], ()))
        else:
            k = 1 + int(draw() * 3)
            add((atoms[int(draw() * m)], tuple([atoms[int(draw() * m)] for _ in range(k)])))
    for _ in range(constraints):
        k = 1 + int(draw() * 3)
        program.insert(int(draw() * len(program)), (None, tuple([atoms[int(draw() * m)] for _ in range(k)])))
    return program


def _repeats(n: int) -> int:
    # Small sizes are timed several times and the best kept, so noise doesn't pose as growth.
    return 1 if n >= 10**6 else 3 if n >= 10**5 else 7


def run(sizes=(10**4, 10**5, 10**6), seed=0) -> list[dict]:
    rows = []
    for n in sizes:
        program = random_program(n, seed)
        best = float("inf")
        for _ in range(_repeats(n)):
            start = time.perf_counter()
            result = minimal_model(program, partial=True)
            best = min(best, time.perf_counter() - start)
        rows.append({"clauses": n, "seconds": best, "model": len(result), "violated": len(result.violated)})
        del program, result
    return rows


def main() -> None:
    rows = run()
    print(f"{'clauses':>10}  {'seconds':>8}  {'ns/clause':>9}  {'model':>8}  {'violated':>8}  {'ratio':>6}")
    linear = True
    for i, row in enumerate(rows):
        ratio = ""
        if i:
            prev = rows[i - 1]
            r = row["seconds"] / prev["seconds"]
            allowed = LINEAR_RATIO * (row["clauses"] / prev["clauses"]) / 10
            linear = linear and r <= allowed
            ratio = f"{r:.1f}x"
        print(f"{row['clauses']:>10,}  {row['seconds']:>8.3f}  {row['seconds'] / row['clauses'] * 1e9:>9.0f}"
              f"  {row['model']:>8,}  {row['violated']:>8,}  {ratio:>6}")
    print("linear (10x clauses <= 12x time)" if linear else "NOT linear")


if __name__ == "__main__":
    main()
