"""sym's English against APE's regression texts (issue 48, part 6): an outside test set.

APE, the parser of Attempto Controlled English, keeps thousands of texts with the DRS it gives
each (Attempto/APE, tests/acetexts.pl, LGPL-3.0; the evaluation-0 facts, trees stripped, are in
benchmarks/ape/acetexts.pl.gz — see tests/english/ape/README.md). Each text's DRS is translated
mechanically into sym's clauses (benchmarks/ape/drs.py says how, and which DRS conditions lie
outside sym's logic); sym reads the text as one /tell into a new memory does, without a model.
Each text is then:

  same       sym reads it to the DRS's clauses (up to renaming of variables and of the text's own
             constants, and the order of clauses and literals)
  different  sym reads it to other clauses: a misreading (listed, with both clause sets)
  refused    sym refuses it (the reasons are counted)
  outside    the DRS has a condition sym's logic cannot say (counted by condition; those sym reads
             all the same are listed: each is a reading of something sym's logic cannot say)
  no DRS     APE itself gives the text no DRS (it is not ACE)

The goal (issue 48): of the texts whose DRS lies within sym's logic (same + different + refused),
>= 90 % same and 0 different. A referent of the DRS's top box counts as within the logic: a
constant of the text's own, as a Skolem constant. sym's English holds no unnamed thing (it
refuses *A man waits.*, *There is a card.*), so a second figure counts only the texts that speak of
named things alone: names, and `the` descriptions (run.named_only). Prints a table; always exits 0.

    python benchmarks/ape_bench.py [--acetexts PATH] [--show refused|outside|same] [--limit N]
    python benchmarks/ape_bench.py --write-sample tests/english/ape/sample.pl [--sample-size 300]
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ape.prolog import entries  # noqa: E402
from benchmarks.ape.run import KINDS, Result, classify  # noqa: E402

DATA = Path(__file__).resolve().parent / "ape" / "acetexts.pl.gz"


def _indefinite(result: Result) -> bool:
    """The refused sentence has an indefinite article (*a man waits*: a thing of the text's own,
    a Skolem constant, which sym's definition does not yet introduce)."""
    return re.search(r"\b(a|an)\b", result.sentence, flags=re.I) is not None


def sample(results: list[Result], size: int, seed: int = 48, keep: frozenset[int] = frozenset()) -> list[Result]:
    """A fixed sample for CI: the texts of an earlier sample (`keep`, by id: a sample only grows),
    every text sym reads the same now (the ones a regression shows in; a text read differently is
    listed by the bench to be fixed, and joins when the sample next grows), then a seeded draw of
    the refused, outside and no-DRS texts (about half refused) up to `size`, in the file's order."""
    chosen = {r.entry.id for r in results if r.entry.id in keep or r.kind == "same"}
    rng = random.Random(seed)
    rest = max(0, size - len(chosen))
    refused = [r for r in results if r.kind == "refused" and r.entry.id not in chosen]
    others = [r for r in results if r.kind in ("outside", "no DRS") and r.entry.id not in chosen]
    picked = rng.sample(refused, min(len(refused), rest // 2))
    picked += rng.sample(others, min(len(others), rest - len(picked)))
    chosen |= {r.entry.id for r in picked}
    return [r for r in results if r.entry.id in chosen]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--acetexts", type=Path, default=DATA, help="an acetexts.pl (or .pl.gz) file")
    ap.add_argument("--show", choices=("refused", "outside", "same"), help="also list the texts of this kind")
    ap.add_argument("--limit", type=int, default=0, help="only the first N texts")
    ap.add_argument("--write-sample", type=Path,
                    help="write a fixed CI sample of the texts to this file (the texts already there stay)")
    ap.add_argument("--sample-size", type=int, default=300)
    args = ap.parse_args()

    start = time.perf_counter()
    results: list[Result] = []
    for n, entry in enumerate(entries(args.acetexts)):
        if args.limit and n >= args.limit:
            break
        results.append(classify(entry))
    seconds = time.perf_counter() - start
    counts = collections.Counter(r.kind for r in results)
    within = counts["same"] + counts["different"] + counts["refused"]

    print(f"APE regression texts (evaluation 0): {len(results)} from {args.acetexts}  ({seconds:.1f} s)")
    for kind in KINDS:
        print(f"  {kind:<10} {counts[kind]:>5}")
    if within:
        print(f"within sym's logic: {within}; read the same {counts['same'] / within:.1%} (goal >= 90 %), "
              f"read differently {counts['different']} (goal 0), refused {counts['refused'] / within:.1%}")

    named = [r for r in results if r.kind in ("same", "different", "refused") and r.named_only]
    if named:
        n_same = sum(r.kind == "same" for r in named)
        print(f"of those, speaking only of named things (names, `the` descriptions; no `a`, `some`, `there is`): "
              f"{len(named)}; read the same {n_same / len(named):.1%}, differently {sum(r.kind == 'different' for r in named)}")
    for r in results:
        if r.kind == "different":
            print(f"\nDIFFERENT  APE {r.entry.id}: {r.entry.text!r}")
            print("  sym:", " ".join(r.sym_clauses))
            print("  DRS:", " ".join(r.drs_clauses))
    read_outside = [r for r in results if r.kind == "outside" and r.sym_clauses]
    print(f"\noutside sym's logic, yet read by sym: {len(read_outside)} (each a reading of something sym cannot say)")
    for r in read_outside:
        print(f"  APE {r.entry.id}: {r.entry.text!r}  [{r.reason}]  sym: {' '.join(r.sym_clauses)}")
    for title, kind in (("refused, by reason", "refused"), ("outside, by DRS condition", "outside")):
        reasons = collections.Counter(r.reason for r in results if r.kind == kind)
        print(f"\n{title}:")
        for reason, n in reasons.most_common(15):
            print(f"  {n:>5}  {reason}")
    refused = [r for r in results if r.kind == "refused"]
    if refused:
        print(f"  of the refused, {sum(map(_indefinite, refused))} refuse a sentence with an indefinite article"
              " (a man, an animal)")
    if args.show:
        print(f"\n{args.show}:")
        for r in results:
            if r.kind == args.show:
                why = f"'{r.sentence}' {r.reason}" if r.kind == "refused" else r.reason or " ".join(r.drs_clauses)
                print(f"  APE {r.entry.id}: {r.entry.text!r}  — {why}")
    if args.write_sample:
        keep = frozenset(e.id for e in entries(args.write_sample)) if args.write_sample.exists() else frozenset()
        chosen = sample(results, args.sample_size, keep=keep)
        head = ("% A fixed sample of APE's regression texts (Attempto/APE, tests/acetexts.pl, LGPL-3.0),\n"
                "% evaluation 0, syntax trees stripped; written by benchmarks/ape_bench.py --write-sample.\n")
        args.write_sample.write_text(head + "".join(r.entry.line + "\n" for r in chosen), encoding="utf-8")
        print(f"\nwrote {len(chosen)} texts to {args.write_sample}: "
              + ", ".join(f"{k} {sum(r.kind == k for r in chosen)}" for k in KINDS))


if __name__ == "__main__":
    main()
