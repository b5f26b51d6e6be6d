"""How `/tell --from FILE` grows with the number of sentences (issue 31, item 6): generated
statements (tests/english_gen.py `text(n, seed)`) written to a file and told in one command, in a
fresh process with its own SYM_HOME, for this checkout and for a baseline commit. Goal: at most
12x the time per 10x the sentences.

Each run warms the process first (a /tell of a few other sentences loads the grammar and the
lexicon), then times the one command; the process's whole time is shown beside it. Sentences the
grammar refuses would go to a model: --partial keeps the rest and the model host is a closed port,
so no run waits on a network. A baseline run past --limit seconds is stopped and shown as such.
The baseline's code is taken from a commit with `git archive`, as benchmarks/english_refusals.py does.

Measured (2 shared cores; CPU seconds of the /tell command, 69f3824 at 5,000 in wall seconds under load):

    sentences   69f3824           after        growth per 10x after
    500         10.5 s            2.7 s
    1,500       80.1 s            -
    5,000       1798 s (wall)     11.3 s       4.2x
    50,000      not run (hours)   74.2 s       6.6x

    python benchmarks/tell_bench.py                                 # 500, 5,000, 50,000; now and 69f3824
    python benchmarks/tell_bench.py --sizes 500,5000 --rev 69f3824 --limit 900
    python benchmarks/tell_bench.py --no-baseline          # or --no-now: only the baseline
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PACKAGES = ("core", "repl", "plugins", "sessions")   # pyproject's package-dir: sym.<folder>
GOAL = 12.0        # growth per 10x sentences


def one(path: str) -> dict:
    """Tell the file's sentences to a fresh shell in this process (SYM_HOME set by the caller)."""
    start = time.perf_counter()
    import sym.core
    from sym.repl.dispatcher import Shell
    from tests.english_gen import text

    shell = Shell()
    shell.ctx.settings.ollama_host = "http://127.0.0.1:9"     # refused at once: no model is waited for
    warm = Path(path).with_suffix(".warm")
    warm.write_text("\n".join(text(12, seed=99)) + "\n")
    shell.execute(f"/tell --partial --from {warm}")
    before = len(shell.memory.items)
    began, cpu = time.perf_counter(), time.process_time()
    _, result = shell.execute(f"/tell --partial --from {path}")
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    return {"seconds": round(seconds, 2), "cpu": round(cpu, 2), "process": round(time.perf_counter() - start, 2),
            "items": len(shell.memory.items) - before, "result": type(result).__name__,
            "code": str(Path(sym.core.__file__).parent)}


def run(n: int, seed: int, code: Path | None, limit: float | None) -> dict:
    """`one` in a subprocess, with `sym` from `code` (a baseline's package) or this checkout."""
    from tests.english_gen import text

    with tempfile.TemporaryDirectory(prefix="sym-tell-") as tmp:
        sentences = Path(tmp) / f"s{n}.txt"
        sentences.write_text("\n".join(text(n, seed)) + "\n")
        home = Path(tmp) / "home"
        home.mkdir()
        env = {**os.environ, "SYM_HOME": str(home)}
        if code is not None:
            shim = Path(tmp) / "shim" / "sym"
            shim.mkdir(parents=True)
            (shim / "__init__.py").write_text(f"__path__ = [{str(code)!r}]\n")
            env["PYTHONPATH"] = os.pathsep.join([str(shim.parent), str(ROOT)])
        try:
            done = subprocess.run([sys.executable, __file__, "--one", str(sentences)], env=env, cwd=ROOT,
                                  capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return {"seconds": None, "over": limit}
        if done.returncode:
            raise SystemExit(f"the run of {n} sentences failed:\n{done.stderr[-2000:]}")
        found = json.loads(done.stdout.strip().splitlines()[-1])
        if code is not None and not found["code"].startswith(str(code)):
            raise SystemExit(f"the baseline run imported {found['code']}, not {code}")
        return found


def baseline(rev: str, tmp: str) -> Path:
    code = Path(tmp) / "code"
    code.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *PACKAGES], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(code, filter="data")
    return code


def table(rows: dict[str, list[tuple[int, dict]]]) -> None:
    print(f"{'code':16} {'sentences':>9} {'items':>7} {'/tell s':>9} {'cpu s':>9} {'process s':>10} {'growth':>8}")
    for label, runs in rows.items():
        previous: tuple[int, float] | None = None
        for n, found in runs:
            seconds = found["seconds"]
            if seconds is None:
                print(f"{label:16} {n:9,} {'':>7} {'> ' + str(int(found['over'])):>9}")
                previous = None
                continue
            cpu = found.get("cpu", seconds)
            growth = ""
            if previous is not None and previous[1] > 0 and n > previous[0]:
                growth = f"{(cpu / previous[1]) ** (1 / math.log10(n / previous[0])):.1f}x"
            print(f"{label:16} {n:9,} {found['items']:7,} {seconds:9.2f} {cpu:9.2f} {found['process']:10.2f} {growth:>8}")
            previous = (n, cpu)
    print(f"growth: /tell CPU time per 10x sentences (per decade where sizes differ otherwise; CPU time, as a "
          f"shared machine's wall time is noisy); goal <= {GOAL:g}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="500,5000,50000", help="sentence counts, comma-separated")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rev", default="69f3824", help="baseline commit")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--no-now", action="store_true", help="only the baseline")
    ap.add_argument("--limit", type=float, default=1800, help="seconds a baseline run may take")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    rows: dict[str, list[tuple[int, dict]]] = {"now": []}
    for n in [] if args.no_now else sizes:
        rows["now"].append((n, run(n, args.seed, None, None)))
        print(f"now {n}: {rows['now'][-1][1]}", file=sys.stderr)
    if not args.no_baseline:
        label = f"commit {args.rev}"
        rows[label] = []
        with tempfile.TemporaryDirectory(prefix="sym-tell-base-") as tmp:
            code = baseline(args.rev, tmp)
            for n in sizes:
                found = run(n, args.seed, code, args.limit)
                rows[label].append((n, found))
                print(f"{label} {n}: {found}", file=sys.stderr)
                if found["seconds"] is None:    # a larger one would take longer still
                    rows[label] += [(m, {"seconds": None, "over": args.limit}) for m in sizes if m > n]
                    break
    table(rows)


if __name__ == "__main__":
    main()
