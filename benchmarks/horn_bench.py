"""How `minimal_model` scales: random propositional Horn programs of growing size, timed.

Run: python benchmarks/horn_bench.py [--rounds N]. Not a test; it prints a table, the time ratio
between consecutive sizes, and whether 10x the clauses cost at most 12x the time.

Times are CPU seconds of this process (`time.process_time`), so other work on a shared machine
does not count while it holds the core; it still shows in caches, which is why each size is
timed in several rounds, interleaved with the other sizes, after one untimed call, and the
median kept. The garbage
collector runs before each call and is off during it: the builder makes few container objects,
so what it would collect there is the benchmark's own garbage, not the builder's.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sym.core.logic.horn import HornModel, minimal_model  # noqa: E402

LINEAR_RATIO = 12.0  # allowed time ratio for 10x the clauses
SIZES = (10**4, 10**5, 10**6)

Program = list[tuple[str | None, tuple[str, ...]]]


def random_program(n: int, seed: int = 0) -> Program:
    """n clauses over about n/2 atoms: ~10% facts, a few constraints, the rest rules of 1-3 atoms."""
    rng = random.Random(seed)
    atoms = [f"a{i}" for i in range(max(2, n // 2))]
    sizes = rng.choices((0, 1, 2, 3), weights=(10, 30, 30, 30), k=n)
    constraints = set(rng.sample(range(n), max(1, n // 10_000)))
    for i in constraints:
        sizes[i] = sizes[i] or 1  # an empty constraint would be violated by construction
    picks = tuple(rng.choices(atoms, k=n + sum(sizes)))  # slices of a tuple are tuples
    program: Program = []
    at = 0
    for i, k in enumerate(sizes):
        program.append((None if i in constraints else picks[at], picks[at + 1:at + 1 + k]))
        at += 1 + k
    return program


def _calls_per_round(n: int) -> int:
    return max(1, 100_000 // n)  # ~0.1-2 s of work per size and round


def read_floor(program: Program) -> None:
    """Read every head and body atom once and do nothing else: the least any builder must do.
    Its growth is what the memory hierarchy adds once the atoms no longer fit in the caches."""
    deque(chain(map(itemgetter(0), program), chain.from_iterable(map(itemgetter(1), program))), maxlen=0)


def _timed(fn: Callable[[Program], object], program: Program) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        fn(program)
        return time.process_time() - start
    finally:
        gc.enable()


@dataclass(frozen=True)
class Row:
    clauses: int
    seconds: float                    # median over every call of every round
    round_seconds: tuple[float, ...]  # the median of each round
    calls: int
    model: int
    violated: int
    floor_seconds: float


def run(sizes: tuple[int, ...] = SIZES, seed: int = 0, rounds: int = 5) -> list[Row]:
    """Time `minimal_model` (index building included) on a random program of each size.

    Each round times every size in turn, so a busy spell on the machine falls on all of them;
    per size the median over all rounds is kept, and per round its own median, for the spread.
    """
    programs = {n: random_program(n, seed) for n in sizes}
    models = {n: minimal_model(programs[n], partial=True) for n in sizes}  # also warms up
    samples: dict[int, list[list[float]]] = {n: [] for n in sizes}
    floors: dict[int, list[float]] = {n: [] for n in sizes}
    for _ in range(rounds):
        for n in sizes:
            # Untimed first, so every size is timed with its program as warm as it can be kept.
            _build(programs[n])
            samples[n].append([_timed(_build, programs[n]) for _ in range(_calls_per_round(n))])
            read_floor(programs[n])
            floors[n].extend(_timed(read_floor, programs[n]) for _ in range(_calls_per_round(n)))
    return [Row(n, statistics.median(s for r in samples[n] for s in r),
                tuple(statistics.median(r) for r in samples[n]), sum(map(len, samples[n])),
                len(models[n]), len(models[n].violated), statistics.median(floors[n]))
            for n in sizes]


def _build(program: Program) -> HornModel:
    return minimal_model(program, partial=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds over all sizes (default 5)")
    rows = run(rounds=parser.parse_args().rounds)
    print(f"{'clauses':>10}  {'seconds':>8}  {'ns/clause':>9}  {'model':>8}  {'violated':>8}  {'calls':>5}"
          f"  {'ratio':>6}  {'by round':>11}  {'floor s':>8}  {'floor ratio':>11}")
    linear = True
    for prev, row in zip([None, *rows], rows):
        ratio = spread = floor_ratio = ""
        if prev is not None:
            r = row.seconds / prev.seconds
            linear = linear and r <= LINEAR_RATIO * (row.clauses / prev.clauses) / 10
            per_round = [a / b for a, b in zip(row.round_seconds, prev.round_seconds)]
            ratio = f"{r:.1f}x"
            spread = f"{min(per_round):.1f}-{max(per_round):.1f}x"
            floor_ratio = f"{row.floor_seconds / prev.floor_seconds:.1f}x"
        print(f"{row.clauses:>10,}  {row.seconds:>8.3f}  {row.seconds / row.clauses * 1e9:>9.0f}"
              f"  {row.model:>8,}  {row.violated:>8,}  {row.calls:>5}  {ratio:>6}  {spread:>11}"
              f"  {row.floor_seconds:>8.3f}  {floor_ratio:>11}")
    print(f"linear (10x clauses <= {LINEAR_RATIO:g}x time)" if linear else "NOT linear")
    print("seconds: median CPU time of one call over all rounds; by round: the ratio in each round")
    print("floor: reading every atom once and nothing else, the least any builder must do")


if __name__ == "__main__":
    main()
