"""What an /ask goal comes to in the engine's model: its truth in the open or the closed world
(`inconsistent` where memory derives both p and ~p), what would settle an unknown answer, and
the proof steps behind an answer. It reads the model and provenance; it never changes memory.

Open world: p is true when derived, false when ~p is derived, else unknown. Closed world: what
is not derivable is false, and a strongly negated goal ~p is read by negation as failure, so
"Is Rex not a cat?" is true exactly when "Is Rex a cat?" is false.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from sym.core.errors import ParseError, UserError
from sym.core.logic.engine import FALSE, TRUE, UNKNOWN, Engine, Violation
from sym.core.logic.parser import parse_query
from sym.core.logic.terms import Atom, Naf, Var
from sym.core.memory.working import WorkingMemory, item_id
from sym.core.reason.pot.check_horn import support
from sym.core.reason.swm import english, naming
from sym.core.reason.swm.grounding import ground
from sym.core.reason.swm.justification import add_steps
from sym.core.reason.swm.symbolic import support as proof_support

if TYPE_CHECKING:
    from sym.core.reason.swm.english import Goal

INCONSISTENT = "inconsistent"
DECIDED = (TRUE, FALSE, INCONSISTENT)
CLASH_ITEMS = 12       # items named for one clash; the rest are counted


def literal_truth(engine: Engine, lit: Atom | Naf, open_world: bool) -> str:
    """One ground literal: true, false, unknown (open world only) or inconsistent."""
    if isinstance(lit, Naf):
        return FALSE if engine.holds(lit.atom) else TRUE
    yes, no = engine.holds(lit), engine.holds(lit.negate())
    if yes and no:
        return INCONSISTENT
    if yes or no:
        return TRUE if yes else FALSE
    if open_world:
        return UNKNOWN
    return TRUE if lit.neg else FALSE       # negation as failure: ~p holds where p is not derivable


def _conjunction(values: list[str]) -> str:
    for value in (INCONSISTENT, FALSE, UNKNOWN):
        if value in values:
            return value
    return TRUE


def _literals(goal: Goal) -> list[Atom | Naf]:
    return [lit for lit in parse_query(goal.query).body if isinstance(lit, (Atom, Naf))]


def relation_facts(engine: Engine, args: tuple[Any, ...]) -> list[Atom]:
    """The `R_of(A, B)` facts that hold between a relation goal's two arguments, each asked on its
    own (goal-directed where the engine is: no whole model is computed). Relations the facts
    mention come first, then those rules derive, in the order the rules were added."""
    heads = [rule.head.key for rule in engine.rules.values() if rule.head is not None]
    keys = dict.fromkeys([*engine.base(), *heads, *sorted(engine.relation_keys())])
    found = []
    for key in keys:
        name, _, arity = key.rpartition("/")
        if arity == "2" and name.endswith("_of") and not name.startswith("~"):
            atom = Atom(name, tuple(args))
            if engine.holds(atom):
                found.append(atom)
    return found


def check(goal: Goal, engine: Engine, memory: WorkingMemory, open_world: bool) -> tuple[str, list[dict[str, Any]]]:
    """The answer to a goal in this model, and the bindings behind a values answer."""
    if goal.kind == "relation":
        found = english.relation_answer(relation_facts(engine, goal.args), goal, rank=proof_support(engine))
        return (found or ""), []
    query = parse_query(goal.query)
    if query.is_ground:
        return _conjunction([literal_truth(engine, lit, open_world) for lit in _literals(goal)]), []
    rows = [{v.name: val for v, val in row.items()} for row in engine.solve(query)]
    if goal.kind == "truth":            # "Is anyone big?": true when some binding holds
        return (TRUE if rows else UNKNOWN if open_world else FALSE), rows
    if not rows and open_world and not goal.closed:   # an open world knows of none, not that there are none
        return NONE_KNOWN, rows
    if goal.query.startswith("aggregate_all(count,") and open_world:   # "How many …?": a count of what is known
        return f"{goal.render(rows)} known", rows
    # keyed by the constants themselves (str, int or float), whatever naming.written's annotation says
    names = cast("dict[object, str]", naming.written(memory, {v for row in rows for v in row.values()}))
    return goal.render(rows, namer=names.get), rows


NONE_KNOWN = "none known"


def solved(goal: Goal, answer: str) -> bool:
    """Whether the answer ends the search (no further soft-rule step can change it)."""
    return goal.kind == "truth" and answer in DECIDED or goal.kind == "relation" and bool(answer)


def undecided(goal: Goal, answer: str, values: list[dict[str, Any]]) -> bool:
    return answer in ("", UNKNOWN, NONE_KNOWN) or (goal.kind == "values" and not values)


def mentions(goal: Goal, engine: Engine) -> bool:
    """Whether memory knows the goal's predicates at all (else 'unknown' is not an answer)."""
    keys = engine.relation_keys()
    try:
        atoms = [lit for lit in parse_query(goal.query).body if isinstance(lit, Atom)]
    except ParseError:
        return False
    return all(a.key in keys or a.negate().key in keys for a in atoms)


