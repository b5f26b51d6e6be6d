"""Ground and bound goals against the open one (issue 49): on a chain of n edges, with the
recursion written right (`reach(X, Z) :- edge(X, Y), reach(Y, Z).`) and left, the CPU time of
`?- reach(n0, X).`, of the ground `?- reach(n0, nK).` for an inner node and the end node, and of
`?- reach(nK, nN).`, each on a fresh engine (goal-directed, as /query asks), beside SWI-Prolog
answering the same ground question tabled, measured in the same run. Goal: a ground question
costs at most the open one.

    python benchmarks/ground_goal_bench.py [--sizes 10000,100000]

Before eb5f1cc the inner ground question (right recursion, n = 10,000) took 26.8 s against 1.15 s
for the end node; README's performance table has the figures of the last run.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RULES = {"right": "reach(X, Z) :- edge(X, Y), reach(Y, Z).", "left": "reach(X, Z) :- reach(X, Y), edge(Y, Z)."}


def program(n: int, shape: str) -> str:
    return "".join(f"edge(n{i}, n{i + 1}).\n" for i in range(n)) + "reach(X, Y) :- edge(X, Y).\n" + RULES[shape] + "\n"


def sym_seconds(text: str, question: str, runs: int = 3) -> tuple[float, object]:
    """The least CPU time of `runs` fresh engines answering the question (a loaded machine's noise)."""
    found = [_sym_once(text, question) for _ in range(runs)]
    return min(t for t, _ in found), found[0][1]


def _sym_once(text: str, question: str) -> tuple[float, object]:
    from sym.core.logic.engine import Engine
    from sym.core.logic.parser import parse_program, parse_query

    engine = Engine()
    engine.add_program([loc.clause for loc in parse_program(text)])
    query = parse_query(question)
    began = time.process_time()
    answer = engine.truth(query.body[0]) if query.is_ground else len(engine.solve(query))
    return time.process_time() - began, answer


def swi_seconds(text: str, question: str) -> float | None:
    swipl = shutil.which("swipl")
    if swipl is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.pl"
        path.write_text(":- table reach/2.\n" + text)
        goal = question.removeprefix("?- ").rstrip(".")
        run = (f"consult('{path}'), statistics(cputime, A), forall(({goal}), true), "
               "statistics(cputime, B), T is B - A, write(T), nl, halt")
        out = subprocess.run([swipl, "-q", "-g", run], capture_output=True, text=True, timeout=600)
        return float(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000")
    args = ap.parse_args()
    print(f"{'n':>8} {'recursion':9} {'question':24} {'answer':>7} {'sym cpu s':>10} {'x open':>7} {'swi s':>7} {'x swi':>6}")
    for n in (int(s) for s in args.sizes.split(",")):
        for shape in RULES:
            text = program(n, shape)
            open_s, _ = sym_seconds(text, "?- reach(n0, X).")
            for question in ("?- reach(n0, X).", f"?- reach(n0, n{n // 2}).", f"?- reach(n0, n{n}).",
                             f"?- reach(n{n // 2}, n{n})."):
                took, answer = sym_seconds(text, question)
                swi = swi_seconds(text, question)
                shown = f"{swi:7.3f} {took / swi:6.1f}" if swi else f"{'-':>7} {'-':>6}"
                print(f"{n:8,} {shape:9} {question:24} {answer!s:>7} {took:10.3f} {took / open_s:7.1f} {shown}")
    print("goal: a ground question costs at most the open one (x open <= 1)")


if __name__ == "__main__":
    main()
