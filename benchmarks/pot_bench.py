"""Interpreter overhead: the same example programs checked by sym's DSL interpreter and by
hand-built z3 (same formulas, same two checks per verification), in the same run.

    python benchmarks/pot_bench.py [--repeat N]

Prints per program the median seconds of each and the ratio (target ≤ 1.1).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import z3  # noqa: E402

from sym.core.reason.pot.interpret import run  # noqa: E402
from sym.core.reason.pot.schema import load_program  # noqa: E402
from sym.core.stop import Stop  # noqa: E402


def verdicts(s, claims):
    out = []
    for v in claims:
        s.push()
        s.add(z3.Not(v))
        neg = s.check()
        s.pop()
        s.push()
        s.add(v)
        pos = s.check()
        s.pop()
        out.append("proved" if neg == z3.unsat else "refuted" if pos == z3.unsat else "unknown")
    return out


def hand_height():
    ctx = z3.Context()
    Person, Animal = z3.DeclareSort("Person", ctx), z3.DeclareSort("Animal", ctx)
    jump = z3.Function("jump_height", Person, z3.RealSort(ctx))
    height = z3.Function("height", Animal, z3.RealSort(ctx))
    js, g = z3.Const("javier_sotomayor", Person), z3.Const("average_giraffe", Animal)
    s = z3.Solver(ctx=ctx)
    s.add(jump(js) == z3.RealVal("2.45", ctx), height(g) == z3.RealVal("5.5", ctx))
    s.check()
    return verdicts(s, [jump(js) >= height(g)])


def hand_hardhat():
    ctx = z3.Context()
    P, G = z3.DeclareSort("Person", ctx), z3.DeclareSort("Gear", ctx)
    worker = z3.Function("Worker", P, z3.BoolSort(ctx))
    wearing = z3.Function("Wearing", P, G, z3.BoolSort(ctx))
    alice, bob, carol = (z3.Const(n, P) for n in ("alice", "bob", "carol"))
    hat = z3.Const("hardHat", G)
    p = z3.Const("p", P)
    s = z3.Solver(ctx=ctx)
    s.add(worker(alice), worker(bob), worker(carol), wearing(alice, hat), wearing(bob, hat),
          z3.Not(wearing(carol, hat)))
    s.check()
    return verdicts(s, [z3.ForAll([p], z3.Implies(worker(p), wearing(p, hat)))])


def hand_einstein():
    ctx = z3.Context()
    kinds = {"nat": ["brit", "swede", "dane", "norwegian", "german"], "col": ["red", "green", "white", "yellow", "blue"],
             "pet": ["dog", "bird", "cat", "horse", "fish"], "drink": ["tea", "coffee", "milk", "beer", "water"],
             "smoke": ["pall_mall", "dunhill", "blends", "bluemaster", "prince"]}
    sorts = {"nat": "Nationality", "col": "Color", "pet": "Pet", "drink": "Drink", "smoke": "Smoke"}
    f, v = {}, {}
    s = z3.Solver(ctx=ctx)
    for k, names in kinds.items():
        sort, values = z3.EnumSort(sorts[k], names, ctx=ctx)
        f[k] = z3.Function(k, sort, z3.IntSort(ctx))
        v.update(zip(names, values))
        x = z3.Const("x", sort)
        s.add(z3.ForAll([x], z3.And(f[k](x) >= 1, f[k](x) <= 5)))
        s.add(z3.Distinct(*[f[k](v[n]) for n in names]))
    nat, col, pet, drink, smoke = (lambda n, k=k: f[k](v[n]) for k in kinds)
    nxt = lambda a, b: z3.Or(a - b == 1, b - a == 1)  # noqa: E731
    s.add(nat("brit") == col("red"), nat("swede") == pet("dog"), nat("dane") == drink("tea"),
          col("green") + 1 == col("white"), col("green") == drink("coffee"), smoke("pall_mall") == pet("bird"),
          col("yellow") == smoke("dunhill"), drink("milk") == 3, nat("norwegian") == 1,
          nxt(smoke("blends"), pet("cat")), nxt(pet("horse"), smoke("dunhill")),
          smoke("bluemaster") == drink("beer"), nat("german") == smoke("prince"),
          nxt(nat("norwegian"), col("blue")), nxt(smoke("blends"), drink("water")))
    s.check()
    n = z3.Const("n", v["german"].sort())
    return verdicts(s, [nat("german") == pet("fish"), z3.Exists([n], f["nat"](n) == pet("fish"))])


def hand_sons():
    ctx = z3.Context()
    P = z3.DeclareSort("Person", ctx)
    father = z3.Function("father_of", P, P)
    brother = z3.Function("brother", P, P, z3.BoolSort(ctx))
    bob, john, jay = (z3.Const(n, P) for n in ("bob", "john", "jay"))
    x, y, b = (z3.Const(n, P) for n in "xyb")
    s = z3.Solver(ctx=ctx)
    s.add(z3.Distinct(bob, john, jay), father(john) == bob, father(jay) == bob,
          z3.ForAll([x], z3.Implies(father(x) == bob, z3.Or(x == john, x == jay))),
          z3.Exists([b], z3.And(brother(jay, b), z3.ForAll([y], z3.Implies(brother(jay, y), y == b)))),
          z3.ForAll([x, y], brother(x, y) == z3.And(x != y, father(x) == father(y))))
    s.check()
    return verdicts(s, [z3.ForAll([y], z3.Implies(brother(jay, y), y == john)), z3.Exists([y], brother(jay, y))])


HAND = {"height": hand_height, "hardhat": hand_hardhat, "einstein": hand_einstein, "sons": hand_sons}


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    print(f"{'program':<10} {'hand z3 s':>10} {'sym s':>10} {'ratio':>7}   verdicts")
    total_hand = total_sym = 0.0
    for name, hand in HAND.items():
        text = (ROOT / "examples" / f"{name}.json").read_text()
        sym = lambda: run(load_program(text), stop=Stop(proof_timeout=60))  # noqa: E731
        ours = [v.status for v in sym().verifications]
        theirs = hand()
        assert ours == theirs, (name, ours, theirs)
        sym()  # warm the grammar cache, as a running shell has
        t_hand, t_sym = timed(hand, args.repeat), timed(sym, args.repeat)
        total_hand, total_sym = total_hand + t_hand, total_sym + t_sym
        print(f"{name:<10} {t_hand:>10.4f} {t_sym:>10.4f} {t_sym / t_hand:>7.2f}   {', '.join(ours)}")
    print(f"{'total':<10} {total_hand:>10.4f} {total_sym:>10.4f} {total_sym / total_hand:>7.2f}   (target ≤ 1.1)")


if __name__ == "__main__":
    main()
