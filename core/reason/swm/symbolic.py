"""The no-LLM path for dataset problems: controlled-English fast path + the logic engine.

ProofWriter: facts and rules → open-world truth of the question. CLUTRR: the NL rules over
the gold chain facts → the derived relation. Boxes: state and operations applied in order
to a fact set → the box's contents. A sentence the fast path does not know raises
`Untranslated`; this room never calls a model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_atom, parse_program, parse_query
from sym.core.logic.terms import Atom, Var
from sym.core.reason.swm.datasets import Problem
from sym.core.reason.swm.english import Translation, Update, question_goal, relation_answer, translate

if TYPE_CHECKING:
    from collections.abc import Callable

    from sym.core.reason.swm.english.questions import Goal


class Untranslated(UserError):
    """A sentence outside the controlled-English fast path."""

    def __init__(self, sentence: str) -> None:
        super().__init__(f"not a fast-path sentence: {sentence!r}", hint="the LLM path handles free text")
        self.sentence = sentence


def _translation(sentence: str) -> Translation:
    tr = translate(sentence)
    if tr is None:
        raise Untranslated(sentence)
    return tr


def _clauses(translations: list[Translation]) -> list[Any]:
    return [loc.clause for tr in translations for text in tr.clauses for loc in parse_program(text)]


def apply_update(engine: Engine, update: Update) -> None:
    """For each binding of `update.match` over the engine's model, remove then add (at once)."""
    bindings: list[dict[Var, object]] = [{}]
    if update.match.strip():
        query = parse_query(update.match)
        bindings = engine.solve(query)

    def ground(text: str, binding: dict[Var, object]) -> Atom:
        atom = parse_atom(text)
        return Atom(atom.pred, tuple(binding.get(a, a) if isinstance(a, Var) else a for a in atom.args), atom.neg)
    doomed = [ground(t, b) for b in bindings for t in update.remove]
    fresh = [ground(t, b) for b in bindings for t in update.add]
    for atom in doomed:
        engine.remove_fact(atom)
    engine.add_facts(fresh)


def support(engine: Engine) -> Callable[[Atom], int]:
    """rank(atom) = how many distinct given facts the atom's first derivation rests on."""
    memo: dict[Atom, frozenset[Any]] = {}

    def leaves(atom: Atom) -> frozenset[Any]:
        if atom not in memo:
            memo[atom] = frozenset()  # guards against a cycle while this one is computed
            proof = engine.provenance(atom)
            if proof is None:
                memo[atom] = frozenset([atom])
            else:
                memo[atom] = frozenset().union(*(leaves(p) for p in proof.premises if isinstance(p, Atom)))
        return memo[atom]

    return lambda atom: len(leaves(atom))


def tell(engine: Engine, sentences: list[str]) -> None:
    """Translate and apply sentences in order: updates first, then clauses (as /tell does)."""
    for sentence in sentences:
        tr = _translation(sentence)
        for update in tr.updates:
            apply_update(engine, update)
        if tr.clauses:
            engine.add_program(_clauses([tr]))


def _goal(question: str) -> Goal:
    goal = question_goal(question)
    if goal is None:
        raise Untranslated(question)
    return goal


def solve(problem: Problem) -> str:
    """The answer text for one problem, by the fast path and the engine alone."""
    engine = Engine()
    if problem.dataset == "proofwriter":
        tell(engine, list(problem.context_sentences) + list(problem.rules))
        goal = _goal(problem.question)
        engine.infer()
        return goal.render(engine.truth(parse_atom(goal.query), open_world=True))
    if problem.dataset == "clutrr":
        tell(engine, list(problem.gold_facts) + list(problem.rules))
        goal = _goal(problem.question)
        engine.infer()
        return relation_answer(engine.facts(), goal, rank=support(engine)) or ""
    if problem.dataset == "boxes":
        tell(engine, list(problem.context_sentences))
        goal = _goal(problem.question)
        return goal.render(engine.solve(parse_query(goal.query)))
    raise UserError(f"{problem.dataset} has no symbolic fast path", hint="it needs the LLM reasoner")
