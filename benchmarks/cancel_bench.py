"""How long a cancel takes: seconds from Esc / Ctrl+C to the command's return, against the 0.5 s of
issues 15 and 35 (the latter: on a loaded machine).

Run:   python benchmarks/cancel_bench.py [--runs 3] [--after 0.5,1.5] [--only /load,/consult] [--busy 2]
Not a test. An in-process Shell on a new workspace (real embedded Chroma, the default embedder)
under a temporary SYM_HOME, deleted afterwards. For each of /math, /infer, /consult and /load the
command starts on a worker thread; after `--after` seconds (a row per value) the shell's cancel
event is set, as the TUI's Esc and the REPL's Ctrl+C do, and the time until `Shell.execute` returns
is taken. Each run
must end as "cancelled" (exit code 130) and, for /consult and /load, leave the fact / document
counts as they were; a run that does not is reported, not timed. The table gives the median of
`--runs` and the worst run, the phase the job was in when cancelled (its last progress event), and
a verdict against 0.5 s. `--busy N` starts N CPU-bound processes beside the bench for its whole
run (issue 35 measures with two). /consult and /load write one snapshot transaction in the
foreground and leave Chroma to the background writer, so their cancel is a rollback; /load checks
cancel between 4 MB pieces read and decoded, every 1,000 blocks cut, and between write batches
sized to take about 50 ms; /infer between join pieces of 2^17 rows and inside what follows a
large join (deduplication piece by piece, column copies, appending in pieces of 2^20 rows).

  /math     expand (x+y+z+w)**999 with math_timeout 600 (the worker process is warmed first)
  /infer    a(X), b(Y) cross product of 3000 x 3000 with max_facts 10^8 (derived facts forgotten
            between runs)
  /consult  a file of 200,000 facts
  /load     a text of 60,000 paragraphs of ~650 characters (one chunk each, ~39 MB)

The same cancel event serves both front-ends, so the figure holds for the TUI and the REPL alike
(plus at most one tick of the UI loop).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(ROOT))

TARGET = 0.5
WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau "
         "upsilon").split()


def big_program(path: Path, n: int = 200_000) -> Path:
    path.write_text("".join(f"edge(n{i}, n{i + 1}).\n" for i in range(n)), encoding="utf-8")
    return path


def big_text(path: Path, paragraphs: int = 60_000) -> Path:
    path.write_text("".join(" ".join(f"{WORDS[(i * 7 + j) % 20]}{(i + j) % 97}" for j in range(90))
                            + f" paragraph {i}.\n\n" for i in range(paragraphs)), encoding="utf-8")
    return path


class Bench:
    def __init__(self, home: Path):
        from sym.core.events import Progress
        from sym.repl.dispatcher import MemoryOptions, open_shell

        self.last_progress = ""
        self._progress = Progress

        def emit(event) -> None:
            if isinstance(event, Progress):
                self.last_progress = f"{event.task.split(' ', 1)[0]} {event.done}/{event.total}"

        self.shell = open_shell(MemoryOptions("cancelbench"), emit=emit, record=False)
        self.home = home

    def counts(self) -> tuple:
        from sym.core.memory import library

        store = self.shell.memory.store
        return (tuple(self.shell.memory.counts().values()), store.count("facts"), store.count("docs"),
                len(library.documents(store)))

    def cancel_after(self, text: str, after: float) -> tuple[float | None, str]:
        """Run `text`, cancel it after `after` s; (seconds from cancel to return, or None, and a note)."""
        got: dict = {}
        before = self.counts()
        self.last_progress = "—"
        worker = threading.Thread(target=lambda: got.setdefault("result", self.shell.execute(text)[1]))
        worker.start()
        worker.join(after)
        if not worker.is_alive():
            return None, f"ended before the cancel: {got['result']!r}"[:120]
        phase = self.last_progress
        cancelled_at = time.monotonic()
        self.shell.ctx.cancel.set()
        worker.join()
        seconds = time.monotonic() - cancelled_at
        result = got["result"]
        if result.ok or getattr(result, "exit_code", None) != 130:
            return None, f"not cancelled: {result!r}"[:120]
        if self.shell.ctx.cancel.is_set():
            return None, "the cancel event was left set"
        if text.startswith(("/consult", "/load")) and self.counts() != before:
            return None, f"counts changed: {before} -> {self.counts()}"
        return seconds, phase


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--after", default="0.5,1.5", help="seconds from start to cancel; several: 0.5,1.5,5")
    ap.add_argument("--only", default="", help="comma-separated commands, e.g. /load,/consult")
    ap.add_argument("--busy", type=int, default=0, help="CPU-bound processes to run beside the bench")
    args = ap.parse_args()
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        return run(args)
    finally:
        for proc in spinners:
            proc.kill()
            proc.wait()


def run(args: argparse.Namespace) -> int:

    home = Path(tempfile.mkdtemp(prefix="sym-cancel-bench-"))
    os.environ["SYM_HOME"] = str(home / "home")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    try:
        bench = Bench(home)
        shell = bench.shell
        print(f"workspace embedder: {shell.memory.store.embedder.name}; {args.runs} runs each; "
              f"{args.busy} CPU-bound processes beside it; {os.cpu_count()} CPUs")

        def prepare_math() -> None:
            assert shell.execute("/math expand (x + 1)**2")[1].ok        # the worker process is warm
            shell.ctx.settings.math_timeout = 600

        def prepare_infer() -> None:
            for pred in "ab":
                assert shell.execute("/fact " + " ".join(f"{pred}({i})." for i in range(3000)))[1].ok
            assert shell.execute("/rule pair(X, Y) :- a(X), b(Y).")[1].ok
            shell.ctx.settings.max_facts = 100_000_000

        program = big_program(home / "BIG.pl")
        text = big_text(home / "BIG.txt")
        jobs = [
            ("/math", "/math expand (x+y+z+w)**999", prepare_math, None),
            ("/infer", "/infer", prepare_infer, lambda: shell.memory.forget_derived()),
            ("/consult", f"/consult {program}", None, None),
            ("/load", f"/load {text}", None, None),
        ]
        only = {c.strip() for c in args.only.split(",") if c.strip()}
        rows = []
        for name, command, prepare, after_run in jobs:
            if only and name not in only:
                continue
            if prepare is not None:
                prepare()
            for after in [float(a) for a in args.after.split(",")]:
                rows.append(measure(bench, f"{name} @{after:g}s", command, after, args.runs, after_run))
        head = ("command @cancel", "median s", "worst s", "cancelled", "phase at cancel (last progress)",
                f"<= {TARGET} s")
        widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
        for row in [head, *rows]:
            print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
        shell.close()
        return 0 if all(r[-1] == "ok" for r in rows) else 1
    finally:
        shutil.rmtree(home, ignore_errors=True)


def measure(bench: Bench, name: str, command: str, after: float, runs: int, after_run) -> tuple:
    """One table row: `runs` cancels of `command` `after` seconds in."""
    times, notes = [], []
    for _ in range(runs):
        seconds, note = bench.cancel_after(command, after)
        if seconds is None:
            print(f"  {name}: {note}")
        else:
            times.append(seconds)
        notes.append(note)
        if after_run is not None:
            after_run()
    if not times:
        return (name, "—", "—", f"0/{runs}", "", "NO CANCEL")
    median, worst = statistics.median(times), max(times)
    return (name, f"{median:.2f}", f"{worst:.2f}", f"{len(times)}/{runs}", ", ".join(dict.fromkeys(notes)),
            "ok" if median <= TARGET else "OVER")


if __name__ == "__main__":
    sys.exit(main())
