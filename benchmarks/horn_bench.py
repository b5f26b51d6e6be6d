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

from sym.core.logic.horn import minimal_model  # noqa: E402

LINEAR_RATIO = 12.0  # allowed time ratio for 10x the clauses


def random_program(n: int, seed: int = 0) -> list[tuple[str | None, tuple[str, ...]]]:
    """n clauses over about n/2 atoms: ~10% facts, a few constraints, the rest rules of 1-3 atoms."""
    rng = random.Random(seed)
    atoms = [f"a{i}" for i in range(max(2, n // 2))]
    sizes = rng.choices((0, 1, 2, 3), weights=(10, 30, 30, 30), k=n)
    constraints = set(rng.sample(range(n), max(1, n // 10_000)))
    for i in constraints:
        sizes[i] = sizes[i] or 1  # an empty constraint would be violated by construction
    picks = tuple(rng.choices(atoms, k=n + sum(sizes)))  # slices of a tuple are tuples
    program = []
    at = 0
    for i, k in enumerate(sizes):
        program.append((None if i in constraints else picks[at], picks[at + 1:at + 1 + k]))
        at += 1 + k
    return program


def _repeats(n: int) -> int:
    # Small sizes are timed several times and the best kept, so noise doesn't pose as growth.
    return 1 if n >= 10**6 else 3 if n >= 10**5 else 7


def _floor_pass(program) -> dict:
    # The least any Python pass that indexes the body atoms must do: one dict store each.
    # Its growth shows what the memory hierarchy adds once the program leaves the caches.
    index = {}
    for head, body in program:
        for atom in body:
            index[atom] = head
    return index


def _best_time(fn, program, repeats: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn(program)
        best = min(best, time.perf_counter() - start)
    return best, result


def run(sizes=(10**4, 10**5, 10**6), seed=0) -> list[dict]:
    """Time `minimal_model` (index building included) on a random program of each size."""
    rows = []
    for n in sizes:
        program = random_program(n, seed)
        seconds, result = _best_time(lambda p: minimal_model(p, partial=True), program, _repeats(n))
        floor, _ = _best_time(_floor_pass, program, _repeats(n))
        rows.append({"clauses": n, "seconds": seconds, "model": len(result),
                     "violated": len(result.violated), "floor_seconds": floor})
        del program, result
    return rows


def main() -> None:
    rows = run()
    print(f"{'clauses':>10}  {'seconds':>8}  {'ns/clause':>9}  {'model':>8}  {'violated':>8}"
          f"  {'ratio':>6}  {'floor s':>8}  {'floor ratio':>11}")
    linear = True
    for i, row in enumerate(rows):
        ratio = floor_ratio = ""
        if i:
            prev = rows[i - 1]
            r = row["seconds"] / prev["seconds"]
            linear = linear and r <= LINEAR_RATIO * (row["clauses"] / prev["clauses"]) / 10
            ratio = f"{r:.1f}x"
            floor_ratio = f"{row['floor_seconds'] / prev['floor_seconds']:.1f}x"
        print(f"{row['clauses']:>10,}  {row['seconds']:>8.3f}  {row['seconds'] / row['clauses'] * 1e9:>9.0f}"
              f"  {row['model']:>8,}  {row['violated']:>8,}  {ratio:>6}  {row['floor_seconds']:>8.3f}"
              f"  {floor_ratio:>11}")
    print("linear (10x clauses <= 12x time)" if linear else "NOT linear")
    print("floor: one dict store per body atom, the cheapest Python pass over the same clauses")


if __name__ == "__main__":
    main()
