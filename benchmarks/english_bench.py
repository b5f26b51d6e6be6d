"""Speed of the controlled-English bridge on generated text (tests/english_gen.py, invented words).

Measures translate's throughput in sentences per second (goal >= 2,000/s) three ways — a cold
process's first text (every word and most sentence shapes new: each new shape costs one Earley
parse), the same text again, and a second new text (new words, shapes mostly seen: the steady
state of a session) — and how the time of
split_sentences + translate over a text, and of question_goal over a context + question, grows
from N to 10N sentences (goal <= 12x). Each measurement has a time limit so a slow translator
cannot hang the run. Prints a table; always exits 0.

    python benchmarks/english_bench.py [--n 200] [--limit 60]
"""

from __future__ import annotations

import argparse
import signal
import sys
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
    args = ap.parse_args()
    n, limit = args.n, args.limit

    start = time.perf_counter()
    translate("Bob is big.")                   # grammar and morphology load on first use
    question_goal("Is Bob big?")
    first_use = time.perf_counter() - start
    for sentence in text(100, seed=0):         # and the rest of what loads lazily
        translate(sentence)

    sentences = text(args.throughput, seed=1)
    understood = []
    rows = [("first use (load grammar, morphology)", f"{first_use * 1000:.0f} ms", "", "")]
    # every generated sentence has new invented words: the first pass is the worst case (no word
    # seen before); the second pass over the same text is a text whose vocabulary repeats
    # a third pass reads another new text after those: new words, but sentence shapes mostly seen (steady state)
    later = text(args.throughput, seed=2)
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
    print(f"{'measure (CPU s; N/10N: best of 5, new words each)':<{width}}  {'time':>10}  {'rate / growth':<22}  verdict")
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
