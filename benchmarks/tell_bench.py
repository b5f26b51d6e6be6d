"""How `/tell` grows with the number of sentences (issues 31 and 49): sentences told `--chunk` at a
time (100; 0: the whole file in one /tell) to a fresh process with its own SYM_HOME, for this
checkout and for a baseline commit, then `/show violations` and `/show`. Goal: at most 12x the
/tell CPU time per 10x the sentences.

Workloads: `five` (issue 49) — five templates with invented words: "X is A.", "X is (not) A.",
"If something is A then it is B.", "X is the R of Y." and a composition of relations, so the
properties chain and the model grows faster than the sentences; every /tell checks the clashes
it brought (p and ~p). `mixed` — tests/english_gen.py's statements (issue 31).

Each run warms the process first (a /tell of a few other sentences loads the grammar and the
lexicon), then times the commands; the process's whole time is shown beside it. Sentences the
grammar refuses would go to a model: --partial keeps the rest and the model host is a closed port,
so no run waits on a network. A baseline run past --limit seconds is stopped and shown as such.
The baseline's code is taken from a commit with `git archive`, as benchmarks/english_refusals.py does.

Measured (five, chunks of 100; 2 shared, loaded cores; CPU seconds of the /tells, the shell's thread):

    sentences   derived   a2295ee (before)   after      (after: the clash check goes on from the model it
    500         ~1,000    1.30 s             0.56 s      read last time, a clash's proof is read from that
    5,000       ~84,000   52.9 s             10.9 s      model, how a name was written is looked up in an
    growth      ~84x      40.7x              19.4x       index, not by reading all of memory per sentence)

The model grows about 84x per 10x sentences here (properties chain through the rules), so the
check that reads it (incrementally now) grows faster than the sentences; the rest is the reading.

    python benchmarks/tell_bench.py                        # 500, 5,000; now and a2295ee
    python benchmarks/tell_bench.py --sizes 500,5000,50000 --no-baseline --workload mixed --chunk 0
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


def five(n: int, seed: int = 0) -> list[str]:
    """Five templates with invented words, told in order: a property, a property or its negation,
    "If something is A then it is B.", "X is the R of Y.", and a composition of relations. The
    properties chain through the rules, so the model grows faster than the sentences."""
    import random

    from tests.english_lexicon import Lexicon

    rng = random.Random(seed)
    lx = Lexicon(rng)
    names = [lx.name_word() for _ in range(max(4, n // 5))]
    adjs = [lx.adj() for _ in range(max(3, n // 50))]
    rels = [lx.noun().sg for _ in range(6)]
    out = []
    for i in range(n):
        kind = i % 5
        if kind == 0 or (kind == 1 and rng.random() >= 0.3):
            out.append(f"{rng.choice(names)} is {rng.choice(adjs)}.")
        elif kind == 1:
            out.append(f"{rng.choice(names)} is not {rng.choice(adjs)}.")
        elif kind == 2:
            a, b = rng.sample(adjs, 2)
            out.append(f"If something is {a} then it is {b}.")
        elif kind == 3:
            x, y = rng.sample(names, 2)
            out.append(f"{x} is the {rng.choice(rels)} of {y}.")
        else:
            r1, r2, r3 = (rng.choice(rels) for _ in range(3))
            out.append(f"If B is the {r1} of A, and C is the {r2} of B, then C is the {r3} of A.")
    return out


def sentences_of(workload: str, n: int, seed: int) -> list[str]:
    from tests.english_gen import text

    return five(n, seed) if workload == "five" else text(n, seed)


def one(path: str, chunk: int) -> dict:
    """Tell the file's sentences to a fresh shell in this process (SYM_HOME set by the caller),
    `chunk` sentences a /tell (0: all in one), then `/show violations` and `/show`."""
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
    lines = Path(path).read_text().splitlines()
    parts = [lines[i:i + chunk] for i in range(0, len(lines), chunk)] if chunk else [lines]
    files = []
    for i, part in enumerate(parts):
        files.append(Path(path).with_suffix(f".{i}"))
        files[-1].write_text("\n".join(part) + "\n")
    # this thread's CPU time: the background writer embeds what was stored on a thread of its own
    # (a workspace's Chroma upkeep, not /tell), and took a varying share of the process's time
    clock = time.thread_time if hasattr(time, "thread_time") else time.process_time
    began, cpu = time.perf_counter(), clock()
    for file in files:
        _, result = shell.execute(f"/tell --partial --from {file}")
    seconds, cpu = time.perf_counter() - began, clock() - cpu
    shown = clock()
    shell.execute("/show violations")
    shell.execute("/show")
    shown = clock() - shown
    derived = sum(1 for _ in shell.memory.engine.facts(derived=True))     # the model /show computed
    return {"derived": derived, "seconds": round(seconds, 2), "cpu": round(cpu, 2),
            "process": round(time.perf_counter() - start, 2),
            "show": round(shown, 2), "items": len(shell.memory.items) - before, "result": type(result).__name__,
            "code": str(Path(sym.core.__file__).parent)}


def run(n: int, seed: int, code: Path | None, limit: float | None, workload: str = "five", chunk: int = 0) -> dict:
    """`one` in a subprocess, with `sym` from `code` (a baseline's package) or this checkout."""
    with tempfile.TemporaryDirectory(prefix="sym-tell-") as tmp:
        sentences = Path(tmp) / f"s{n}.txt"
        sentences.write_text("\n".join(sentences_of(workload, n, seed)) + "\n")
        home = Path(tmp) / "home"
        home.mkdir()
        env = {**os.environ, "SYM_HOME": str(home)}
        if code is not None:
            shim = Path(tmp) / "shim" / "sym"
            shim.mkdir(parents=True)
            (shim / "__init__.py").write_text(f"__path__ = [{str(code)!r}]\n")
            env["PYTHONPATH"] = os.pathsep.join([str(shim.parent), str(ROOT)])
        try:
            done = subprocess.run([sys.executable, __file__, "--one", str(sentences), "--chunk", str(chunk)], env=env, cwd=ROOT,
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
    print(f"{'code':16} {'sentences':>9} {'items':>7} {'derived':>8} {'/tell s':>9} {'cpu s':>9} {'/show s':>8} "
          f"{'process s':>10} {'growth':>8}")
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
            print(f"{label:16} {n:9,} {found['items']:7,} {found.get('derived', 0):8,} {seconds:9.2f} {cpu:9.2f} "
                  f"{found.get('show', 0):8.2f} "
                  f"{found['process']:10.2f} {growth:>8}")
            previous = (n, cpu)
    print(f"growth: /tell CPU time per 10x sentences (per decade where sizes differ otherwise; CPU time, as a "
          f"shared machine's wall time is noisy); goal <= {GOAL:g}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="500,5000", help="sentence counts, comma-separated")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rev", default="a2295ee", help="baseline commit")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--no-now", action="store_true", help="only the baseline")
    ap.add_argument("--limit", type=float, default=1800, help="seconds a baseline run may take")
    ap.add_argument("--workload", choices=("five", "mixed"), default="five",
                    help="five: the five templates (issue 49); mixed: tests/english_gen.py's statements")
    ap.add_argument("--chunk", type=int, default=100, help="sentences a /tell (0: the whole file in one)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.chunk)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    rows: dict[str, list[tuple[int, dict]]] = {"now": []}
    for n in [] if args.no_now else sizes:
        rows["now"].append((n, run(n, args.seed, None, None, args.workload, args.chunk)))
        print(f"now {n}: {rows['now'][-1][1]}", file=sys.stderr)
    if not args.no_baseline:
        label = f"commit {args.rev}"
        rows[label] = []
        with tempfile.TemporaryDirectory(prefix="sym-tell-base-") as tmp:
            code = baseline(args.rev, tmp)
            for n in sizes:
                found = run(n, args.seed, code, args.limit, args.workload, args.chunk)
                rows[label].append((n, found))
                print(f"{label} {n}: {found}", file=sys.stderr)
                if found["seconds"] is None:    # a larger one would take longer still
                    rows[label] += [(m, {"seconds": None, "over": args.limit}) for m in sizes if m > n]
                    break
    table(rows)


if __name__ == "__main__":
    main()
