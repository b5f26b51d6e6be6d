"""Speed of the controlled-English bridge on generated text (tests/english_gen.py, invented words).

Measures translate's throughput in sentences per second (goal >= 2,000/s). First in new
processes, so that they are truly cold: one with an empty shape cache (every word and most
sentence shapes new: each new shape costs one Earley parse), then ones that find the shapes an
earlier run kept (core/reason/swm/english/shapecache.py) and read a text of new words — the
goal row. Then in this process: its first text, the same text again, and a second new text (new
words, shapes mostly seen: the steady state of a session); and how the time of split_sentences
+ translate over a text, and of question_goal over a context + question, grows from N to 10N
sentences (goal <= 12x). Every process keeps its shapes in a temporary $SYM_HOME, never the
user's. Each measurement has a time limit so a slow translator cannot hang the run. Prints a
table; always exits 0.

    python benchmarks/english_bench.py [--n 200] [--limit 60] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sym.core.reason.swm.english import question_goal, split_sentences, translate  # noqa: E402
from tests.english_gen import text  # noqa: E402

WALL = [0.0]


class TimeUp(Exception):
    pass


def _alarm(signum, frame):
    raise TimeUp


def timed(make, limit: float, repeats: int = 1) -> float | None:
    """Best CPU time of `make(r)()` over runs r = 0 … repeats-1, or None when one run passes `limit`
    seconds of wall time. Each run gets its input fresh from `make` (built outside the timing), so
    no run is served from the word caches of the one before. CPU time, because this machine's
    cores are shared: wall time measures the neighbours as much as the code (WALL keeps the
    wall time of the last run)."""
    best = None
    signal.signal(signal.SIGALRM, _alarm)
    for r in range(repeats):
        fn = make(r)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            start, wall = time.process_time(), time.perf_counter()
            fn()
            took = time.process_time() - start
            WALL[0] = time.perf_counter() - wall
        except TimeUp:
            return None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        best = took if best is None else min(best, took)
    return best


def _fmt(seconds: float | None, limit: float) -> str:
    return f"> {limit:.0f} s" if seconds is None else f"{seconds * 1000:.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="sentences in the short input (the long one has 10x)")
    ap.add_argument("--throughput", type=int, default=3000, help="sentences for the throughput run")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds allowed per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="cold processes per row (the best counts)")
    ap.add_argument("--cold", type=int, metavar="SEED", help=argparse.SUPPRESS)   # one cold run (a child)
    args = ap.parse_args()
    if args.cold is not None:
        return _cold_child(args.cold, args.throughput)
    n, limit = args.n, args.limit
    scratch = Path(tempfile.mkdtemp(prefix="english-bench-"))
    try:
        rows = _cold_rows(args.throughput, limit, args.repeats, scratch)
        os.environ["SYM_HOME"] = str(scratch / "this-process")
        return _warm_rows(rows, n, args.throughput, limit)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# -- cold processes ------------------------------------------------------------------------------

def _cold_child(seed: int, count: int) -> int:
    """One cold process (run by _cold): first use, 100 warm-up sentences, then `count` new
    sentences of text `seed`; prints their CPU times and how many Earley parses they cost."""
    from sym.core.reason.swm.english import parse

    parses = [0]
    earley = parse._parse

    def counted(shape):
        parses[0] += 1
        return earley(shape)
    parse._parse = counted
    start = time.process_time()
    translate("Bob is big.")
    question_goal("Is Bob big?")
    first_use = time.process_time() - start
    warmup, batch = text(100, seed=0), text(count, seed=seed)
    start = time.process_time()
    for sentence in warmup:
        translate(sentence)
    warm = time.process_time() - start
    before = parses[0]
    start = time.process_time()
    understood = sum(translate(s) is not None for s in batch)
    took = time.process_time() - start
    print(json.dumps({"first_use": first_use, "warmup": warm, "text": took, "understood": understood,
                      "parses": parses[0] - before}))
    return 0


def _cold(seed: int, count: int, home: Path, limit: float) -> dict | None:
    """A new process's figures (see _cold_child) with $SYM_HOME = home; None past `limit` seconds."""
    env = {**os.environ, "SYM_HOME": str(home)}
    try:
        proc = subprocess.run([sys.executable, __file__, "--cold", str(seed), "--throughput", str(count)],
                              capture_output=True, text=True, env=env, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        print(proc.stderr, file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _cold_rows(count: int, limit: float, repeats: int, scratch: Path) -> list[tuple[str, str, str, str]]:
    """Rows for cold processes: with an empty shape cache (text 1), then with the cache that the
    first of those left (texts 0 and 1's shapes) reading text 2: new words, shapes mostly kept."""
    kept = scratch / "kept"
    empty, warm = [], []
    for r in range(repeats):
        home = scratch / f"empty-{r}"
        empty.append(_cold(1, count, home, limit))
        if r == 0 and (home / "cache").is_dir():
            shutil.copytree(home / "cache", kept / "cache")
    for r in range(repeats):
        home = scratch / f"warm-{r}"
        if (kept / "cache").is_dir():
            shutil.copytree(kept / "cache", home / "cache")
        warm.append(_cold(2, count, home, limit))
    rows = []
    for label, runs in (("empty shape cache", empty), ("shapes kept by an earlier run", warm)):
        done = [f for f in runs if f is not None]
        if not done:
            rows.append((f"cold process, {label}", _fmt(None, limit), "", "goal >= 2000/s"))
            continue
        best = min(done, key=lambda f: f["text"])
        rate = count / best["text"]
        rows.append((f"cold process, {label}: first use", f"{best['first_use'] * 1000:.0f} ms", "", ""))
        rows.append((f"  translate, {count} new sentences ({best['understood']} understood, "
                     f"{best['parses']} Earley parses)", f"{best['text']:.3f} s", f"{rate:,.0f} sentences/s",
                     "ok" if rate >= 2000 else "below goal 2000/s"))
        whole = best["first_use"] + best["warmup"] + best["text"]
        rows.append((f"  the same, from its first sentence (first use, 100 more, {count})", f"{whole:.3f} s",
                     f"{(count + 102) / whole:,.0f} sentences/s", ""))
    return rows


# -- this process --------------------------------------------------------------------------------

def _warm_rows(rows: list[tuple[str, str, str, str]], n: int, count: int, limit: float) -> int:
    start = time.perf_counter()
    translate("Bob is big.")                   # grammar and morphology load on first use
    question_goal("Is Bob big?")
    first_use = time.perf_counter() - start
    for sentence in text(100, seed=0):         # and the rest of what loads lazily
        translate(sentence)

    sentences = text(count, seed=1)
    understood = []
    rows.append(("this process: first use (load grammar, morphology)", f"{first_use * 1000:.0f} ms", "", ""))
    # every generated sentence has new invented words: the first pass is the worst case (no word
    # seen before); the second pass over the same text is a text whose vocabulary repeats
    # a third pass reads another new text after those: new words, but sentence shapes mostly seen (steady state)
    later = text(count, seed=2)
    for label in ("new words", "same words again", "new words, after the first text"):
        understood.clear()
        batch = later if label.startswith("new words, after") else sentences
        took = timed(lambda r, batch=batch: lambda: understood.extend(s for s in batch if translate(s) is not None),
                     limit)
        if took is None:
            rows.append((f"translate, {len(sentences)} sentences, {label}", _fmt(None, limit), "", "goal >= 2000/s"))
            continue
        rate = len(batch) / took
        rows.append((f"translate, {len(batch)} sentences, {label} ({len(understood)} understood)",
                     f"{took:.3f} s", f"{rate:,.0f} sentences/s", "ok" if rate >= 2000 else "below goal 2000/s"))
        rows.append(("  the same, wall clock (shared cores)", f"{WALL[0]:.3f} s",
                     f"{len(batch) / WALL[0]:,.0f} sentences/s", ""))

    for label, make in (("split_sentences + translate", _tell), ("question_goal (context + question)", _ask)):
        t1 = timed(lambda r: make(n, seed=10 + r), limit, repeats=5)
        t10 = timed(lambda r: make(10 * n, seed=20 + r), limit, repeats=1 if t1 is None or t1 * 10 > limit / 5 else 5)
        ratio = "" if t1 is None or t10 is None else f"{t10 / t1:.1f}x"
        verdict = "" if not ratio else ("ok" if t10 / t1 <= 12 else "above goal 12x")
        rows.append((f"{label}, {n} sentences", _fmt(t1, limit), "", ""))
        rows.append((f"{label}, {10 * n} sentences", _fmt(t10, limit), f"growth {ratio or '?'}", verdict))

    width = max(len(r[0]) for r in rows)
    head = "measure (CPU s; cold: best of --repeats; N/10N: best of 5, new words each)"
    print(f"{head:<{width}}  {'time':>10}  {'rate / growth':<22}  verdict")
    for what, t, rate, verdict in rows:
        print(f"{what:<{width}}  {t:>10}  {rate:<22}  {verdict}")
    return 0


def _tell(count: int, seed: int):
    body = " ".join(text(count, seed=seed))

    def run():
        for sentence in split_sentences(body):
            translate(sentence)
    return run


def _ask(count: int, seed: int):
    body = " ".join(text(count, seed=seed)) + " Is the following statement true or false? Bob is big."
    return lambda: question_goal(body)


if __name__ == "__main__":
    sys.exit(main())
