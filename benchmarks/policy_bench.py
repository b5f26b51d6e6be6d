"""How long reading policies.yaml takes as it grows, and how long refusing an alias bomb takes.

Run:   python benchmarks/policy_bench.py [--sizes 1000,10000] [--repeat 3]
Not a test. For each size N a policies.yaml of N rules is generated (each with a filter of two
keys, one a comparison, two attributes and a priority) and read with `parse_policies` (YAML,
alias budget, validation of every rule, duplicate names), best of --repeat runs. Printed: seconds
per size, the growth ratio between consecutive sizes against the size ratio (linear: the two
agree), the audit's 317-byte alias bomb (9 levels of 9 aliases) refused, and a verdict against
issue #35's goal: 10,000 rules under 2 s (it was 168 s; 2,000 rules took 9.7 s).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(ROOT))

GOAL = (10_000, 2.0)


def rules_text(n: int) -> str:
    return "rules:\n" + "".join(
        f"  - name: r{i}\n    target: llm\n    filter: {{command: /ask, words: '>= {i % 50}'}}\n"
        f"    attributes: {{temperature: 0.{i % 10}, model: m{i % 7}}}\n    priority: {i % 5}\n"
        for i in range(n))


def bomb_text() -> str:
    lines = ["rules:", "- &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"- &{name} [{','.join(['*' + prev] * 9)}]")
    return "\n".join(lines) + "\n"


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def run(argv: list[str] | None = None) -> int:
    from sym.core.errors import UserError
    from sym.core.reason.policy.rules import parse_policies

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="rule counts, comma separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size (the best is kept)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    print(f"{'rules':>8}  {'seconds':>8}  {'growth':>8}  {'size ratio':>10}")
    seconds: dict[int, float] = {}
    previous: int | None = None
    for n in sizes:
        text = rules_text(n)
        _, loaded = parse_policies(text)
        assert len(loaded) == n
        seconds[n] = best(lambda text=text: parse_policies(text), args.repeat)
        growth = f"{seconds[n] / seconds[previous]:8.2f}" if previous else f"{'':>8}"
        ratio = f"{n / previous:10.2f}" if previous else f"{'':>10}"
        print(f"{n:>8}  {seconds[n]:8.3f}  {growth}  {ratio}")
        previous = n

    text = bomb_text()
    started = time.perf_counter()
    try:
        parse_policies(text)
        refused = "NOT refused"
    except UserError as err:
        refused = str(err)
    print(f"alias bomb ({len(text)} bytes): {time.perf_counter() - started:.4f} s — {refused}")

    n, limit = GOAL
    if n in seconds:
        verdict = "met" if seconds[n] < limit else "NOT met"
        print(f"goal: {n:,} rules under {limit} s — {verdict} ({seconds[n]:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(run())
