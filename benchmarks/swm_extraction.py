"""Where CLUTRR stories are lost: the facts sym's extraction stored, against the gold chain facts.

    python benchmarks/swm_extraction.py --data DIR [--limit N] [--model M] [--ollama-host URL]

For each story: `/tell` it exactly as `sym bench swm --extract` does (rules first, then the
story's sentences; at temperature 0 the call log answers repeated requests, so running this
after the bench costs no model time), then compare the stored relation facts with the gold
chain edges: recovered, reversed (the right relation with its arguments swapped), wrong
(the pair related, by another relation), missing; and whether the engine then answers.
Prints one row per story and a summary. Not a test.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sym.core.logic.terms import Atom  # noqa: E402
from sym.core.memory.working import WorkingMemory  # noqa: E402
from sym.core.reason.swm import datasets  # noqa: E402
from sym.core.reason.swm.reasoner import SWM  # noqa: E402
from sym.core.run import Run  # noqa: E402
from sym.repl.bench import make_llm  # noqa: E402


def gold_atoms(problem) -> set[Atom]:
    from sym.core.reason.swm.english import translate

    return {Atom(*_parts(c)) for s in problem.gold_facts for c in (translate(s).clauses if translate(s) else [])}


def _parts(clause: str):
    from sym.core.logic.parser import parse_program

    (atom,) = [loc.clause for loc in parse_program(clause)]
    return atom.pred, atom.args


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="swm_extraction.py")
    p.add_argument("--data", required=True)
    p.add_argument("--limit", type=int)
    p.add_argument("--model")
    p.add_argument("--ollama-host")
    p.add_argument("--show", action="store_true", help="print each story's missing and extra facts")
    a = p.parse_args(argv)
    llm = make_llm("on", a.model, a.ollama_host)
    problems = datasets.load(a.data, "clutrr")[: a.limit] if a.limit else datasets.load(a.data, "clutrr")
    total = {"gold": 0, "recovered": 0, "reversed": 0, "wrong": 0, "missing": 0, "extra": 0, "answered": 0,
             "complete": 0}
    print(f"{'item':<28}{'gold':>5}{'ok':>4}{'rev':>5}{'wrong':>6}{'miss':>5}{'extra':>6}  answer")
    for problem in problems:
        memory = WorkingMemory()
        swm = SWM(memory, Run.using(llm, f"bench-{problem.id}"), merge="off")
        story = list(problem.context_sentences)
        try:
            swm.tell(list(problem.rules) + story, partial=True)
            question = problem.question.rsplit(".", 1)[-1].strip() or problem.question
            answer = swm.ask(question, fallback=False).answer
        except Exception as err:  # noqa: BLE001 — a benchmark row, not a user path
            answer = f"error: {err}"
        stored = {it.clause for it in memory.items.values() if it.kind == "fact" and isinstance(it.clause, Atom)}
        gold = gold_atoms(problem)
        pairs = {frozenset(g.args) for g in gold}
        ok = gold & stored
        rev = {g for g in gold - stored if Atom(g.pred, tuple(reversed(g.args))) in stored}
        wrong = {g for g in gold - stored - rev if any(frozenset(s.args) == frozenset(g.args) for s in stored)}
        missing = gold - ok - rev - wrong
        extra = {s for s in stored if s not in gold and frozenset(s.args) not in pairs}
        right = datasets.is_correct(problem, answer)
        for key, value in (("gold", len(gold)), ("recovered", len(ok)), ("reversed", len(rev)), ("wrong", len(wrong)),
                           ("missing", len(missing)), ("extra", len(extra)), ("answered", int(right)),
                           ("complete", int(ok == gold))):
            total[key] += value
        print(f"{problem.id[:27]:<28}{len(gold):>5}{len(ok):>4}{len(rev):>5}{len(wrong):>6}{len(missing):>5}"
              f"{len(extra):>6}  {'right' if right else 'wrong'}: {str(answer)[:40]}")
        if a.show:
            print(f"    story: {' '.join(story)}\n    missing: {sorted(map(str, missing | rev | wrong))}\n"
                  f"    stored: {sorted(map(str, stored))}")
    n = len(problems)
    print(f"\n{n} stories; gold facts {total['gold']}: recovered {total['recovered']}, reversed {total['reversed']}, "
          f"wrong relation {total['wrong']}, missing {total['missing']}; extra facts {total['extra']}; "
          f"stories with every gold fact {total['complete']}/{n}; answered right {total['answered']}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
