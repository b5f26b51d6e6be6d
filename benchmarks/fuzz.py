"""Fuzz every parser a user, a file or a model can reach, and count uncaught exceptions.

Not part of the test run (tests/ has hypothesis fuzzing at CI-sized counts). Usage, from the
repository root:

    python benchmarks/fuzz.py                      # 10^5 inputs per parser
    python benchmarks/fuzz.py --count 1000 --only logic,math

Inputs are random: mutations of valid seeds (characters inserted, deleted, replaced, slices
duplicated, brackets nested deep) and random strings over each parser's own alphabet, from a
fixed seed. A `UserError` is the expected answer to bad input (for extract_json also its
documented BadJSON); anything else is counted as uncaught, and the first few are printed with their input. An input that runs past
--slow seconds is stopped (SIGALRM) and counted as slow. Prints one row per parser:
inputs, uncaught, slow, and the time taken.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sym.core.errors import UserError  # noqa: E402

LOGIC_SEEDS = [
    "father_of(joshua, don).", "'bald eagle'(x).", "sister_of(C, A) :- father_of(B, A), daughter_of(C, B).",
    "~green(gary).", "quiet(X) :- big(X), not red(X).", "taller(X, Y) :- height(X, H1), height(Y, H2), H1 > H2.",
    ":- wife_of(X, Y), husband_of(X, Y).", "?- sister_of(X, louis).", "p(1). p(1.0). p(-3). p(\"s\").",
    "false :- p(X), q(X).", "% comment\np(a).\n", "a :- b, c.\nb.\nc.\n",
]
LOGIC_ALPHABET = list("abcXYZ_(),.:-~?!'\"%\\=<> \n\t0123456789") + ["not ", ":-", "?-", "\\=", "=<", ">=", "\u3000", "\ud800"]

DSL_SEEDS = [
    "ForAll([p], Implies(Worker(p), Wearing(p, hardHat)))", "Sum([p], jump(p)) > 1", "And(likes(ann, rex), x)",
    "Exists([{'name': 'q', 'sort': 'Person'}], likes(q, rex))", "height(rex) * 2 + 3.5 >= -1 % 4",
    "If(a, b, c) == Distinct(x, y, z)", "Not(Or(p, Xor(q, r)))",
]
DSL_ALPHABET = list("abcpqxyz_()[]{},.'\":+-*/%=!<> 0123456789") + ["ForAll(", "Exists(", "Sum(", "And(", "==", "<="]

MATH_SEEDS = [
    "sin(x)^2 + cos(x)^2", "(x + 1)**2", "x**2 - 1", "x**2 = 4", "x^3 wrt x", "2x", "a*x + b*x + c wrt x",
    "integrate(x, x, 0, 1)", "diff(sin(x), x, 2)", "binomial(10, 3)", "factorial(20)", "0.5*x + x/2",
]
MATH_ALPHABET = list("xyzab0123456789.+-*/^()=, ") + ["**", "sin(", "log(", "sqrt(", "wrt ", "pi", "oo", "E"]

JSON_SEEDS = [
    '{"a": 1}', 'Here it is: ```json\n{"facts": ["p(a)."], "rules": []}\n```', '[1, 2, {"b": [3, 4]}]',
    '{"a": "x```{}```y"}', 'text {"a": [1, 2,], } more', "{'a': 1}", '{"nested": {"deep": {"x": null}}}',
]
JSON_ALPHABET = list('{}[]":,`\'\\ abc123.-\n') + ["```json", "null", "true", "\\u00"]

POLICY_SEEDS = [
    "rules:\n  - name: fast\n    target: llm\n    filter: {command: /ask}\n    attributes: {model: qwen2.5:7b, temperature: 0}\n",
    "rules:\n  - name: deep\n    target: reasoner\n    filter: {goal_type: math}\n    attributes: {max_steps: 5}\n",
    "rules: []\n", "goal_types:\n  math: [solve, factor]\n",
]
POLICY_ALPHABET = list("abc:-{}[], \n'\"!&*|>#0123456789.") + ["!!float ", "!!timestamp ", "&a ", "*a", "rules:", "  - "]

ENGLISH_SEEDS = [
    "Bob is big.", "Joshua is the father of Don.", "All big things are not green.",
    "If something is kind and smart then it is nice.",
    "If B is the father of A, and C is the daughter of B, then C is the sister of A.",
    "The cat chases the dog.", "Gary is not green.",
]
ENGLISH_ALPHABET = list("abcdefghijklmnopqrstuvwxyzABC ,.'-") + ["is ", "the ", "of ", "If ", "then ", "not ", "All "]


def _session_seeds() -> list[str]:
    from sym.sessions.log import SessionLog

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.jsonl"
        log = SessionLog(path, workspace="default", settings={"world": "closed"})
        log.write("input", text="/fact p(a).", source="typed")
        log.write("output", command="/fact", result={"kind": "added", "items": 1})
        close = getattr(log, "close", None)
        if close is not None:
            close()
        text = path.read_text(encoding="utf-8")
    return [text, text.splitlines()[0] + "\n", text + '{"type": "input", "text": 1}\n']


SESSION_ALPHABET = list('{}[]":, abc123\n') + ['"type"', '"header"', '"input"', '"version"', "99999999999"]


def mutate(seed: str, alphabet: list[str], rng: random.Random) -> str:
    """One random edit or a few: insert, delete, replace, duplicate a slice, nest deeply."""
    text = seed
    for _ in range(rng.randint(1, 4)):
        pick = rng.random()
        i = rng.randint(0, len(text))
        if pick < 0.3:
            text = text[:i] + rng.choice(alphabet) + text[i:]
        elif pick < 0.5 and text:
            j = min(len(text), i + rng.randint(1, 5))
            text = text[:i] + text[j:]
        elif pick < 0.7 and text:
            text = text[:i] + rng.choice(alphabet) + text[i + 1:]
        elif pick < 0.85 and text:
            j = min(len(text), i + rng.randint(1, 20))
            text = text[:i] + text[i:j] * rng.randint(2, 50) + text[j:]
        elif pick < 0.92:
            depth = rng.choice([10, 100, 1000])
            text = text[:i] + "(" * depth + text[i:] + ")" * rng.choice([0, depth])
        else:
            text = text[:i] + rng.choice(["", "\0", "\ud800", "9" * 5000, "\u3000", "\r\n"]) + text[i:]
    return text


def noise(alphabet: list[str], rng: random.Random) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))


def _targets(scratch: Path) -> dict[str, tuple[Callable[[str], object], list[str], list[str], tuple]]:
    """name -> (function of one input, seeds, alphabet, the exceptions that are its documented answers)."""
    from sym.core.llm.jsonout import BadJSON, extract_json
    from sym.core.logic.parser import parse_program
    from sym.core.reason.math import parse_math
    from sym.core.reason.policy.rules import parse_policies
    from sym.core.reason.pot.expr import parse_expr
    from sym.sessions.log import read_session

    session_file = scratch / "fuzz.jsonl"

    def session(text: str):
        session_file.write_bytes(text.encode("utf-8", "surrogatepass"))
        return read_session(session_file)

    user = (UserError,)
    targets = {
        "logic": (parse_program, LOGIC_SEEDS, LOGIC_ALPHABET, user),
        "dsl": (lambda t: parse_expr(t, "fuzz"), DSL_SEEDS, DSL_ALPHABET, user),
        "math": (parse_math, MATH_SEEDS, MATH_ALPHABET, user),
        "json": (extract_json, JSON_SEEDS, JSON_ALPHABET, (UserError, BadJSON)),   # BadJSON feeds the repair round
        "session": (session, _session_seeds(), SESSION_ALPHABET, user),
        "policies": (parse_policies, POLICY_SEEDS, POLICY_ALPHABET, user),
    }
    try:
        from sym.core.reason.swm.english import translate

        targets["english"] = (translate, ENGLISH_SEEDS, ENGLISH_ALPHABET, user)
    except ImportError:
        pass
    return targets


class _Slow(Exception):
    pass


def _alarm(_signum, _frame):
    raise _Slow()


def fuzz(name: str, fn: Callable[[str], object], seeds: list[str], alphabet: list[str], expected: tuple,
         count: int, rng: random.Random, slow_s: float, show: int) -> tuple[int, int, int, float]:
    uncaught = slow = 0
    started = time.perf_counter()
    for _ in range(count):
        text = mutate(rng.choice(seeds), alphabet, rng) if rng.random() < 0.8 else noise(alphabet, rng)
        signal.setitimer(signal.ITIMER_REAL, slow_s)
        try:
            fn(text)
        except expected:
            pass
        except _Slow:
            slow += 1
            if slow <= show:
                print(f"  {name}: slow (> {slow_s:g} s) on {text[:120]!r}", file=sys.stderr)
        except Exception as err:  # noqa: BLE001 - counting these is the point
            uncaught += 1
            if uncaught <= show:
                print(f"  {name}: {type(err).__name__}: {str(err)[:100]} on {text[:120]!r}", file=sys.stderr)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return count, uncaught, slow, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000, help="inputs per parser (default 10^5)")
    parser.add_argument("--only", default="", help="comma-separated parsers: logic,dsl,math,json,session,policies,english")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--slow", type=float, default=5.0, help="seconds after which one input counts as slow")
    parser.add_argument("--show", type=int, default=3, help="uncaught examples printed per parser")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("SYM_HOME", tmp)
        targets = _targets(Path(tmp))
        wanted = [w for w in args.only.split(",") if w] or list(targets)
        unknown = [w for w in wanted if w not in targets]
        if unknown:
            parser.error(f"unknown parser(s): {', '.join(unknown)}; known: {', '.join(targets)}")
        print(f"{'parser':<10} {'inputs':>8} {'uncaught':>9} {'slow':>5} {'seconds':>8}")
        total_bad = 0
        for name in wanted:
            fn, seeds, alphabet, expected = targets[name]
            rng = random.Random(f"{args.seed}:{name}")
            count, uncaught, slow, seconds = fuzz(name, fn, seeds, alphabet, expected, args.count, rng,
                                                  args.slow, args.show)
            total_bad += uncaught + slow
            print(f"{name:<10} {count:>8} {uncaught:>9} {slow:>5} {seconds:>8.1f}", flush=True)
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
