"""How long /check takes on a large working memory, against the engine's own inference.

Run:   python benchmarks/check_bench.py [--sizes 7500,100000] [--before]
Not a test. An in-process Shell (memory in the process, no Chroma) is filled with a
generated family memory of N items: people in a tree of fan-out 3 with person/1,
parent_of/2 and age/2 facts, and rules and constraints over them (grandparent_of, sibling_of,
adult / ~adult by age, has_parent and orphan through `not`, "a parent is older than a child",
"no one is their own parent"). Three cases per size, each from a cold model (derived facts
forgotten first, as after any change to memory):

  consistent     the memory as generated
  inconsistent   plus parent_of(p5, p1) (a cycle that breaks the age constraint) and
                 ~adult(p0) (a clash with adult(p0), derived from p0's age)
  ~ model        plus `lonely(X) :- ~adult(X), person(X).`, a rule with a ~ premise over the
                 whole memory, which the engine's model satisfies classically (no Z3)
  ~ z3 part      plus `calm(X) :- ~loud(X), pet(X).` and `:- calm(p3).` with 50 pets: the
                 model does not satisfy it, so its part (52 items) goes to Z3
  before         (--before, sizes <= 10,000) the whole memory as one Z3 theory, as /check
                 did before the engine decided it (Z3 limit --before-timeout, 120 s)

Anchors, measured in the same run: `python -c pass` in a fresh process, and the engine's
`infer()` of the same memory on a fresh Engine. Printed: seconds, and /check over each anchor,
and a verdict against the goals of issue #17: 7.5k items <= 1 s, 100k items <= 10 s.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(ROOT))

GOALS = {7500: 1.0, 100_000: 10.0}
RULES = """
grandparent_of(X, Z) :- parent_of(X, Y), parent_of(Y, Z).
sibling_of(X, Y) :- parent_of(P, X), parent_of(P, Y), X \\= Y.
adult(X) :- age(X, A), A >= 50.
~adult(X) :- age(X, A), A < 50.
has_parent(Y) :- parent_of(_, Y).
orphan(X) :- person(X), not has_parent(X).
:- parent_of(X, Y), age(X, A), age(Y, B), A =< B.
:- parent_of(X, X).
"""


def family(n_items: int) -> str:
    """About n_items facts and rules: 3 facts per person plus the rules above."""
    people = max(2, (n_items - len(RULES.strip().splitlines())) // 3)
    depth = [0] * people
    lines = []
    for i in range(people):
        if i:
            depth[i] = depth[(i - 1) // 3] + 1
            lines.append(f"parent_of(p{(i - 1) // 3}, p{i}).")
        else:
            lines.append("age_root(p0).")   # keeps the count at 3 per person
        lines.append(f"person(p{i}).")
        lines.append(f"age(p{i}, {190 - 15 * depth[i] + i % 5}).")
    return "\n".join(lines) + RULES


def build(text: str):
    from sym.core.logic.parser import parse_program
    from sym.repl.dispatcher import Shell

    shell = Shell(plugins=False)
    clauses = [(loc.clause, "bench") for loc in parse_program(text)]
    shell.memory.add(clauses, merge="off")
    return shell


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def check(shell) -> tuple[float, dict]:
    shell.memory.forget_derived()
    seconds, (_, result) = timed(lambda: shell.execute("/check"))
    if not result.ok:
        raise SystemExit(f"/check failed: {result.message}")
    return seconds, result.to_dict()


def infer_anchor(shell) -> float:
    from sym.core.logic.engine import Engine

    engine = Engine()
    items = [it for it in shell.memory.items.values() if not it.soft]
    engine.add_facts(it.clause for it in items if it.kind == "fact")
    engine.add_rules({it.id: it.clause for it in items if it.kind != "fact"})
    return timed(engine.infer)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="7500,100000", help="comma-separated item counts")
    parser.add_argument("--before", action="store_true", help="also the whole-memory Z3 check, up to 10k items")
    parser.add_argument("--before-timeout", type=int, default=120, help="Z3's limit for --before, seconds")
    args = parser.parse_args()
    import os

    os.environ.setdefault("SYM_HOME", tempfile.mkdtemp(prefix="sym-check-bench-"))
    python_pass = min(timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True))[0]
                      for _ in range(3))
    print(f"anchor: python -c pass {python_pass:.3f} s")
    build("p(a).\n:- p(b).\n").execute("/check")     # warm-up: first-use imports are not /check's cost
    for n in (int(s) for s in args.sizes.split(",")):
        base = family(n)
        cases = [("consistent", base), ("inconsistent", base + "\nparent_of(p5, p1).\n~adult(p0).\n")]
        cases.append(("~ model", base + "\nlonely(X) :- ~adult(X), person(X).\n"))
        pets = "".join(f"pet(p{i}).\n" for i in range(50))
        cases.append(("~ z3 part", base + "\ncalm(X) :- ~loud(X), pet(X).\n:- calm(p3).\n" + pets))
        for name, text in cases:
            load, shell = timed(lambda: build(text))
            infer = infer_anchor(shell)
            seconds, out = check(shell)
            items = len(shell.memory.items)
            goal = GOALS.get(n)
            verdict = "" if goal is None else (" OK" if seconds <= goal else " MISS")
            print(f"{items:>7} items  {name:<13} /check {seconds:7.3f} s  infer {infer:6.3f} s  "
                  f"/check÷infer {seconds / infer:5.2f}  /check÷(python -c pass) {seconds / python_pass:6.1f}  "
                  f"load {load:5.1f} s  consistent={out['consistent']} method={out['method']} "
                  f"core={len(out['core'])} minimal={out.get('minimal')} z3_items={out['z3_items']}"
                  + (f"  goal <= {goal:g} s{verdict}" if verdict else ""))
        if args.before and n <= 10_000:
            from sym.core.errors import TimedOut
            from sym.core.reason.pot.check_memory import check_classical
            from sym.core.stop import Stop

            shell = build(base)
            items = [it for it in shell.memory.items.values() if not it.soft]
            started = time.perf_counter()
            try:
                out = check_classical(items, stop=Stop(proof_timeout=args.before_timeout)).consistent
            except TimedOut:
                out = f"undecided: Z3 ran past {args.before_timeout} s"
            seconds = time.perf_counter() - started
            print(f"{len(items):>7} items  {'before':<13} Z3    {seconds:7.3f} s  consistent={out}  "
                  f"(the whole memory as one Z3 theory)")


if __name__ == "__main__":
    main()
