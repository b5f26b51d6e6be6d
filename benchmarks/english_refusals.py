"""What the trust work (issue 27) costs and buys in the controlled-English bridge: for each plain
category of tests/english_gen.py (the statement categories and the questions), how many generated
sentences are understood (right or wrong) and how many are newly refused against a baseline; for
each trust category, how many keep their documented form (refusing where allowed). Only reads;
always exits 0.

The baseline's code is taken from a commit with `git archive` into a temporary folder and run in
a subprocess with `sym` pointed at it; the sentences come from this checkout's generator.

    python benchmarks/english_refusals.py                          # working tree against 69f3824
    python benchmarks/english_refusals.py --rev 69f3824 --save /tmp/base.json
    python benchmarks/english_refusals.py --compare /tmp/base.json [--save /tmp/now.json]
"""

from __future__ import annotations

import argparse
import json
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


def measure(n: int, n_trust: int, seed: int) -> dict:
    """Each sentence's verdict under the `sym` this process imports. Plain categories: right,
    wrong or refused; trust categories: kept or broken."""
    import sym.core
    from sym.core.reason.swm.english import question_goal, split_sentences, translate
    from tests.english_gen import STATEMENT_CATEGORIES, items, normal_clauses, normal_query
    from tests.english_trust_gen import TRUST_CATEGORIES, breach

    start = time.perf_counter()
    plain: dict[str, dict[str, str]] = {}
    for category in STATEMENT_CATEGORIES:
        out = plain[category] = {}
        for item in items(category, n, seed):
            found = translate(item.sentence)
            if found is None or not found.clauses:
                out[item.sentence] = "refused"
            else:
                right = normal_clauses(found.clauses) == normal_clauses(item.clauses)
                out[item.sentence] = "right" if right else "wrong"
    out = plain["questions"] = {}
    for item in items("questions", n, seed):
        goal = question_goal(item.sentence)
        assert item.goal is not None
        if goal is None:
            out[item.sentence] = "refused"
        else:
            right = (goal.kind, normal_query(goal.query)) == (item.goal[0], normal_query(item.goal[1]))
            out[item.sentence] = "right" if right else "wrong"
    trust: dict[str, dict[str, str]] = {}
    bridge = {"abbreviations": split_sentences, "refused_questions": question_goal}
    for category in TRUST_CATEGORIES:
        out = trust[category] = {}
        for item in items(category, n_trust, seed):
            problem = breach(item, bridge.get(category, translate)(item.sentence))
            out[item.sentence] = "kept" if problem is None else f"broken: {problem}"
    return {"code": str(Path(sym.core.__file__).parent), "seconds": round(time.perf_counter() - start, 1),
            "plain": plain, "trust": trust}


def measure_commit(rev: str, n: int, n_trust: int, seed: int) -> dict:
    """`measure` with the package of commit `rev`, in a subprocess."""
    with tempfile.TemporaryDirectory(prefix="sym-refusals-") as tmp:
        code = Path(tmp) / "code"
        code.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *PACKAGES], check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(code, filter="data")
        shim = Path(tmp) / "shim" / "sym"
        shim.mkdir(parents=True)
        (shim / "__init__.py").write_text(f"__path__ = [{str(code)!r}]\n")
        out = Path(tmp) / "verdicts.json"
        env = {**os.environ, "PYTHONPATH": str(shim.parent)}
        subprocess.run([sys.executable, __file__, "--save", str(out), "--n", str(n), "--n-trust", str(n_trust),
                        "--seed", str(seed), "--quiet"], check=True, env=env, cwd=ROOT)
        found = json.loads(out.read_text())
    found["code"] = f"commit {rev}"
    return found


def _understood(verdicts: dict[str, str]) -> int:
    return sum(v != "refused" for v in verdicts.values())


def report(now: dict, base: dict | None, examples: int) -> None:
    print(f"now: {now['code']} ({now['seconds']} s)" + (f"; baseline: {base['code']}" if base else ""))
    print(f"\n{'plain category':14} {'n':>5} {'understood':>16} {'right':>16} {'newly refused':>14} {'newly wrong':>12}")
    total = [0, 0, 0]
    for category, verdicts in now["plain"].items():
        old = (base or {}).get("plain", {}).get(category, {})
        n, und, right = len(verdicts), _understood(verdicts), sum(v == "right" for v in verdicts.values())
        if not old:
            print(f"{category:14} {n:5} {und:16} {right:16}")
            continue
        refused = [s for s, v in verdicts.items() if v == "refused" and old.get(s, "refused") != "refused"]
        wrong = [s for s, v in verdicts.items() if v == "wrong" and old.get(s) != "wrong"]
        total = [total[0] + n, total[1] + len(refused), total[2] + len(wrong)]
        print(f"{category:14} {n:5} {_understood(old):7} -> {und:6} {sum(v == 'right' for v in old.values()):7} -> "
              f"{right:6} {len(refused):14} {len(wrong):12}")
        for s in refused[:examples]:
            print(f"    newly refused ({old[s]} before): {s}")
        for s in wrong[:examples]:
            print(f"    newly wrong: {s}")
    if base:
        print(f"{'all':14} {total[0]:5} {'':33} {total[1]:14} {total[2]:12}")
    print(f"\n{'trust category':18} {'n':>5} {'documented form kept':>22}")
    for category, verdicts in now["trust"].items():
        old = (base or {}).get("trust", {}).get(category, {})
        kept = sum(v == "kept" for v in verdicts.values())
        before = f"{sum(v == 'kept' for v in old.values()):7} -> " if old else ""
        print(f"{category:18} {len(verdicts):5} {before + str(kept):>22}")
        for s, v in [(s, v) for s, v in verdicts.items() if v != "kept"][:examples]:
            print(f"    {s}  {v}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="sentences per plain category")
    ap.add_argument("--n-trust", type=int, default=500, help="sentences per trust category")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rev", help="measure this commit's code instead of the working tree")
    ap.add_argument("--save", help="write the verdicts (JSON) here")
    ap.add_argument("--compare", help="compare against verdicts saved by --save")
    ap.add_argument("--baseline", default="69f3824", help="commit to compare against when no --compare")
    ap.add_argument("--examples", type=int, default=3, help="example sentences shown per category")
    ap.add_argument("--quiet", action="store_true", help="only --save (used for the baseline subprocess)")
    args = ap.parse_args()

    if args.rev:
        now = measure_commit(args.rev, args.n, args.n_trust, args.seed)
    else:
        now = measure(args.n, args.n_trust, args.seed)
    if args.save:
        Path(args.save).write_text(json.dumps(now, indent=0))
    if args.quiet:
        return 0
    if args.compare:
        base = json.loads(Path(args.compare).read_text())
    elif args.rev:
        base = None
    else:
        base = measure_commit(args.baseline, args.n, args.n_trust, args.seed)
    report(now, base, args.examples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
