"""A deliberately simple bottom-up evaluator, the reference the semi-naive engine is checked against.

It shares nothing with the engine but the term classes: strata come from a plain fixpoint
over predicate levels, and each round re-applies every rule to every substitution drawn
from the whole current fact set until nothing changes. Slow on purpose; tiny inputs only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from sym.core.logic.terms import Atom, Compare, Naf, Rule, Var

Key = tuple[bool, str, int]  # (strongly negated?, predicate, arity)


def key(atom: Atom) -> Key:
    return (atom.neg, atom.pred, len(atom.args))


def strata(rules: list[Rule]) -> dict[Key, int]:
    """level(head) >= level(positive body atom), > level(negated body atom); least such levels."""
    keys = {key(r.head) for r in rules if r.head is not None}
    for r in rules:
        for lit in r.body:
            if isinstance(lit, Atom):
                keys.add(key(lit))
            elif isinstance(lit, Naf):
                keys.add(key(lit.atom))
    level = dict.fromkeys(keys, 0)
    for _ in range(len(keys) + 1):
        changed = False
        for r in rules:
            if r.head is None:
                continue
            need = 0
            for lit in r.body:
                if isinstance(lit, Atom):
                    need = max(need, level[key(lit)])
                elif isinstance(lit, Naf):
                    need = max(need, level[key(lit.atom)] + 1)
            if need > level[key(r.head)]:
                level[key(r.head)] = need
                changed = True
        if not changed:
            return level
    raise ValueError("not stratifiable")


def value(term, binding: dict):
    return binding.get(term, term) if isinstance(term, Var) else term


def compare(op: str, a, b) -> bool:
    if op == "=":
        return a == b
    if op == "\\=":
        return a != b
    if isinstance(a, str) != isinstance(b, str):
        return False  # atoms and numbers are not ordered against each other
    return {"<": a < b, ">": a > b, "=<": a <= b, ">=": a >= b}[op]


def match(atom: Atom, fact: Atom, binding: dict) -> dict | None:
    """Extend `binding` so that `atom` equals `fact`, or None."""
    if key(atom) != key(fact):
        return None
    out = dict(binding)
    for arg, val in zip(atom.args, fact.args):
        if isinstance(arg, Var):
            if arg in out:
                if out[arg] != val:
                    return None
            else:
                out[arg] = val
        elif arg != val:
            return None
    return out


def ground(atom: Atom, binding: dict) -> Atom:
    return Atom(atom.pred, tuple(value(a, binding) for a in atom.args), atom.neg)


def substitutions(body: tuple, facts: set[Atom]) -> Iterator[dict]:
    """Every binding that makes the body true in `facts`."""
    bindings = [{}]
    for lit in body:
        if isinstance(lit, Atom):
            bindings = [b2 for b in bindings for f in facts if (b2 := match(lit, f, b)) is not None]
    for binding in bindings:
        if _filters_hold(body, binding, facts):
            yield binding


def _filters_hold(body: tuple, binding: dict, facts: set[Atom]) -> bool:
    """Comparisons first (an `=` may bind a variable), then `not`; mutates `binding`."""
    pending = [lit for lit in body if isinstance(lit, Compare)]
    while pending:
        progress = False
        for lit in list(pending):
            left, right = value(lit.left, binding), value(lit.right, binding)
            left_free, right_free = isinstance(left, Var), isinstance(right, Var)
            if lit.op == "=" and left_free != right_free:
                binding[left if left_free else right] = right if left_free else left
            elif left_free or right_free:
                continue
            elif not compare(lit.op, left, right):
                return False
            pending.remove(lit)
            progress = True
        if not progress:
            raise ValueError(f"unsafe comparison in {body}")
    for lit in body:
        if isinstance(lit, Naf) and any(match(lit.atom, f, binding) is not None for f in facts):
            return False
    return True


def model(facts: Iterable[Atom], rules: Iterable[Rule]) -> set[Atom]:
    """The perfect model: facts plus everything the rules derive, stratum by stratum."""
    rules = [r for r in rules if r.head is not None]
    level = strata(rules)
    known = set(facts)
    for stratum in sorted(set(level.values())):
        layer = [r for r in rules if level[key(r.head)] == stratum]
        while True:
            new = {ground(r.head, b) for r in layer for b in substitutions(r.body, known)} - known
            if not new:
                break
            known |= new
    return known


def violations(known: set[Atom], constraints: dict[str, Rule]) -> set[tuple]:
    """(constraint id, its positive body atoms) per violating binding; (None, (p, ~p)) per contradiction."""
    out: set[tuple] = set()
    for f in known:
        if f.neg and Atom(f.pred, f.args) in known:
            out.add((None, (Atom(f.pred, f.args), f)))
    for cid, rule in constraints.items():
        for b in substitutions(rule.body, known):
            out.add((cid, tuple(ground(lit, b) for lit in rule.body if isinstance(lit, Atom))))
    return out
