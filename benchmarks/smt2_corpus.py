"""Public SMT-LIB files through `/prove --file` and through z3 itself, answer by answer (issue #50).

    python benchmarks/smt2_corpus.py [--git GITDIR PREFIX]... [--dir DIR]... [--only TEXT] [--limit N]
                                     [--timeout S] [--z3-cache FILE] [--results FILE] [--fresh] [--list]

The corpus is read straight from bare git directories (what the `fetch` tool brings:
Z3Prover/z3test `regressions/smt2`, pysmt/pysmt `pysmt/test/smtlib`, `.smt2` and `.smt2.bz2`) or
from folders. Each file goes through sym's `/prove --file` in-process (the Shell the tests' `sym`
fixture drives: the same dispatcher, command and worker process as `sym --batch`) and through the
z3 binary the z3-solver wheel ships (`z3 -in -smt2 -t:MS`, the same per-check limit). Their answers
(every line z3 prints that is sat / unsat / unknown, and sym's answer per check) are compared:

- agree: the same answers; weaker: the same where both decided, sym unknown where z3 decided (or
  the reverse); disagree: sat against unsat, or a different number of answers;
- refused: sym said in one line that it does not run the file (no answers: z3 printed only errors
  and sym failed with Z3's first one); internal error: anything else
  sym raised; timeout: a check sym stopped at proof.timeout (split by whether z3 alone answered).

z3's answers are cached (--z3-cache) so that a rerun only pays for sym. Each file's result is
appended to --results (JSON lines) as soon as it is known, and a rerun with the same timeout picks
up from there (--fresh starts over): a long run killed midway keeps what it did.
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MIRRORS = [("/work/.mirror/Z3Prover+z3test/repo", "regressions/smt2/"),
           ("/work/.mirror/pysmt+pysmt/repo", "pysmt/test/smtlib/")]
ANSWERS = ("sat", "unsat", "unknown")


def corpus(gits: list[tuple[str, str]], dirs: list[str]) -> list[tuple[str, bytes]]:
    """(name, file bytes) for every .smt2 / .smt2.bz2 file."""
    out = []
    for gitdir, prefix in gits:
        names = subprocess.run(["git", f"--git-dir={gitdir}", "ls-tree", "-r", "HEAD", "--name-only"],
                               capture_output=True, text=True, check=True).stdout.split("\n")
        for name in sorted(n for n in names if n.startswith(prefix) and n.endswith((".smt2", ".smt2.bz2"))):
            data = subprocess.run(["git", f"--git-dir={gitdir}", "show", f"HEAD:{name}"], capture_output=True,
                                  check=True).stdout
            out.append((f"{Path(gitdir).parent.name.replace('+', '/')}:{name}", data))
    for folder in dirs:
        for path in sorted(Path(folder).rglob("*")):
            if path.name.endswith((".smt2", ".smt2.bz2")):
                out.append((str(path), path.read_bytes()))
    return [(name, bz2.decompress(data) if name.endswith(".bz2") else data) for name, data in out]


def z3_answers(data: bytes, timeout_s: float, wall_s: float) -> dict:
    """What z3 prints for a file: its answers, and whether the wall-clock limit stopped it."""
    exe = Path(sys.executable).parent / "z3"
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory() as cwd:     # a file's (set-option :trace true) writes z3.log here
            proc = subprocess.run([str(exe), "-in", "-smt2", f"-t:{int(timeout_s * 1000)}"], input=data,
                                  capture_output=True, timeout=wall_s, cwd=cwd)
        out, killed = proc.stdout.decode(errors="replace"), False
    except subprocess.TimeoutExpired as err:
        out, killed = (err.stdout or b"").decode(errors="replace"), True
    answers = [line.strip() for line in out.splitlines() if line.strip() in ANSWERS]
    return {"answers": answers, "killed": killed, "seconds": round(time.monotonic() - started, 2)}


def sym_answers(shell, data: bytes, folder: Path) -> dict:
    """sym's answers for a file through `/prove --file`, or why it gave none."""
    from sym.repl.results import Failure

    path = folder / "file.smt2"
    path.write_bytes(data)
    started = time.monotonic()
    try:
        result = shell.execute(f"/prove --file {path}")[1]
    except Exception as err:  # noqa: BLE001 - what the benchmark counts as an internal error
        return {"status": "internal error", "message": f"{type(err).__name__}: {err}"[:300]}
    seconds = round(time.monotonic() - started, 2)
    if isinstance(result, Failure):
        message = result.message
        status = "internal error" if "internal error" in message else \
            "timeout" if result.exit_code == 4 else "refused"
        return {"status": status, "message": message[:300], "seconds": seconds}
    data_out = result.to_dict()
    answers = [c["answer"] for c in data_out.get("checks", [])]
    timeouts = [i for i, c in enumerate(data_out.get("checks", [])) if c.get("timeout")]
    return {"status": "ok", "answers": answers, "timeouts": timeouts, "seconds": seconds}


def compare(z3: dict, sym: dict) -> str:
    if sym["status"] == "timeout":
        alone = [a for a in z3["answers"] if a != "unknown"]
        return "timeout (z3 alone answers)" if alone or not z3["answers"] else "timeout (z3 alone times out too)"
    if sym["status"] == "refused" and not z3["answers"] and "sym does not run" not in sym["message"]:
        return "no answers (both: Z3's error)"     # z3 prints only errors; sym fails with the first
    if sym["status"] != "ok":
        return sym["status"]
    mine, theirs = sym["answers"], z3["answers"]
    if sym["timeouts"]:
        alone = [i for i in sym["timeouts"] if i < len(theirs) and theirs[i] != "unknown"]
        return "timeout (z3 alone answers)" if alone else "timeout (z3 alone times out too)"
    if z3["killed"]:
        mine = mine[:len(theirs)]
    if len(mine) != len(theirs):
        return "disagree"
    if any({a, b} == {"sat", "unsat"} for a, b in zip(mine, theirs)):
        return "disagree"
    return "agree" if mine == theirs else "weaker"


