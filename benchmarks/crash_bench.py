"""kill -9 at a random moment of a command that writes, then reopen: the workspace (and the file a
command writes) must hold all of what the command wrote or none of it, and open without repair.

Run:   python benchmarks/crash_bench.py [--trials 20] [--only consult,load] [--seed 35] [--small]
Not a test (tests/reliability/test_crash_bench.py runs `--small`). Each trial starts the installed
`sym` on a new workspace under a temporary SYM_HOME, gives it one command, kills it (SIGKILL) after a
random time within the command's usual run, and opens the workspace afresh in this process:

  consult  /consult of a program of 15,000 facts (batch): facts held ∈ {0, 15,000}
  load     /load of a text of 6,000 paragraphs (batch): document chunks ∈ {0, all}
  tell     /tell --from a file of 3,000 sentences the grammar reads (batch, no model): facts ∈ {0, 3,000}
  save     3,000 queries, then /save --script out.sym (batch): out.sym absent or every input in it
  writer   /consult of 2,000 facts in an interactive child (--plain), whose background writer is
           embedding them into Chroma when the kill lands: facts ∈ {0, 2,000}; then the reopened
           workspace embeds what was pending and /search finds a fact (or names `sym repair`, one
           line, and works after it)

"all" and "none" are the two allowed outcomes; anything between, a workspace that does not open,
or a search that neither works nor names the repair is a violation. A run that finished before
the kill counts as "all" when it holds everything (it is reported as finished). The exit status
is 1 when any trial violates.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(ROOT))

KINDS = ("consult", "load", "tell", "save", "writer")
SIZES = {"consult": 15_000, "load": 6_000, "tell": 3_000, "save": 3_000, "writer": 2_000}
SMALL = {"consult": 2_000, "load": 800, "tell": 300, "save": 300, "writer": 300}


def sym_exe() -> list[str]:
    exe = shutil.which("sym", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if exe is None:
        raise SystemExit("the sym console script is not installed; run: pip install -e '.[dev]'")
    return [exe]


def inputs(folder: Path, sizes: dict[str, int]) -> dict[str, str]:
    """The files each kind reads, and the command text each kind types."""
    (folder / "facts.pl").write_text("".join(f"edge(n{i}, n{i + 1}).\n" for i in range(sizes["consult"])))
    (folder / "few.pl").write_text("".join(f"link(m{i}, m{i + 1}).\n" for i in range(sizes["writer"])))
    (folder / "text.txt").write_text("".join(f"Paragraph {i} tells of the river and the mill by the old bridge.\n\n"
                                             for i in range(sizes["load"])))
    (folder / "tell.txt").write_text("".join(f"Zorb{i} is big.\n" for i in range(sizes["tell"])))
    return {"consult": f"/consult {folder / 'facts.pl'}\n", "load": f"/load {folder / 'text.txt'}\n",
            "tell": f"/tell --from {folder / 'tell.txt'}\n",
            "save": "?- true.\n" * sizes["save"] + f"/save --script {folder / 'out.sym'}\n",
            "writer": f"/consult {folder / 'few.pl'}\n"}


def start(kind: str, workspace: str, text: str) -> subprocess.Popen:
    argv = ["--plain"] if kind == "writer" else ["--batch", "-"]
    proc = subprocess.Popen([*sym_exe(), "--memory", workspace, *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdin is not None
    proc.stdin.write(text)
    proc.stdin.flush()
    if kind != "writer":          # the interactive child keeps its input open: it idles, writing Chroma
        proc.stdin.close()
    return proc


def held(kind: str, workspace: str, folder: Path) -> tuple[int, str]:
    """(what the reopened workspace or the written file holds, a note) — raises if it does not open."""
    from sym.repl.dispatcher import MemoryOptions, open_shell

    if kind == "save":
        out = folder / "out.sym"
        return (len(out.read_text().splitlines()) if out.exists() else 0), ""
    shell = open_shell(MemoryOptions(workspace, background=kind == "writer"), record=False)
    try:
        counts = shell.memory.counts()
        if kind == "load":
            return shell.memory.store.count("docs"), ""
        facts = counts["fact"]
        if kind != "writer" or not facts:
            return facts, ""
        store = shell.memory.store
        if store.wait(120) != 0:
            return facts, "backlog left"
        found = shell.execute("/search link --k 1")[1]
        if found.ok and any("link(" in h.text for h in found.hits):
            return facts, "searched"
        return facts, f"search failed: {getattr(found, 'message', found)!r}"[:80]
    finally:
        shell.close()


def repaired(workspace: str, note: str) -> str:
    """A search that failed must name `sym repair WORKSPACE`, and work after it."""
    if not note.startswith("search failed") or f"sym repair {workspace}" not in note:
        return note
    fixed = subprocess.run([*sym_exe(), "repair", workspace], capture_output=True, text=True, timeout=300)
    return "repaired" if fixed.returncode == 0 else f"repair failed: {fixed.stderr.strip()[:60]}"


def reference(kind: str, text: str, folder: Path) -> tuple[int, float]:
    """What one uninterrupted run leaves, and how long it takes (the window kills are drawn from)."""
    started = time.monotonic()
    proc = start(kind, f"ref-{kind}", text)
    if kind == "writer":
        assert proc.stdin is not None
        proc.stdin.close()
    proc.wait(timeout=600)
    seconds = time.monotonic() - started
    full, _ = held(kind, f"ref-{kind}", folder)
    if kind == "save":
        (folder / "out.sym").unlink()
    return full, seconds


def run(kinds: list[str], trials: int, sizes: dict[str, int], seed: int) -> tuple[list[list[str]], int]:
    folder = Path(os.environ["SYM_HOME"]).parent / "files"
    folder.mkdir()
    texts = inputs(folder, sizes)
    rng = random.Random(seed)
    rows, violations = [], 0
    for kind in kinds:
        full, seconds = reference(kind, texts[kind], folder)
        window = (0.3, max(0.6, seconds * (1.5 if kind == "writer" else 1.25)))   # some runs finish: "all" too
        tally = {"all": 0, "none": 0, "finished": 0, "bad": 0}
        notes: list[str] = []
        for n in range(trials):
            workspace = f"{kind}{n}"
            (folder / "out.sym").unlink(missing_ok=True)
            proc = start(kind, workspace, texts[kind])
            try:
                proc.wait(timeout=rng.uniform(*window))
                tally["finished"] += 1
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
            try:
                count, note = held(kind, workspace, folder)
                note = repaired(workspace, note)
            except Exception as err:  # noqa: BLE001 — a workspace that does not open is what is counted
                count, note = -1, f"does not open: {type(err).__name__}: {err}"[:80]
            ok = count in (0, full) and (kind != "writer" or count == 0 or note in ("searched", "repaired"))
            if ok:
                tally["all" if count == full else "none"] += 1
            else:
                tally["bad"] += 1
                notes.append(f"trial {n}: {count} of {full} {note}".strip())
            if note == "repaired":
                notes.append(f"trial {n}: search named sym repair, and worked after it")
        violations += tally["bad"]
        rows.append([kind, str(trials), f"{full:,}", f"{seconds:.1f} s", str(tally["all"]), str(tally["none"]),
                     str(tally["finished"]), str(tally["bad"]), "; ".join(notes)[:120]])
        print(f"  {kind} done", file=sys.stderr, flush=True)
    return rows, violations


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    fmt = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"  # noqa: E731
    return "\n".join([fmt(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [fmt(r) for r in rows])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--only", default="", help="comma-separated kinds: " + ",".join(KINDS))
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--small", action="store_true", help="small inputs, 1 trial each (what the test suite runs)")
    args = ap.parse_args()
    kinds = [k for k in (args.only.split(",") if args.only else KINDS) if k in KINDS]
    trials = 1 if args.small and args.trials == 20 else args.trials
    top = Path(tempfile.mkdtemp(prefix="sym-crash-bench-"))
    os.environ["SYM_HOME"] = str(top / "home")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    started = time.perf_counter()
    try:
        rows, violations = run(kinds, trials, SMALL if args.small else SIZES, args.seed)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print(f"kill -9 at a random moment, then reopen ({os.cpu_count()} CPUs, seed {args.seed})")
    print(table(["command", "trials", "full run holds", "full run takes", "all", "none", "finished first",
                 "violations", "notes"], rows))
    print(f"{sum(int(r[1]) for r in rows)} trials in {time.perf_counter() - started:.0f} s: {violations} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
