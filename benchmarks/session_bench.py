"""How fast `sym replay --verify` re-runs a long recorded session, and that it finds it equal.

Run:   .venv/bin/python benchmarks/session_bench.py [--commands 10000] [--seed N] [--keep DIR]
Not a test. It generates a realistic session (fixed seed): many small families of facts
(parent_of, person, age, likes), kinship rules introduced along the way (recursive, with
negation and comparisons), queries, /why of what holds, /forget of facts stored earlier and
an occasional /show. It records it by running the script through the installed `sym --batch`
under a temporary SYM_HOME, then times `sym replay FILE --verify` (a fresh process; the time
includes its start-up, and sym's own "replayed N commands in S s" is reported too). The
replay must say "equal" or the script exits 1. Everything is deleted afterwards unless --keep.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYM = Path(sys.executable).with_name("sym")

RULES = [
    "grandparent_of(G, C) :- parent_of(G, P), parent_of(P, C).",
    "ancestor_of(A, D) :- parent_of(A, D).",
    "ancestor_of(A, D) :- parent_of(A, P), ancestor_of(P, D).",
    "sibling_of(X, Y) :- parent_of(P, X), parent_of(P, Y), X \\= Y.",
    "cousin_of(X, Y) :- parent_of(A, X), parent_of(B, Y), sibling_of(A, B).",
    "has_child(X) :- parent_of(X, _).",
    "childless(X) :- person(X), not has_child(X).",
    "older_than(X, Y) :- age(X, A), age(Y, B), A > B, sibling_of(X, Y).",
    "mutual(X, Y) :- likes(X, Y), likes(Y, X).",
    "admires_elder(X, Y) :- likes(X, Y), ancestor_of(Y, X).",
]
# (rule index that must be stored first, query template over one family)
QUERIES = [
    (None, "?- parent_of(X, {b})."),
    (None, "?- parent_of({a}, X)."),
    (None, "?- age({a}, N)."),
    (None, "?- likes({a}, Y), person(Y)."),
    (0, "?- grandparent_of({a}, X)."),
    (1, "?- ancestor_of({a}, X)."),
    (1, "?- ancestor_of(X, {b})."),
    (3, "?- sibling_of({b}, X)."),
    (4, "?- cousin_of({b}, X)."),
    (6, "?- childless(X)."),
    (7, "?- older_than(X, Y)."),
    (8, "?- mutual(X, Y)."),
    (None, "?- person({a}), not parent_of({a}, {b})."),
    (None, "?- age(X, N), N > 60."),
]


class Family:
    """A small family tree (4 generations at most), grown one fact at a time."""

    def __init__(self, fid: int, rng: random.Random):
        self.fid, self.rng = fid, rng
        self.people: list[str] = []
        self.parents: dict[str, str] = {}          # child -> parent
        self.generation: dict[str, int] = {}
        self.stored: list[str] = []                # facts stored and not forgotten

    def newcomer(self) -> list[str]:
        name = f"p{self.fid}_{len(self.people)}"
        facts = [f"person({name}).", f"age({name}, {self.rng.randint(1, 95)})."]
        candidates = [p for p in self.people if self.generation[p] < 3]
        if candidates:
            parent = self.rng.choice(candidates)
            self.parents[name] = parent
            self.generation[name] = self.generation[parent] + 1
            facts.append(f"parent_of({parent}, {name}).")
        else:
            self.generation[name] = 0
        if self.people and self.rng.random() < 0.5:
            facts.append(f"likes({name}, {self.rng.choice(self.people)}).")
        self.people.append(name)
        return facts


def generate(commands: int, seed: int) -> list[str]:
    """The session's inputs, in order."""
    rng = random.Random(seed)
    families: list[Family] = []
    rules_known = 0
    lines: list[str] = ["% a generated session for benchmarks/session_bench.py"]
    pending: list[tuple[Family, str]] = []      # the facts of a newcomer, typed one by one
    count = 0

    def emit(line: str) -> None:
        nonlocal count
        lines.append(line)
        count += 1

    while count < commands:
        roll = rng.random()
        if pending:
            fam, fact = pending.pop(0)
            fam.stored.append(fact)
            emit(fact)
            continue
        if roll < 0.18 or not families:
            if not families or len(families[-1].people) >= rng.randint(6, 14):
                families.append(Family(len(families), rng))
            fam = families[-1] if rng.random() < 0.8 else rng.choice(families)
            pending.extend((fam, fact) for fact in fam.newcomer())
            continue
        if roll < 0.20 and rules_known < len(RULES):
            emit(RULES[rules_known])
            rules_known += 1
            continue
        fam = rng.choice(families)
        if len(fam.people) < 2:
            continue
        a, b = rng.sample(fam.people, 2)
        if roll < 0.68:
            options = [q for need, q in QUERIES if need is None or need < rules_known]
            emit(rng.choice(options).format(a=a, b=b))
        elif roll < 0.80:
            child = rng.choice(list(fam.parents) or [b])
            parent = fam.parents.get(child)
            if parent and rules_known >= 2:
                emit(f"/why ancestor_of({parent}, {child})")
            else:
                emit(f"/why person({child})")
        elif roll < 0.94:
            forgettable = [f for f in fam.stored if f.startswith(("likes(", "age("))]
            if forgettable:
                fact = rng.choice(forgettable)
                fam.stored.remove(fact)
                emit(f"/forget {fact[:-1]}")
                # what was forgotten may come back later, as users do
                if rng.random() < 0.3:
                    fam.stored.append(fact)
                    emit(fact)
        elif roll < 0.95:
            emit("/show")
        else:
            emit(f"?- person({a}).")
    return lines


