"""Goal-directed queries: sym now vs sym before (materializing the whole model first, commit
69f3824 unless --before says otherwise) vs SWI-Prolog tabling, ratios from one run.

Not part of the test run. Usage (from the repository root):

    PYTHONPATH=. python benchmarks/query_bench.py                 # every case
    PYTHONPATH=. python benchmarks/query_bench.py --only chain-100k,beside
    PYTHONPATH=. python benchmarks/query_bench.py --before HEAD~3  # another "before"
    PYTHONPATH=. python benchmarks/query_bench.py --repeat 3      # best of 3 fresh runs per engine

Each case runs in a fresh process per engine: the program is loaded (not timed in the ratios),
then a first question is timed (what a user waits for after /consult), then a warm one (the same
question with another constant, in the same process). Both sym columns run with max_facts at the
REPL's default (5,000,000): where materializing stops there, the column says so and how long it
took to get there. "before" is the commit's `core/` extracted with `git archive` into a temporary
folder and imported in place of this checkout's. SWI-Prolog consults the same facts with the
queried predicate tabled, right-recursive as written and left-recursive (its linear form); where
`swipl` is not installed those columns say so. Answer counts must agree; a disagreement prints
MISMATCH and exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BEFORE = "69f3824"
MAX_FACTS = 5_000_000     # the REPL's default
TIMEOUT = 600             # seconds per engine and case

RIGHT = "p(X, Y) :- e(X, Y).\np(X, Y) :- e(X, Z), p(Z, Y).\n"
LEFT = "p(X, Y) :- e(X, Y).\np(X, Y) :- p(X, Z), e(Z, Y).\n"


def chain(name: str, n: int, pred: str = "e", prefix: str = "n") -> list[tuple[str, tuple[str, str]]]:
    return [(pred, (f"{prefix}{i}", f"{prefix}{i + 1}")) for i in range(n)]


def case_facts(case: str) -> tuple[list[tuple[str, tuple]], str]:
    """(facts as (predicate, args), rules text) for a case."""
    if case in ("chain-10k", "chain-100k", "closure-1k", "closure-2k"):
        n = {"chain-10k": 10_000, "chain-100k": 100_000, "closure-1k": 1_000, "closure-2k": 2_000}[case]
        return chain(case, n), RIGHT
    if case == "beside":
        facts = chain(case, 1_500) + chain(case, 3_000, "e2", "m")
        return facts, RIGHT + RIGHT.replace("p(", "p2(").replace("e(", "e2(")
    if case == "social":
        from benchmarks.closure_bench import social_graph

        w = social_graph()
        return [("e", (int(a), int(b))) for a, b in _pairs(w.facts)], RIGHT
    if case == "kinship-100k":
        from benchmarks.logic_bench import KINSHIP_RULES, population

        parents, male = population(100_000)
        facts: list[tuple[str, tuple]] = [("parent", pc) for pc in parents]
        facts += [("male" if m else "female", (p,)) for p, m in male.items()]
        return facts, KINSHIP_RULES
    raise ValueError(case)


def _pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for line in text.splitlines():
        inside = line[line.index("(") + 1:line.rindex(")")]
        a, b = (part.strip() for part in inside.split(","))
        out.append((a, b))
    return out


def elders() -> tuple[str, str]:
    """Two people of the first generation of kinship 100k who have grandchildren."""
    from benchmarks.logic_bench import population

    parents, _ = population(100_000)
    up: dict[str, list[str]] = {}
    for parent, child in parents:
        up.setdefault(child, []).append(parent)
    found = [up[up[child][0]][0] for child in ("p50000", "p60000") if up.get(up[child][0])]
    return found[0], found[-1]


# case -> (first question, warm question); {a} and {b} are two people with grandchildren
QUESTIONS = {
    "chain-10k": ("p(n0, X)", "p(n1, X)"),
    "chain-100k": ("p(n0, X)", "p(n1, X)"),
    "social": ("p(0, X)", "p(1, X)"),
    "beside": ("e(X, Y)", "e(n5, Y)"),
    "kinship-100k": ("grandparent({a}, X)", "grandparent({b}, X)"),
    "ancestor-100k": ("ancestor({a}, X)", "ancestor({b}, X)"),
    "closure-1k": ("p(X, Y)", "p(X, n500)"),
    "closure-2k": ("p(X, Y)", "p(X, n1000)"),
}


def questions(case: str) -> tuple[str, str]:
    first, warm = QUESTIONS[case]
    if "{a}" in first:
        a, b = elders()
        return first.format(a=a), warm.format(b=b)
    return first, warm
SOURCE = {"ancestor-100k": "kinship-100k"}      # cases sharing another case's facts


# -- one engine, one case (a fresh process) ------------------------------------------------


def worker(root: str, case: str) -> dict:
    """Load a case and time its questions with the sym whose `core/` is under `root`."""
    if root != str(ROOT):       # import that tree's sym in place of this checkout's
        sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
        link = Path(tempfile.mkdtemp()) / "sym"
        link.symlink_to(root)
        sys.path.insert(0, str(link.parent))
    from sym.core.errors import UserError
    from sym.core.logic.engine import Engine
    from sym.core.logic.parser import parse_program, parse_query
    from sym.core.logic.terms import Atom

    facts, rules = case_facts(SOURCE.get(case, case))
    out: dict = {}
    t0 = time.perf_counter()
    engine = Engine()
    engine.max_facts = MAX_FACTS
    engine.add_facts(Atom(pred, args) for pred, args in facts)
    engine.add_program(item.clause for item in parse_program(rules))
    out["load"] = time.perf_counter() - t0
    for label, text in zip(("first", "warm"), questions(case)):
        t0 = time.perf_counter()
        try:
            out[label + "_count"] = len(engine.solve(parse_query(text)))
        except UserError as err:
            out[label] = time.perf_counter() - t0
            out["error"] = err.message
            break
        out[label] = time.perf_counter() - t0
    return out


def run_worker(root: Path, case: str) -> dict:
    cmd = [sys.executable, __file__, "--worker", str(root), "--case", case]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {TIMEOUT} s", "first": float(TIMEOUT)}
    if proc.returncode:
        return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- SWI-Prolog --------------------------------------------------------------------------


def run_swipl(case: str, tmp: Path, rules: str) -> dict:
    facts, _ = case_facts(SOURCE.get(case, case))
    first, warm = questions(case)
    pred = first[:first.index("(")]
    path = tmp / f"{case}-{len(rules)}.pl"
    lines = [":- set_prolog_flag(table_space, 8_000_000_000).\n",   # right recursion tables every suffix
             f":- table {pred}/2.\n"] + [f"{p}({', '.join(map(str, args))}).\n" for p, args in facts]
    path.write_text("".join(lines) + rules)
    goal = (f"statistics(cputime, T0), aggregate_all(count, {first}, N1), statistics(cputime, T1), "
            f"aggregate_all(count, {warm}, N2), statistics(cputime, T2), "
            f"D1 is T1 - T0, D2 is T2 - T1, format('~w ~w ~w ~w~n', [D1, N1, D2, N2])")
    try:
        proc = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(path)], capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {TIMEOUT} s"}
    if len(proc.stdout.split()) != 4:
        said = (proc.stderr.strip() or proc.stdout.strip() or f"exit {proc.returncode}").splitlines()
        return {"error": said[-1][:120]}
    d1, n1, d2, n2 = proc.stdout.split()
    return {"first": float(d1), "first_count": int(n1), "warm": float(d2), "warm_count": int(n2)}


# -- the table ---------------------------------------------------------------------------


def cell(result: dict, key: str) -> str:
    if "error" in result and key not in result:
        return "—"
    if "error" in result and key == "first" and "first_count" not in result:
        return f"stopped {result['first']:.2f}s" if "first" in result else "failed"
    return f"{result[key]:.3f}s" if key in result else "—"


def ratio(before: dict, after: dict, key: str) -> str:
    if key not in after or key not in before or not after[key]:
        return "—"
    r = before[key] / after[key]
    mark = ">" if "error" in before and f"{key}_count" not in before else ""
    return f"{mark}{r:,.0f}×" if r >= 10 else f"{mark}{r:.1f}×"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated cases: " + ", ".join(QUESTIONS))
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per engine, best kept (a busy machine is noisy)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.case)))
        return 0
    cases = args.only.split(",") if args.only else list(QUESTIONS)
    swipl = shutil.which("swipl")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f}; "
          f"max_facts {MAX_FACTS:,}; fresh process per engine; times exclude loading")
    if not swipl:
        print("SWI-Prolog: swipl not installed here, its columns are skipped")
    ok = True
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        before_root = tmp / "before"
        before_root.mkdir()
        archive = subprocess.run(["git", "archive", args.before, "core"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(before_root)], input=archive.stdout, check=True)
        header = (f"{'case':<14} {'question':<20} {'answers':>8}  {'before':>14} {'after':>9} {'ratio':>7}"
                  f"  {'warm before':>12} {'warm after':>10} {'ratio':>7}")
        if swipl:
            header += f"  {'swi right':>9} {'swi left':>9}"
        print(header)
        for case in cases:
            runs: dict[str, list[dict]] = {"before": [], "after": []}
            for _ in range(args.repeat):      # turns, so that drifting load hits both alike
                runs["before"].append(run_worker(before_root, case))
                runs["after"].append(run_worker(ROOT, case))
            before, after = (min(runs[k], key=lambda r: r.get("first", float("inf"))) for k in ("before", "after"))
            counts = {r.get("first_count") for r in (before, after) if "first_count" in r}
            if len(counts) > 1:
                ok = False
                print(f"MISMATCH {case}: before {before.get('first_count')} after {after.get('first_count')}")
            line = (f"{case:<14} {questions(case)[0]:<20} {after.get('first_count', 0):>8,}  {cell(before, 'first'):>14}"
                    f" {cell(after, 'first'):>9} {ratio(before, after, 'first'):>7}  {cell(before, 'warm'):>12}"
                    f" {cell(after, 'warm'):>10} {ratio(before, after, 'warm'):>7}")
            if swipl:
                rules = case_facts(SOURCE.get(case, case))[1]
                right = run_swipl(case, tmp, rules)
                left = run_swipl(case, tmp, rules.replace("p(X, Y) :- e(X, Z), p(Z, Y).", "p(X, Y) :- p(X, Z), e(Z, Y)."))
                line += f"  {cell(right, 'first'):>9} {cell(left, 'first'):>9}"
            print(line, flush=True)
            for name, result in (("before", before), ("after", after)):
                if "error" in result:
                    print(f"  {name}: {result['error']}")
    if not ok:
        print("MISMATCH: the engines disagree on answer counts (see above)")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
