"""Answers to quantified questions in the open world, soundly (docs/english.md, "Questions"):
"Is every cat black?" is **true** only when memory entails it — checked on a scratch copy of the
engine, where a fresh individual that appears nowhere is assumed to be a cat and is derived to be
black; **false** when a known cat is known not to be black (its strong negation, or a constraint
that black would break); otherwise **unknown**, saying what is known. "Is any cat black?" is true
with a witness, **false** only when memory entails that no cat is (a fresh cat is derived not to
be), else unknown. Memory and its engine are never changed: every assumption lives in the copy.

A derivation of the fresh cat that reads negation as failure or an aggregate entails nothing (what
is not known of a new cat may be known of a real one), so it is no "true".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from sym.core.logic.engine import FALSE, TRUE, UNKNOWN, Engine
from sym.core.logic.provenance import AGGREGATED, BUILTIN, NEGATION, ProofNode, proof_tree
from sym.core.logic.terms import Atom, Compare, Query, Var
from sym.core.reason.swm import naming
from sym.core.reason.swm.english import render_clause
from sym.core.reason.swm.english.questions import show_name
from sym.core.reason.swm.justification import add_steps
from sym.core.reason.swm.outcomes import AskOutcome

if TYPE_CHECKING:
    from sym.core.memory.working import WorkingMemory
    from sym.core.reason.swm.english import Goal

__all__ = ["UNKNOWN", "Verdict", "every", "none_entailed", "outcome", "refine"]

CHECKED = 50        # known members each tried against the constraints (the rest leave the answer unknown)


@dataclass
class Verdict:
    answer: str                                  # true | false | unknown
    steps: list[str] = field(default_factory=list)
    settle: str = ""                             # what memory lacks, for an unknown


def _query(text: str) -> Query:
    from sym.core.logic.parser import parse_query  # lark: only once a question is asked

    return parse_query(text)


def _atoms(text: str) -> list[Atom]:
    return [lit for lit in _query(text).body if isinstance(lit, Atom)]


def _constants(engine: Engine) -> set[object]:
    out: set[object] = {a for rows in engine.base().values() for row in rows for a in row}
    for rule in engine.rules.values():
        for atom in [*([rule.head] if rule.head is not None else []), *rule.body]:
            out.update(a for a in getattr(atom, "args", ()) if not isinstance(a, Var))
    return out


def fresh_constant(engine: Engine, noun: str) -> str:
    """A constant that appears in no fact and no rule: an individual nothing is said of."""
    used = {str(c) for c in _constants(engine)}
    n = 1
    while f"new {noun} {n}" in used:
        n += 1
    return f"new {noun} {n}"


def scratch(engine: Engine, facts: list[Atom]) -> Engine:
    """A copy of the engine's facts and rules with `facts` added (the engine is left as it is)."""
    copy = Engine()
    copy.add_facts(Atom(key.rpartition("/")[0].lstrip("~"), row, key.startswith("~"))
                   for key, rows in engine.base().items() for row in rows)
    copy.add_facts(facts)
    copy.add_rules(engine.rules)
    return copy


def _grounded(atom: Atom, var: Var, const: object) -> Atom:
    return Atom(atom.pred, tuple(const if a == var else a for a in atom.args), atom.neg)


def _generic(node: ProofNode, new: str) -> bool:
    """Whether a proof of the fresh individual holds of any individual like it: it reads no negation
    as failure, no aggregate, and no comparison of the individual itself (`X \\= tom` holds of a
    new one, not of Tom)."""
    if node.status in (NEGATION, AGGREGATED) or node.status == BUILTIN and new in str(node.literal):
        return False
    return all(_generic(c, new) for c in node.children)


def _variable(atoms: list[Atom]) -> Var | None:
    found = {a for atom in atoms for a in atom.args if isinstance(a, Var)}
    return found.pop() if len(found) == 1 else None


def entailed(memory: WorkingMemory, restriction: list[Atom], consequent: Atom, noun: str) -> list[str] | None:
    """The steps by which a fresh individual of the restriction is derived to satisfy the consequent
    (so every one does), or None when it is not, or only by reading what is not known."""
    var = _variable([*restriction, consequent])
    if var is None:
        return None
    engine = memory.engine
    new = fresh_constant(engine, noun)
    assumed = [_grounded(a, var, new) for a in restriction]
    copy = scratch(engine, assumed)
    target = _grounded(consequent, var, new)
    if not copy.holds(target) or copy.holds(target.negate()) or copy.violations():
        return None
    tree = proof_tree(copy, target)
    if not _generic(tree, new):
        return None
    steps = [f"{a}  assumed: a {noun} nothing else is said of" for a in assumed]
    add_steps(memory, tree, steps)
    return [s for s in steps if "  given" not in s or not any(str(a) in s for a in assumed)]


def _said(restriction: list[Atom], consequent: Atom) -> str:
    """The universal in sym's English ('If X is a cat then X is black.'), else in logic."""
    text = f"{consequent} :- {', '.join(map(str, restriction))}."
    said = render_clause(text)
    return f"'{said[:1].upper()}{said[1:]}'" if said else text