def run(args: list[str], home: Path, **kwargs) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "SYM_HOME": str(home), "ANONYMIZED_TELEMETRY": "False"}
    started = time.perf_counter()
    proc = subprocess.run([str(SYM), *args], env=env, capture_output=True, text=True, **kwargs)
    return proc, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--keep", type=Path, help="keep the script and the session log in this directory")
    opts = parser.parse_args()
    if not SYM.exists():
        print(f"no sym console script next to {sys.executable}; pip install -e . first", file=sys.stderr)
        return 2

    lines = generate(opts.commands, opts.seed)
    work = Path(tempfile.mkdtemp(prefix="sym-session-bench-"))
    try:
        script = work / "session.sym"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        home = work / "home"
        home.mkdir()
        proc, record_s = run(["--batch", str(script), "--json"], home)
        if proc.returncode not in (0, 1):
            print(proc.stderr[-2000:], file=sys.stderr)
            return 1
        (log,) = (home / "sessions").glob("*.jsonl")
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        inputs = [e for e in events if e["t"] == "input"]
        outputs = [e["result"] for e in events if e["t"] == "output"]
        kinds = Counter("fact/rule" if o["command"] == "/assert" else o["command"] for o in outputs)
        failed = sum(not o["ok"] for o in outputs)

        replay_home = work / "replay-home"
        replay_home.mkdir()
        proc, replay_s = run(["replay", str(log), "--verify"], replay_home)
        summary = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
        match = re.search(r"replayed (\d+) commands in ([\d.]+) s: (.*)", summary)
        print(f"session: {len(inputs)} commands, {log.stat().st_size / 1e6:.1f} MB log "
              f"({', '.join(f'{k} {v}' for k, v in kinds.most_common())}; {failed} failed as recorded)")
        print(f"record (sym --batch):         {record_s:8.2f} s   {len(inputs) / record_s:8.1f} commands/s")
        if not match or proc.returncode != 0:
            print(f"replay --verify did not find it equal (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
            return 1
        commands, seconds, verdict = int(match.group(1)), float(match.group(2)), match.group(3)
        print(f"replay --verify (process):    {replay_s:8.2f} s   {commands / replay_s:8.1f} commands/s")
        print(f"replay --verify (sym's own):  {seconds:8.2f} s   {commands / seconds:8.1f} commands/s   {verdict}")
        assert commands == len(inputs) and verdict == "equal"
        if opts.keep:
            opts.keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(script, opts.keep / script.name)
            shutil.copy(log, opts.keep / "session.jsonl")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
