"""Start-up times: `sym --help`, `sym --batch` of a one-line script, the TUI's first paint and usable prompt.

Run:   .venv/bin/python benchmarks/startup_bench.py [--runs 7]
Not a test. Each figure is the median of fresh processes, printed beside `python -c pass`
measured in the same run (the floor no Python program beats). First paint is measured twice:
`sym` itself in a pseudo-terminal (120x35), from exec until the status line's text has been
written to the terminal, and the app alone, headless, until Textual reports the screen ready
(what `sym` adds on top is its command line: click and what cli.py imports). Both stop before
the workspace has finished opening (it opens in a worker after the first paint).
The usable prompt is measured headless too: until the workspace has opened (read from its snapshot;
chromadb is not imported) and input runs. A one-line script stores `p(a).` and never imports chromadb.
Targets: --help <= 0.3 s, one-line batch <= 0.5 s, first paint <= 1.0 s, usable prompt <= 1.5 s.
Each row also gives its ratio to `python -c pass` from the same run, and the CPU seconds of --help
and the batch their ratio to python's (`--cli`: only those three, no TUI). Runs with bytecode cached, as an
installed sym runs (one warm-up run first writes the cache if the machine had it off).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYM = str(Path(sys.executable).with_name("sym"))

# The app's own paint path, as run_tui starts it (no workspace options: the default one).
FIRST_PAINT = """
import time
from sym.repl.tui.app import SymApp
from sym.repl.tui.history import History

class Timed(SymApp):
    def on_ready(self, event):
        event.prevent_default()  # SymApp.on_ready builds the side panes and opens the workspace: after paint
        print(f"painted {time.time():.6f}", flush=True)
        self.exit(return_code=0)

app = Timed(ping_every=None, history=History(None))
app.run(headless=True, size=(120, 35))
app.close_shell()
"""
# The usable prompt: the workspace has opened (in its worker, after the first paint) and input runs.
USABLE = """
import time
from sym.repl.tui.app import SymApp
from sym.repl.tui.history import History

class Timed(SymApp):
    def _opened(self, shell, docs):
        super()._opened(shell, docs)
        print(f"usable {time.time():.6f}", flush=True)
        self.exit(return_code=0)

app = Timed(ping_every=None, history=History(None))
app.run(headless=True, size=(120, 35))
app.close_shell()
"""
BATCH = "sym --batch one.sym (1 line)"
PAINTED = b"Ctrl+P commands"   # on the status line, written with the first frame


CPU: dict[str, list[float]] = {}      # case -> CPU seconds (user + system) of each run's process


def timed(argv: list[str], env: dict, case: str = "") -> float:
    """Wall seconds of one process (its CPU seconds kept in CPU[case]: on a shared machine they are
    what a ratio is taken of)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.setdefault(case, []).append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return took


def first_paint(env: dict, code: str = FIRST_PAINT, mark: str = "painted ") -> float:
    start = time.time()
    proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith(mark):
            return float(line.split()[1]) - start
    raise SystemExit(f"the TUI did not get to {mark.strip()!r}:\n{proc.stderr[-2000:]}")


def sym_in_a_terminal(env: dict, timeout: float = 20.0) -> float:
    """Seconds from starting `sym` on a pseudo-terminal until its first frame is on it; then Ctrl+Q."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 35, 120, 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen([SYM], env={**env, "TERM": "xterm-256color"}, cwd=ROOT, stdin=secondary,
                            stdout=secondary, stderr=secondary, start_new_session=True)
    os.close(secondary)
    seen, painted = b"", None
    try:
        while painted is None and time.perf_counter() - start < timeout:
            if select.select([primary], [], [], 0.5)[0]:
                try:
                    seen += os.read(primary, 65536)
                except OSError:
                    break
                if PAINTED in seen:
                    painted = time.perf_counter() - start
        os.write(primary, b"\x11")   # Ctrl+Q
        while proc.poll() is None and time.perf_counter() - start < timeout + 10:
            if select.select([primary], [], [], 0.2)[0]:   # keep draining so sym never blocks writing
                try:
                    os.read(primary, 65536)
                except OSError:
                    break
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(primary)
    if painted is None:
        raise SystemExit(f"sym did not paint within {timeout} s; it wrote:\n{seen[-2000:]!r}")
    return painted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cli", action="store_true", help="only python, --help and the one-line batch (no TUI)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        # As an installed sym starts: with its bytecode cached. (PYTHONDONTWRITEBYTECODE, set on some
        # machines, would make every run compile sym's ~60 modules again: ~0.15 s that no user pays.)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"SYM_HOME": home}
        subprocess.run([SYM, "--batch", "-"], input=b"p(a).\n/help\n", env=env, cwd=ROOT, capture_output=True)  # warm caches
        script = Path(home) / "one.sym"
        script.write_text("p(a).\n")
        cases = {
            "python -c pass": lambda: timed([sys.executable, "-c", "pass"], env, "python -c pass"),
            "sym --help": lambda: timed([SYM, "--help"], env, "sym --help"),
            "sym --batch one.sym (1 line)": lambda: timed([SYM, "--batch", str(script)], env, BATCH),
            "TUI first paint (sym, pty)": lambda: sym_in_a_terminal(env),
            "TUI first paint (app, headless)": lambda: first_paint(env),
            "TUI usable prompt (app, headless)": lambda: first_paint(env, USABLE, "usable "),
        }
        if sys.platform == "win32" or args.cli:
            cases.pop("TUI first paint (sym, pty)", None)
        if args.cli:
            for name in [n for n in cases if n.startswith("TUI")]:
                del cases[name]
        for case in cases.values():  # warm the OS file cache and create the workspace once
            case()
        CPU.clear()
        results: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):   # interleaved, so a busy moment on the machine hits every case alike
            for name, case in cases.items():
                results[name].append(case())
    floor = statistics.median(results["python -c pass"])
    targets = {"sym --help": 0.3, "sym --batch one.sym (1 line)": 0.5, "TUI first paint (sym, pty)": 1.0,
               "TUI first paint (app, headless)": 1.0, "TUI usable prompt (app, headless)": 1.5}
    print(f"{'case':34} {'median':>8} {'min':>8} {'max':>8} {'- python':>9} {'x python':>9}  target")
    failed = False
    for name, times in results.items():
        med = statistics.median(times)
        target = targets.get(name)
        verdict = "" if target is None else (f"<= {target:.1f} s ok" if med <= target else f"<= {target:.1f} s MISSED")
        failed |= target is not None and med > target
        print(f"{name:34} {med:8.3f} {min(times):8.3f} {max(times):8.3f} {med - floor:9.3f} {med / floor:9.1f}  "
              f"{verdict}")
    cpu_floor = statistics.median(CPU["python -c pass"])
    for name in ("sym --help", BATCH):
        cpu = statistics.median(CPU[name])
        print(f"CPU {name}: {cpu:.3f} s, {cpu / cpu_floor:.1f}x python -c pass ({cpu_floor:.3f} s)"
              + ("; issue 49's goal <= 6x" if name == BATCH else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