def _name(memory: WorkingMemory, const: object) -> str:
    shown = cast("dict[object, str]", naming.written(memory, [const])).get(const)
    return str(shown or show_name(const))


def _why(memory: WorkingMemory, atoms: list[Atom]) -> list[str]:
    steps: list[str] = []
    for atom in atoms:
        add_steps(memory, memory.why(atom), steps)
    return steps


def _breaks(engine: Engine, atom: Atom) -> bool:
    """Whether asserting `atom` breaks a constraint the engine keeps now (it is known impossible):
    a constraint that reads no negation as failure or aggregate (one that does may be met by what is
    not known yet), and a memory that breaks none already."""
    if not engine.constraints() or engine.violations():
        return False
    return any(v.constraint is not None and all(isinstance(b, (Atom, Compare)) for b in v.constraint.body)
               for v in scratch(engine, [atom]).violations())


def every(memory: WorkingMemory, goal: Goal, open_world: bool = True) -> Verdict:
    """"Is every cat black?" (args: the restriction and the consequent as query texts, and the noun).
    In the closed world the known cats are all the cats: true when each is derived black."""
    restriction, (consequent,) = _atoms(goal.args[0]), _atoms(goal.args[1])
    noun = str(goal.args[2]) if len(goal.args) > 2 else "one"
    var = _variable([*restriction, consequent])
    engine = memory.engine
    if var is None:
        return Verdict(UNKNOWN, settle="the question has no one variable")
    members = [row[var] for row in engine.solve(tuple(restriction))] if all(a.key in engine.relation_keys()
                                                                            for a in restriction) else []
    members = list(dict.fromkeys(members))
    for const in members:                         # a known one known not to
        against = _grounded(consequent, var, const).negate()
        if engine.holds(against):
            return Verdict(FALSE, _why(memory, [*(_grounded(a, var, const) for a in restriction), against]))
    steps = entailed(memory, restriction, consequent, noun)
    if steps is not None:
        return Verdict(TRUE, steps)
    if not open_world:
        for const in members:
            target = _grounded(consequent, var, const)
            if not engine.holds(target):
                steps = _why(memory, [_grounded(a, var, const) for a in restriction])
                return Verdict(FALSE, [*steps, f"{target} is not derivable (closed world)"])
        return Verdict(TRUE, _why(memory, [_grounded(consequent, var, c) for c in members]
                                  + [_grounded(a, var, c) for c in members for a in restriction])
                       + [f"no other {noun} is known (closed world)"])
    for const in members[:CHECKED]:               # … or one a constraint forbids
        target = _grounded(consequent, var, const)
        if not engine.holds(target) and _breaks(engine, target):
            steps = _why(memory, [_grounded(a, var, const) for a in restriction])
            steps.append(f"{target} would break a constraint, so it is not so")
            return Verdict(FALSE, steps)
    holding = [c for c in members if engine.holds(_grounded(consequent, var, c))]
    shown = ", ".join(_name(memory, c) for c in members[:6]) + (" …" if len(members) > 6 else "")
    said = _said(restriction, consequent)
    if not members:
        settle = f"no {noun} is known, and memory does not entail {said}"
    elif len(holding) == len(members):
        settle = f"each known {noun} is so ({shown}), but memory does not entail {said}: a {noun} not known yet may not be"
    else:
        left = ", ".join(_name(memory, c) for c in members if c not in holding)
        settle = f"nothing in memory settles it for {left}, and memory does not entail {said}"
    return Verdict(UNKNOWN, settle=settle)


def none_entailed(memory: WorkingMemory, goal: Goal) -> list[str] | None:
    """For an existential goal with no witness ("Is any cat black?", `black(X), cat(X)`): the steps
    by which memory entails that nothing satisfies it — a fresh individual satisfying all but one of
    its literals is derived not to satisfy that one — or None."""
    atoms = _atoms(goal.query)
    if len(atoms) != len(_query(goal.query).body) or _variable(atoms) is None:
        return None
    for i, lit in enumerate(atoms):
        rest = atoms[:i] + atoms[i + 1:]
        if not rest:
            continue
        steps = entailed(memory, rest, lit.negate(), _noun(rest))
        if steps is not None:
            return steps
    return None


def _noun(atoms: list[Atom]) -> str:
    ones = [a.pred for a in atoms if len(a.args) == 1 and not a.neg]
    return ones[-1].replace("_", " ") if ones else "one"


def outcome(memory: WorkingMemory, goal: Goal, open_world: bool = True) -> AskOutcome:
    """The /ask outcome of a universal goal (its goal line is `forall(restriction, consequent)`)."""
    verdict = every(memory, goal, open_world)
    return AskOutcome(goal.question, goal.query, "truth", verdict.answer, True, verdict.steps, settle=verdict.settle)


def refine(memory: WorkingMemory, goal: Goal, out: AskOutcome, open_world: bool) -> None:
    """An existential truth goal left unknown in the open world is false when memory entails that
    nothing satisfies it (`none_entailed`)."""
    if goal.kind != "truth" or not open_world or out.answer != UNKNOWN or _query(goal.query).is_ground:
        return
    proof = none_entailed(memory, goal)
    if proof is not None:
        out.answer, out.steps, out.settle = FALSE, proof, ""