def spread(n: int) -> list[int]:
    """0..n-1 in bit-reversed order: every prefix is spread over the whole range."""
    bits = max(1, (n - 1).bit_length())
    return [r for r in (int(f"{i:0{bits}b}"[::-1], 2) for i in range(1 << bits)) if r < n]


def done_rows(results: Path, timeout: float) -> dict[str, dict]:
    """The results already in the file for this timeout, by file name (a torn last line is skipped)."""
    rows: dict[str, dict] = {}
    if not results.exists():
        return rows
    for line in results.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and row.get("timeout") == timeout and "file" in row:
            rows[row["file"]] = row
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git", nargs=2, action="append", metavar=("GITDIR", "PREFIX"))
    ap.add_argument("--dir", action="append", default=[])
    ap.add_argument("--only", default="", help="only files whose name holds this text")
    ap.add_argument("--limit", type=int, default=0, help="at most N files (every k-th, spread over the corpus)")
    ap.add_argument("--timeout", type=float, default=10.0, help="proof.timeout and z3's -t, seconds per check")
    ap.add_argument("--wall", type=float, default=120.0, help="seconds z3 may take over a whole file")
    ap.add_argument("--z3-cache", default=str(Path(tempfile.gettempdir()) / "smt2_corpus_z3.json"))
    ap.add_argument("--z3-only", action="store_true", help="fill the z3 cache and stop")
    ap.add_argument("--list", action="store_true", help="list every file that is not agree")
    ap.add_argument("--results", default=str(Path(tempfile.gettempdir()) / "smt2_corpus_results.jsonl"),
                    help="per-file results, one JSON line each, appended as they come; a rerun resumes from it")
    ap.add_argument("--fresh", action="store_true", help="ignore the results already in --results")
    args = ap.parse_args()
    gits = [tuple(g) for g in args.git] if args.git else ([] if args.dir else [m for m in MIRRORS if os.path.isdir(m[0])])
    files = [(n, d) for n, d in corpus(gits, args.dir) if args.only in n]
    if args.limit and len(files) > args.limit:
        step = len(files) / args.limit
        files = [files[int(i * step)] for i in range(args.limit)]
    # in an order spread over the corpus, so that a run stopped early is still a sample of all of it
    files = [files[i] for i in spread(len(files))]
    cache_path = Path(args.z3_cache)
    cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    key = f"{args.timeout}"
    for i, (name, data) in enumerate(files):
        if f"{key}|{name}" not in cache:
            cache[f"{key}|{name}"] = z3_answers(data, args.timeout, args.wall)
            if i % 20 == 0:
                cache_path.write_text(json.dumps(cache))
    cache_path.write_text(json.dumps(cache))
    if args.z3_only:
        print(f"z3: {len(files)} files cached in {cache_path}")
        return
    from sym.repl.dispatcher import Shell

    results = Path(args.results)
    done = {} if args.fresh else done_rows(results, args.timeout)
    shell = Shell()
    shell.execute(f"/set proof.timeout {args.timeout:g}")
    counts: Counter[str] = Counter()
    rows = []
    started = time.monotonic()
    if results.exists() and results.stat().st_size and not results.read_bytes().endswith(b"\n"):
        with results.open("a", encoding="utf-8") as log:      # a run killed mid-line: start on a fresh one
            log.write("\n")
    with tempfile.TemporaryDirectory() as tmp, results.open("a", encoding="utf-8") as log:
        for name, data in files:
            if name in done:
                row = {**done[name], "verdict": compare(done[name]["z3"], done[name]["sym"])}
            else:
                z3 = cache[f"{key}|{name}"]
                mine = sym_answers(shell, data, Path(tmp))
                row = {"file": name, "timeout": args.timeout, "verdict": compare(z3, mine), "z3": z3, "sym": mine}
                log.write(json.dumps(row) + "\n")
                log.flush()
            verdict = row["verdict"]
            counts[verdict] += 1
            rows.append(row)
            if name not in done and (verdict == "internal error" or verdict.startswith("disagree")):
                print(f"{verdict}: {name}\n    z3 {row['z3']['answers'][:12]}  "
                      f"sym {row['sym'].get('answers', row['sym'].get('message'))}", file=sys.stderr)
    resumed = sum(1 for name, _ in files if name in done)
    print(f"{len(files)} files ({resumed} from {results}) in {time.monotonic() - started:.0f} s "
          f"(proof.timeout {args.timeout:g} s)")
    for verdict in ("agree", "weaker", "disagree", "no answers (both: Z3's error)", "refused", "timeout (z3 alone times out too)",
                    "timeout (z3 alone answers)", "timeout", "internal error"):
        print(f"  {verdict:<34} {counts[verdict]}")
    reasons = Counter(re.sub(r"line \d+ column \d+: ", "", r["sym"]["message"].split(": ", 1)[-1])[:90]
                      for r in rows if r["verdict"] == "refused")
    if reasons:
        print("refusals, most common:")
        for reason, n in reasons.most_common():
            print(f"  {n:4}  {reason}")
    for r in rows:
        if r["verdict"].startswith("disagree") or (args.list and r["verdict"] != "agree"):
            print(f"{r['verdict']}: {r['file']}  z3 {r['z3']['answers'][:8]}  "
                  f"sym {r['sym'].get('answers', r['sym'].get('message', ''))}"[:400])


if __name__ == "__main__":
    main()
