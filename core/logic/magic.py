"""Demand: the program a question needs, rewritten so that its bound arguments restrict evaluation.

The slice of the question (the relations it depends on) is kept; relations read under `not`, and
all they depend on, stay whole (so the rewritten program stratifies as the original did). Every
other derived relation gets one binding pattern (the positions bound at every call), a magic
relation holding the bindings asked for, and its rules guarded by it (magic sets, with
sideways information passed most-bound-atom first). A single right-linear goal such as
`?- p(n0, X).` over `p(X, Y) :- e(X, Z), p(Z, Y).` is factored instead: the bindings reachable
from the constants, then the answers, each kept per seed. This room rewrites rules; it evaluates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sym.core.logic.slice import Dependencies, body_keys
from sym.core.logic.terms import Aggregate, Atom, Compare, Eval, Is, Literal, Naf, Rule, Var, expr_variables, relation_key

Body = tuple[Literal, ...]


@dataclass
class Demand:
    """A program to evaluate for one question, and how to read it back."""

    rules: dict[str, Rule]                       # copied rules keep their ids; rewritten ones get new ids
    seeds: list[Atom]                            # magic facts: the question's constants
    origin: dict[str, tuple[str, int]]           # program rule id -> (original id, guard literals before its body)
    keys: set[str]                               # the original relations the program reads (its slice)
    complete: set[str] = field(default_factory=set)   # derived relations computed whole
    guarded: dict[str, tuple[str, tuple[int, ...]]] = field(default_factory=dict)  # relation -> (magic key, bound positions)
    answer: Atom | None = None                   # factored: the goal to solve instead of the question
    labels: dict[str, str] = field(default_factory=dict)   # magic relation -> the relation it is about



def order(body: Body, bound: set[Var]) -> list[tuple[int, frozenset[Var]]]:
    """Sideways information passing: body literal indices in evaluation order, each with the
    variables bound before it. Filters go as soon as their variables are bound, `X = t` binds
    X once t is bound, and among atoms the one with most bound arguments goes first. A value
    computed by `is` or an aggregate is bound for what follows but never passed on as a binding
    to ask for: `gen(X) :- gen(Y), valid(X), Y is X + 1.` asked for gen(0) would otherwise ask
    for gen(1), gen(2), … without end (Soufflé's magic_infbinding)."""
    counts: dict[Var, int] = {}
    for lit in body:
        for v in set(lit.variables()):
            counts[v] = counts.get(v, 0) + 1
    bound = set(bound)
    computed: set[Var] = set()
    pending = list(range(len(body)))
    out: list[tuple[int, frozenset[Var]]] = []
    while pending:
        placed = None
        for i in pending:
            lit = body[i]
            if isinstance(lit, Compare):
                free = {v for v in lit.variables() if v not in bound}
                if not free or (lit.op == "=" and len(free) == 1 and len(set(lit.variables())) <= 2
                                and not all(isinstance(t, Var) and t in free for t in (lit.left, lit.right))):
                    placed = i
                    break
            elif isinstance(lit, Naf):
                if all(v in bound for v in lit.variables() if counts[v] > 1):
                    placed = i
                    break
            elif isinstance(lit, (Is, Eval, Aggregate)):   # once what they compute from is bound
                needs = (expr_variables(lit.expr) if isinstance(lit, Is) else lit.outer(list(body))
                         if isinstance(lit, Aggregate) else lit.variables())
                if all(v in bound for v in needs):
                    placed = i
                    break
        if placed is None:
            atoms = [(i, lit) for i in pending if isinstance(lit := body[i], Atom)]
            if not atoms:
                placed = pending[0]       # unsafe leftovers (the parser rejects them): last, as they are
            else:
                placed = max(atoms, key=lambda a: (len(pattern(a[1], frozenset(bound))), -a[0]))[0]
        out.append((placed, frozenset(bound - computed)))
        pending.remove(placed)
        lit = body[placed]
        new = set(lit.results() if isinstance(lit, Aggregate) else lit.variables()) - bound
        if isinstance(lit, (Is, Aggregate)) or isinstance(lit, Compare) and any(v in computed for v in lit.variables()):
            computed |= new
        bound |= new
    return out


def pattern(atom: Atom, bound: frozenset[Var]) -> frozenset[int]:
    return frozenset(i for i, a in enumerate(atom.args) if not isinstance(a, Var) or a in bound)


Entry = tuple[Body, set[Var], tuple[Atom, ...]]   # a body, the variables bound on entry, its guard


class Rewrite:
    """One question's rewrite over a rule set's dependencies."""

    def __init__(self, deps: Dependencies, taken: set[str]) -> None:
        self.deps = deps
        self.taken = taken          # relation keys in use: magic names must not meet them

    def magic_pred(self, key: str, tag: str = "magic") -> str:
        name = f"{tag}[{key}]"
        while any(k.startswith(name + "/") for k in self.taken):
            name += "'"
        return name

    def demand(self, *bodies: Body, factor: bool = True, carried: bool = False) -> Demand:
        """The program answering each of `bodies` (independent questions asked together).
        `carried`: a ground goal may be answered factored, its constants at the positions its
        recursion carries unchanged asked for as answers (only its truth is read back then)."""
        deps = self.deps
        keys = deps.closure(key for body in bodies for key, _ in body_keys(body))
        rules = deps.rules_for(keys)
        whole = [key for body in bodies for key, neg in body_keys(body) if neg]
        for rule in rules.values():
            whole += [key for key, neg in body_keys(rule.body) if neg]
        complete = {k for k in deps.closure(whole) if deps.derived(k)}
        if factor and len(bodies) == 1 and len(bodies[0]) == 1 and isinstance(bodies[0][0], Atom):
            goal = bodies[0][0]
            found = self._factored(goal, keys, rules, complete)
            if found is None and carried and goal.is_ground:
                found = self._factored_ground(goal, keys, rules, complete)
            if found is not None:
                return found
        out = Demand({}, [], {}, keys, complete)
        self._build([(body, set(), ()) for body in bodies], rules, out)
        return out

    def _build(self, entries: list[Entry], rules: dict[str, Rule], out: Demand, replaced: str | None = None) -> None:
        """Guard the demanded relations' rules and add the magic rules of `entries` and of them."""
        adorned = self._adorn(entries, out.complete, replaced)
        out.complete |= {k for k in out.keys if self.deps.derived(k) and not adorned.get(k) and k != replaced}
        for key, positions in adorned.items():
            if positions and key not in out.complete:
                magic = relation_key(self.magic_pred(key), len(positions))
                out.guarded[key] = (magic, tuple(sorted(positions)))
                out.labels[magic] = key
        for body, bound, guards in entries:
            self._magic_rules(body, bound, guards, out)
        for rid, rule in rules.items():
            assert rule.head is not None   # rules_for gives rules with heads
            if rule.head.key == replaced:
                continue
            guard = self._guard(rule.head, out)
            if guard is None:
                out.rules[rid] = rule
                out.origin[rid] = (rid, 0)
                self._magic_rules(rule.body, set(), (), out)
            else:
                out.rules[f"{rid}#"] = Rule(rule.head, (guard, *rule.body))
                out.origin[f"{rid}#"] = (rid, 1)
                self._magic_rules(rule.body, set(guard.variables()), (guard,), out)

    def _adorn(self, entries: list[Entry], complete: set[str], replaced: str | None) -> dict[str, frozenset[int]]:
        """Each demanded relation's binding pattern: the positions bound at every call."""
        deps = self.deps
        adorned: dict[str, frozenset[int]] = {}
        work: list[str] = []

        def calls(body: Body, bound: set[Var]) -> None:
            for i, before in order(body, bound):
                atom = body[i]
                if not isinstance(atom, Atom) or not deps.derived(atom.key) or atom.key in complete or atom.key == replaced:
                    continue
                old = adorned.get(atom.key)
                new = pattern(atom, before) if old is None else old & pattern(atom, before)
                if new != old:
                    adorned[atom.key] = new
                    work.append(atom.key)

        for body, bound, _guard in entries:
            calls(body, bound)
        while work:
            key = work.pop()
            positions = adorned[key]
            for _rid, rule in deps.by_head[key]:
                assert rule.head is not None
                calls(rule.body, {rule.head.args[i] for i in positions if isinstance(rule.head.args[i], Var)})
        return adorned

    def _guard(self, head: Atom, out: Demand) -> Atom | None:
        found = out.guarded.get(head.key)
        if found is None:
            return None
        magic, positions = found
        return Atom(magic[:magic.rindex("/")], tuple(head.args[i] for i in positions))

    def _magic_rules(self, body: Body, bound: set[Var], guard: tuple[Atom, ...], out: Demand) -> None:
        """For each demanded atom of a body: the magic rule passing it the bindings of the guard
        and of the literals before it (a seed fact where nothing comes before it)."""
        prefix: list[Literal] = list(guard)
        for i, _before in order(body, bound):
            lit = body[i]
            if isinstance(lit, Atom) and lit.key in out.guarded:
                asked = self._guard(lit, out)
                assert asked is not None
                if not prefix:
                    if asked.is_ground and asked not in out.seeds:
                        out.seeds.append(asked)
                elif tuple(prefix) != (asked,):
                    rule = Rule(asked, tuple(prefix))
                    if rule not in out.rules.values():
                        rid = f"#m{len(out.rules) + 1}"
                        out.rules[rid] = rule
                        out.origin[rid] = ("", 0)
            prefix.append(lit)

    def _factored(self, goal: Atom, keys: set[str], rules: dict[str, Rule], complete: set[str]) -> Demand | None:
        """`?- p(c, Y).` with p right-linear in Y: p(c, Y) holds iff some binding reachable from c
        by the recursive rules' other literals meets an exit rule. None where that is not so."""
        deps, key = self.deps, goal.key
        bound = [i for i, a in enumerate(goal.args) if not isinstance(a, Var)]
        free = [i for i in range(len(goal.args)) if i not in bound]
        if not bound or not free or not deps.derived(key) or key in complete:
            return None
        if deps.upward([key]) & deps.closure(deps.reads.get(key, ())) - {key}:
            return None                 # recursion through another relation
        shapes: list[tuple[str, Rule, int | None]] = []
        for rid, rule in deps.by_head[key]:
            shape = _right_linear(rule, key, bound, free)
            if shape == NOT_LINEAR:
                return None
            shapes.append((rid, rule, shape))
        if all(at is not None for _, _, at in shapes):
            return None                 # no exit rule: nothing to find
        seed = tuple(Var(f"S#{i}") for i in bound)
        reach = self.magic_pred(key, "reach")
        found = self.magic_pred(key, "found")
        out = Demand({}, [], {}, keys, set(complete))
        out.labels = {relation_key(reach, 2 * len(bound)): key, relation_key(found, len(goal.args)): key}
        constants = tuple(goal.args[i] for i in bound)
        out.seeds.append(Atom(reach, constants + constants))
        out.answer = Atom(found, constants + tuple(goal.args[i] for i in free))
        entries: list[Entry] = []
        for rid, rule, at in shapes:
            assert rule.head is not None
            guard = Atom(reach, (*seed, *(rule.head.args[i] for i in bound)))
            if at is None:
                head = Atom(found, (*seed, *(rule.head.args[i] for i in free)))
                rest = rule.body
            else:
                call = rule.body[at]
                assert isinstance(call, Atom)
                head = Atom(reach, (*seed, *(call.args[i] for i in bound)))
                rest = rule.body[:at] + rule.body[at + 1:]
            out.rules[f"{rid}#"] = Rule(head, (guard, *rest))
            out.origin[f"{rid}#"] = ("", 0)
            entries.append((rest, set(guard.variables()), (guard,)))
        # p's asserted facts are answers too, wherever the reach gets to
        args = tuple(Var(f"A#{i}") for i in range(len(goal.args)))
        out.rules["#asserted"] = Rule(Atom(found, (*seed, *(args[i] for i in free))),
                                      (Atom(reach, (*seed, *(args[i] for i in bound))), Atom(goal.pred, args, goal.neg)))
        out.origin["#asserted"] = ("", 0)
        self._build(entries, rules, out, replaced=key)
        return out


    def _factored_ground(self, goal: Atom, keys: set[str], rules: dict[str, Rule], complete: set[str]) -> Demand | None:
        """`?- p(c, d).` asked as `?- p(c, Y).` where p's recursion carries its second argument
        unchanged (binding it restricts nothing until the exit rules), the answer Y = d: the
        factored program's cost, not the guarded one's (a magic fact per node, each with d)."""
        deps, key = self.deps, goal.key
        if not deps.derived(key):
            return None
        carried = []
        for i in range(len(goal.args)):
            calls = [(rule.head.args[i], lit.args[i]) for _, rule in deps.by_head[key] for lit in rule.body
                     if rule.head is not None and isinstance(lit, Atom) and lit.key == key]
            if calls and all(isinstance(h, Var) and h == c for h, c in calls):
                carried.append(i)
        if not carried or len(carried) == len(goal.args):
            return None
        opened = Atom(goal.pred, tuple(Var(f"G#{i}") if i in carried else a for i, a in enumerate(goal.args)), goal.neg)
        found = self._factored(opened, keys, rules, complete)
        if found is None or found.answer is None:
            return None
        values = {Var(f"G#{i}"): goal.args[i] for i in carried}
        found.answer = Atom(found.answer.pred, tuple(values.get(a, a) for a in found.answer.args), found.answer.neg)
        return found


NOT_LINEAR = -1


def _right_linear(rule: Rule, key: str, bound: list[int], free: list[int]) -> int | None:
    """For a rule of p under a call binding `bound`: None for an exit rule, the index of its one
    recursive call when the free arguments pass through it unchanged and unused, else NOT_LINEAR."""
    assert rule.head is not None
    calls = [i for i, lit in enumerate(rule.body) if isinstance(lit, Atom) and lit.key == key]
    if not calls:
        return None
    if len(calls) > 1:
        return NOT_LINEAR
    at = calls[0]
    call = rule.body[at]
    assert isinstance(call, Atom)
    through = [rule.head.args[i] for i in free]
    if not all(isinstance(v, Var) for v in through) or len(set(through)) != len(through):
        return NOT_LINEAR
    if any(call.args[i] != rule.head.args[i] for i in free):
        return NOT_LINEAR
    rest = rule.body[:at] + rule.body[at + 1:]
    head_bound = {a for i, a in enumerate(rule.head.args) if i in bound and isinstance(a, Var)}
    elsewhere = {v for lit in rest for v in lit.variables()} | head_bound
    elsewhere |= {a for i, a in enumerate(call.args) if i in bound and isinstance(a, Var)}
    if elsewhere & set(through):
        return NOT_LINEAR
    reached = head_bound | {v for lit in rest if isinstance(lit, Atom) for v in lit.variables()}
    equal = [lit for lit in rest if isinstance(lit, Compare) and lit.op == "="]
    for _ in equal:                  # `X = t` binds X once t is bound
        reached |= {v for lit in equal if any(t in reached or not isinstance(t, Var) for t in (lit.left, lit.right))
                    for v in lit.variables()}
    if any(isinstance(call.args[i], Var) and call.args[i] not in reached for i in bound):
        return NOT_LINEAR
    return at
