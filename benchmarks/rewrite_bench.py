"""How often the model's rewrite (`/set tell.model rewrite`) reads a refused sentence right.

    python benchmarks/rewrite_bench.py --ollama-host URL --model M [-n N | --only I,J,…] [--data FILE] [--timeout S]

Each item of the development list (benchmarks/data/rewrite_dev.json: sentences the grammar refuses
today, from the SWM and outside development data and of the kinds people write — hedges, asides,
possessives, reports, tenses) has a hand-written reference reading in the controlled language, or
null where the sentence has no faithful reading there. The grammar reads the reference, so the
expected clauses are its reading. Each sentence goes through the rewrite path exactly as /tell
sends it (core/reason/swm/rewrite.py: the rewrite, its checks, the independent same/different
call) and counts as:

  accepted-correct  stored clauses = the reference's
  accepted-partial  stored part of the reference's clauses and nothing else (lost, not misstated)
  accepted-wrong    stored anything else (or anything at all, for a null reference)
  refused           nothing stored (right for a null reference, a loss otherwise)

Prints one row per sentence, then the counts and the model calls and seconds they took. Not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sym.core.llm import LLMError  # noqa: E402
from sym.core.memory.working import WorkingMemory  # noqa: E402
from sym.core.reason.swm import english, rewrite  # noqa: E402
from sym.core.run import Run  # noqa: E402
from sym.core.settings import load_settings  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "rewrite_dev.json"


def expected(reference: str | None) -> frozenset[str] | None:
    """The clauses of the reference reading (None: no faithful reading)."""
    if reference is None:
        return None
    out: set[str] = set()
    for part in english.split_sentences(reference):
        tr = english.translate(part)
        if tr is None:
            raise SystemExit(f"label error: the reference {part!r} does not read")
        out |= set(tr.clauses)
    return frozenset(out)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="rewrite_bench.py")
    p.add_argument("--ollama-host", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("-n", type=int, default=None, help="the first N sentences (default: all)")
    p.add_argument("--only", help="these items only, by index in the list (e.g. 0,12,25)")
    p.add_argument("--data", default=str(DATA))
    p.add_argument("--timeout", type=float, default=600.0, help="llm_timeout, seconds per call")
    a = p.parse_args(argv)
    settings = load_settings()
    settings.model, settings.ollama_host, settings.llm_timeout = a.model, a.ollama_host, a.timeout
    llm = Run(settings, "rewrite-bench").llm
    items = json.loads(Path(a.data).read_text(encoding="utf-8"))
    items = [items[int(i)] for i in a.only.split(",")] if a.only else items[: a.n]
    counts = {"accepted-correct": 0, "accepted-partial": 0, "accepted-wrong": 0, "refused": 0, "refused-rightly": 0}
    calls, started = 0, time.monotonic()
    for item in items:
        sentence, want = item["sentence"], expected(item["reference"])
        if english.translate(sentence) is not None:
            print(f"skipped (the grammar reads it now): {sentence}")
            continue
        t0 = time.monotonic()
        try:
            done = rewrite.rewrite(llm, sentence, WorkingMemory())
        except LLMError as err:
            done = rewrite.Rewritten(sentence, problem=f"call failed: {err.message}", calls=1)
        calls += done.calls
        got = frozenset(c for tr in done.readings for c in tr.clauses) if not done.problem else None
        if got is None:
            verdict = "refused-rightly" if want is None else "refused"
        else:
            verdict = ("accepted-correct" if got == want else
                       "accepted-partial" if want is not None and got < want else "accepted-wrong")
        counts[verdict] += 1
        detail = done.problem if done.problem else " ".join(sorted(got or ()))
        print(f"{verdict:<17} {time.monotonic() - t0:6.1f}s  {sentence}\n{'':<26}→ {done.rewrite or '—'}  ({detail[:140]})")
    readable = sum(1 for it in items if it["reference"] is not None)
    print(f"\n{len(items)} sentences ({readable} with a faithful reading): "
          f"accepted-correct {counts['accepted-correct']}, accepted-partial {counts['accepted-partial']}, "
          f"accepted-wrong {counts['accepted-wrong']}, "
          f"refused {counts['refused']} (+ {counts['refused-rightly']} rightly, no faithful reading); "
          f"{calls} model calls, {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
