"""Start-up times: `sym --help`, `sym --batch` of a one-line script, and the TUI's first paint.

Run:   .venv/bin/python benchmarks/startup_bench.py [--runs 7]
Not a test. Each figure is the median of fresh processes, printed beside `python -c pass`
measured in the same run (the floor no Python program beats). First paint is the time from
starting a process that opens the TUI headless (the real app, on a fresh SYM_HOME) until
Textual reports the screen ready, before the workspace has finished opening (it opens in
a worker after the first paint). Targets: --help <= 0.3 s, first paint <= 1.0 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYM = str(Path(sys.executable).with_name("sym"))

FIRST_PAINT = """
import sys, time
from repl.dispatcher import MemoryOptions
from repl.tui.app import SymApp
from repl.tui.history import History

class Timed(SymApp):
    def on_ready(self):  # the real on_ready starts opening the workspace: not part of the first paint
        print(f"painted {time.time():.6f}", flush=True)
        self.exit(return_code=0)

app = Timed(options=MemoryOptions(), ping_every=None, history=History(None))
app.run(headless=True, size=(120, 35))
app.close_shell()
"""


def timed(argv: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def first_paint(env: dict) -> float:
    start = time.time()
    proc = subprocess.run([sys.executable, "-c", FIRST_PAINT], env=env, cwd=ROOT, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith("painted "):
            return float(line.split()[1]) - start
    raise SystemExit(f"the TUI did not paint:\n{proc.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "SYM_HOME": home}
        script = Path(home) / "one.sym"
        script.write_text("p(a).\n")
        cases = {
            "python -c pass": lambda: timed([sys.executable, "-c", "pass"], env),
            "sym --help": lambda: timed([SYM, "--help"], env),
            "sym --batch one.sym (1 line)": lambda: timed([SYM, "--batch", str(script)], env),
            "TUI first paint (headless)": lambda: first_paint(env),
        }
        for case in cases.values():  # warm the OS file cache and create the workspace once
            case()
        results = {name: [case() for _ in range(args.runs)] for name, case in cases.items()}
    floor = statistics.median(results["python -c pass"])
    targets = {"sym --help": 0.3, "TUI first paint (headless)": 1.0}
    print(f"{'case':32} {'median':>8} {'min':>8} {'max':>8} {'- python':>9}  target")
    failed = False
    for name, times in results.items():
        med = statistics.median(times)
        target = targets.get(name)
        verdict = "" if target is None else (f"<= {target:.1f} s ok" if med <= target else f"<= {target:.1f} s MISSED")
        failed |= target is not None and med > target
        print(f"{name:32} {med:8.3f} {min(times):8.3f} {max(times):8.3f} {med - floor:9.3f}  {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