def settle(goal: Goal, engine: Engine, answer: str, values: list[dict[str, Any]]) -> str:
    """What memory lacks for an undecided answer, in one line ('' when it is decided)."""
    if goal.kind == "relation":
        if answer:
            return ""
        shown = " and ".join(str(a) for a in goal.args)
        return f"nothing in memory relates {shown}"
    if goal.kind == "truth" and answer != UNKNOWN or goal.kind == "values" and values:
        return ""
    keys = engine.relation_keys()
    query = parse_query(goal.query)
    if query.is_ground:
        atoms = [lit for lit in _literals(goal) if isinstance(lit, Atom)
                 and literal_truth(engine, lit, open_world=True) == UNKNOWN]
        said = "; ".join(f"nothing in memory says {a.negate() if a.neg else a} or {a if a.neg else a.negate()}"
                         for a in atoms)
    else:
        names = ", ".join(v.name for v in query.variables())
        said = f"nothing in memory says {', '.join(str(lit) for lit in query.body)} for any {names}"
        atoms = [lit for lit in query.body if isinstance(lit, Atom)]
    unheard = sorted({a.key.lstrip("~") for a in atoms if a.key not in keys and a.negate().key not in keys})
    if unheard:
        said += f" (no fact or rule mentions {', '.join(unheard)})"
    return said


def justify(memory: WorkingMemory, goal: Goal, answer: str, values: list[dict[str, Any]] | None = None, *,
            open_world: bool = True, limit: int = 3) -> list[str]:
    """Proof steps behind a truth answer, the first `limit` value answers, or a relation."""
    engine = memory.engine
    targets: list[Atom] = []
    steps: list[str] = []
    if goal.kind == "relation" and answer:
        targets = [f for f in relation_facts(engine, goal.args) if goal.render(f.pred) == answer][:1]
    elif goal.kind in ("truth", "values") and (answer in (TRUE, FALSE) or values):
        atoms = [lit for lit in parse_query(goal.query).body if isinstance(lit, Atom)]
        for row in (values or [{}])[:limit]:
            for atom in atoms:
                atom = ground(atom, row)
                if any(isinstance(a, Var) for a in atom.args):
                    continue
                if not open_world and not engine.holds(atom) and not engine.holds(atom.negate()):
                    positive = atom.negate() if atom.neg else atom
                    steps.append(f"{positive} is not derivable" + (f", so {atom} (negation as failure, closed world)"
                                                                   if atom.neg else " (closed world)"))
                    continue
                targets.append(atom if answer != FALSE or engine.holds(atom) else atom.negate())
    for target in targets:
        try:
            add_steps(memory, memory.why(target), steps)
        except UserError:       # an unknown predicate: nothing stated, nothing to show
            continue
    return steps


def clashing(goal: Goal, engine: Engine) -> list[Atom]:
    """The goal's positive atoms that memory derives together with their strong negation."""
    out: list[Atom] = []
    for lit in _literals(goal):
        if isinstance(lit, Atom) and literal_truth(engine, lit, open_world=True) == INCONSISTENT:
            positive = lit.negate() if lit.neg else lit
            if positive not in out:
                out.append(positive)
    return out


def derivations(memory: WorkingMemory, atoms: list[Atom]) -> list[tuple[str, list[str]]]:
    """The proof steps of p and of ~p for each clashing atom p, as (literal, steps)."""
    out: list[tuple[str, list[str]]] = []
    for atom in atoms:
        for side in (atom, atom.negate()):
            steps: list[str] = []
            add_steps(memory, memory.why(side), steps)
            out.append((str(side), steps))
    return out


def clash_items(memory: WorkingMemory, violation: Violation) -> list[dict[str, str]]:
    """The stored items a clash was derived from (facts and rules, in memory order): id, text, nl."""
    def fact_id(atom: Atom) -> str | None:
        iid = item_id(atom)
        return iid if iid in memory.items else None

    ids, _naf = support(memory.engine, violation, fact_id)
    order = {i: n for n, i in enumerate(memory.items)}
    return [{"id": i, "text": memory.items[i].text, "nl": memory.items[i].nl}
            for i in sorted(ids, key=lambda i: order.get(i, len(order))) if i in memory.items]


def described(items: list[dict[str, str]], limit: int = CLASH_ITEMS) -> str:
    """Items as "r1a2 'Birds fly.', f5c6 'Tweety is a penguin.'" (their sentence, else their logic)."""
    shown = ", ".join(f"{it['id']} '{it['nl'] or it['text']}'" for it in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")
