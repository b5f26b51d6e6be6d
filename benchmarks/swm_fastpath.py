"""Accuracy of the no-LLM SWM path (controlled English + logic engine) on a dataset folder.

Run: python benchmarks/swm_fastpath.py [--data DIR] [--show N]. Prints, per dataset, the
number of problems, correct answers, accuracy, untranslated sentences and wall time; with
--show N, the first N misses. CLUTRR uses the gold chain facts. AR-LSAT needs the LLM.
Not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sym.core.reason.swm.datasets import available, is_correct, load  # noqa: E402
from sym.core.reason.swm.symbolic import Untranslated, solve  # noqa: E402

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "swm"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT), help="folder with proofwriter/, clutrr/, boxes/, lsat-ar/")
    ap.add_argument("--show", type=int, default=0, help="print the first N misses")
    args = ap.parse_args(argv)
    print(f"{'dataset':<12} {'n':>5} {'correct':>8} {'accuracy':>9} {'untranslated':>13} {'seconds':>8}")
    misses: list[str] = []
    for dataset in available(args.data):
        if dataset == "lsat-ar":
            print(f"{dataset:<12} {'':>5} {'':>8} {'n/a':>9}   (needs the LLM)")
            continue
        problems = load(args.data, dataset)
        start = time.perf_counter()
        correct = untranslated = 0
        for p in problems:
            try:
                answer = solve(p)
            except Untranslated as err:
                untranslated += 1
                misses.append(f"{p.id}: untranslated {err.sentence!r}")
                continue
            if is_correct(p, answer):
                correct += 1
            else:
                misses.append(f"{p.id}: got {answer!r}, gold {p.gold!r}")
        seconds = time.perf_counter() - start
        acc = correct / len(problems) if problems else 0.0
        print(f"{dataset:<12} {len(problems):>5} {correct:>8} {acc:>8.1%} {untranslated:>13} {seconds:>8.2f}")
    for line in misses[:args.show]:
        print("  miss", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
