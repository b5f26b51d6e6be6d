"""The semi-naive forward-chaining engine: asserted facts + rules -> a materialised model.

Strata are evaluated in order; within one, each round joins only against the facts new
in the previous round. Every derived fact keeps its first derivation (rule, step, the
binding that fired it), from which `provenance` rebuilds the premises on demand.
The engine holds no ids of its own beyond the rule ids its caller gives it. Large programs
(by asserted or derived facts) run the same rounds set-at-a-time over numpy columns
(`dense_rounds`), keeping provenance columnar; small ones stay on tuples, answering in ~1 ms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.logic.fused import Tail, derive_fused, full_row, fused_tail
from sym.core.logic.pause import Budget, gc_paused
from sym.core.logic.plan import STRIDE, Plan, Relation, Row, Runner, Stored, make_plan
from sym.core.logic.strata import stratify
from sym.core.logic.terms import Atom, Compare, Literal, Naf, Query, Rule, Var, literal_atoms, relation_key

if TYPE_CHECKING:
    from threading import Event

    from sym.core.logic.dense import DenseModel

TRUE, FALSE, UNKNOWN = "true", "false", "unknown"
DENSE_FROM = 2_000     # from this many asserted facts inference runs set-at-a-time; below, the tuple path answers in ~1 ms
DENSE_AFTER = 50_000   # a tuple-path inference that has derived this many facts starts again set-at-a-time


@dataclass(frozen=True)
class Derivation:
    """How a derived fact was first obtained."""

    fact: Atom
    rule_id: str
    rule: Rule
    step: int
    premises: tuple[Literal, ...]  # the rule body, instantiated, in body order


@dataclass(frozen=True)
class Violation:
    """An integrity constraint whose body holds, or a fact held together with its strong negation."""

    facts: tuple[Atom, ...]
    constraint_id: str | None = None
    constraint: Rule | None = None

    def __str__(self) -> str:
        facts = ", ".join(str(f) for f in self.facts)
        if self.constraint is None:
            return f"contradiction: {facts}"
        return f"constraint {self.constraint_id} violated by {facts}"


@dataclass
class Inference:
    """What one `infer` call did."""

    steps: int
    derived: int
    complete: bool
    violations: list[Violation] = field(default_factory=list)


@dataclass(slots=True)
class _Firing:
    """Shared by every fact one rule derived in one round (keeps provenance cheap)."""

    rule_id: str
    step: int
    plan: Plan


def _head_getter(head: Atom, plan: Plan) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    slots = {v: i for i, v in enumerate(plan.variables)}
    if not head.args:
        return lambda row: ()
    if all(isinstance(a, Var) for a in head.args):
        idx = [slots[a] for a in head.args]
        if len(idx) == 1:
            i = idx[0]
            return lambda row: (row[i],)
        return itemgetter(*idx)
    parts = [(True, slots[a]) if isinstance(a, Var) else (False, a) for a in head.args]
    return lambda row: tuple(row[v] if is_slot else v for is_slot, v in parts)


def instantiate(lit: Literal, binding: dict[Var, object]) -> Literal:
    if isinstance(lit, Atom):
        return instantiate_atom(lit, binding)
    if isinstance(lit, Naf):
        return Naf(instantiate_atom(lit.atom, binding))
    return Compare(lit.op, _sub(lit.left, binding), _sub(lit.right, binding))


def instantiate_atom(atom: Atom, binding: dict[Var, object]) -> Atom:
    return Atom(atom.pred, tuple(_sub(a, binding) for a in atom.args), atom.neg)


def _sub(t: Any, binding: dict[Var, object]) -> Any:
    return binding.get(t, t) if isinstance(t, Var) else t


class Engine:
    """Asserted facts and rules; computes and answers from their model."""

    def __init__(self) -> None:
        self._base: dict[str, dict[tuple[Any, ...], None]] = {}  # insertion-ordered sets
        self._rules: dict[str, Rule] = {}
        self._strata: dict[str, int] = {}
        self._runner = Runner({})
        self._complete = False
        self._fresh = False     # model reflects the current facts and rules
        self._limit: int | None = None  # the step limit the model was computed under
        self._firings: list[_Firing] = []
        self.steps = 0
        self.cancel: Event | None = None   # set by Esc / Ctrl+C, checked between rounds and in joins
        self.max_facts: int | None = None   # stop (UserError) past this many derived facts or join rows
        self.dense_from = DENSE_FROM  # asserted facts from which inference runs set-at-a-time (numpy)
        self.dense_after = DENSE_AFTER  # … or derived facts after which it switches to that path
        self._dense: DenseModel | None = None   # the last dense inference's model, for provenance

    # -- the program -------------------------------------------------------------

    def add_facts(self, atoms: Iterable[Atom]) -> int:
        """Assert ground facts; returns how many were new."""
        added = 0
        shape: tuple[str, int, bool] | None = None
        rel: dict[tuple[Any, ...], None] = {}
        for pred, args, neg in atoms:
            if shape != (pred, len(args), neg):  # runs of one relation skip the key lookup
                shape = (pred, len(args), neg)
                rel = self._base.setdefault(relation_key(*shape), {})
            before = len(rel)
            rel.setdefault(args)
            added += len(rel) - before
        if added:
            self._fresh = False
        return added

    def remove_fact(self, atom: Atom) -> bool:
        rel = self._base.get(atom.key)
        if not rel or atom.args not in rel:
            return False
        del rel[atom.args]
        self._fresh = False
        return True

    def is_asserted(self, atom: Atom) -> bool:
        return atom.args in self._base.get(atom.key, ())

    def add_rule(self, rule_id: str, rule: Rule) -> None:
        """Add a rule or constraint; an unstratifiable result raises and changes nothing."""
        self.add_rules({rule_id: rule})

    def add_rules(self, rules: dict[str, Rule]) -> None:
        """Add rules and constraints by id, all or nothing (stratified once)."""
        strata = stratify([*self._rules.values(), *rules.values()])  # raises before any change
        self._rules.update(rules)
        self._strata = strata
        self._fresh = False

    def add_program(self, clauses: Iterable[Atom | Rule], *, id_prefix: str = "r") -> list[str]:
        """Add facts and rules together (rules get ids `r1`, `r2`, …); all or nothing."""
        clauses = list(clauses)
        rules: dict[str, Rule] = {}
        number = len(self._rules)
        for c in clauses:
            if isinstance(c, Rule):
                number += 1
                while f"{id_prefix}{number}" in self._rules:
                    number += 1
                rules[f"{id_prefix}{number}"] = c
        self.check_rules(rules)
        self.add_facts([c for c in clauses if isinstance(c, Atom)])
        self.add_rules(rules)
        return list(rules)

    def check_rules(self, new: dict[str, Rule]) -> None:
        """Raise StratificationError if adding `new` would make the program unstratifiable."""
        stratify(list(self._rules.values()) + list(new.values()))

    def remove_rule(self, rule_id: str) -> bool:
        if self._rules.pop(rule_id, None) is None:
            return False
        self._strata = stratify(list(self._rules.values()))
        self._fresh = False
        return True

    @property
    def rules(self) -> dict[str, Rule]:
        return dict(self._rules)

    def relation_keys(self) -> set[str]:
        """Every relation mentioned by a fact or a rule."""
        keys = {k for k, v in self._base.items() if v}
        for rule in self._rules.values():
            if rule.head is not None:
                keys.add(rule.head.key)
            for lit in rule.body:
                if isinstance(lit, Atom):
                    keys.add(lit.key)
                elif isinstance(lit, Naf):
                    keys.add(lit.atom.key)
        return keys

    # -- inference ---------------------------------------------------------------

    def infer(self, max_steps: int | None = None) -> Inference:
        """Recompute the model from the asserted facts, stopping after `max_steps` rounds."""
        with gc_paused():
            return self._infer(max_steps)

    def _infer(self, max_steps: int | None) -> Inference:
        self._fresh = False  # an interrupted run must not leave a half-built model looking current
        self._firings = []
        self._dense = None
        if self._dense_fits() and (done := self._try_dense(max_steps)) is not None:
            return done
        relations: dict[str, Stored] = {k: dict.fromkeys(v) for k, v in self._base.items() if v}
        budget = Budget(self.cancel, self.max_facts)
        runner = self._runner = Runner(relations, budget)
        by_stratum: dict[int, list[tuple[str, Rule, Atom]]] = {}
        for rid, rule in self._rules.items():
            if rule.head is not None:
                by_stratum.setdefault(self._strata.get(rule.head.key, 0), []).append((rid, rule, rule.head))
        step, derived, complete = 0, 0, True
        switch_after: float = self.dense_after
        for level in sorted(by_stratum):
            rules = by_stratum[level]
            heads = {head.key for _, _, head in rules}
            # a plan, with its fused tail or else the function from a row to the head's args
            plans: dict[tuple[str, int | None], tuple[Plan, Tail | None, Callable[[Row], Row] | None]] = {}
            delta: dict[str, Relation] | None = None
            while True:
                new: dict[str, Relation] = {}
                budget.offset = derived
                for rid, rule, head in rules:
                    if delta is None:
                        positions: list[int | None] = [None]
                    else:
                        positions = [i for i, lit in enumerate(rule.body)
                                     if isinstance(lit, Atom) and lit.key in heads and delta.get(lit.key)]
                    for at in positions:
                        entry = plans.get((rid, at))
                        if entry is None:
                            plan = make_plan(rule.body, lambda k: len(relations.get(k, ())), delta_at=at)
                            tail = fused_tail(plan, head.args)
                            getter = _head_getter(head, plan) if tail is None else None
                            entry = plans[(rid, at)] = (plan, tail, getter)
                        plan, tail, head_of = entry
                        hk = head.key
                        have = relations.get(hk, {})
                        fresh = new.setdefault(hk, {})
                        # provenance refers to the firing by number: tuples of plain values stay
                        # untracked by the garbage collector, which otherwise rescans millions
                        firing = len(self._firings)
                        self._firings.append(_Firing(rid, step + 1, plan))
                        before = len(fresh)
                        if tail is not None:
                            derive_fused(runner, plan, delta, tail, have, fresh, firing)
                        else:
                            assert head_of is not None
                            for n, row in enumerate(runner.run(plan, delta), 1):
                                args = head_of(row)
                                if args not in have and args not in fresh:
                                    fresh[args] = (firing, row)
                                if not n % STRIDE:    # millions of rows take seconds: Esc stops them too
                                    budget.check(budget.offset + len(fresh) - before)
                        budget.offset += len(fresh) - before
                        budget.check(budget.offset)
                new = {k: v for k, v in new.items() if v}
                if not new:
                    break
                if max_steps is not None and step >= max_steps:
                    complete = False  # this round would add facts beyond the limit: drop them
                    break
                step += 1
                for k, facts in new.items():
                    runner.insert(k, facts)
                    derived += len(facts)
                if derived > switch_after:  # a small program with a large model: start again set-at-a-time
                    switch_after = float("inf")
                    if self._dense_fits(any_size=True) and (done := self._try_dense(max_steps)) is not None:
                        return done
                delta = new
            if not complete:
                break
        self.steps, self._complete, self._fresh, self._limit = step, complete, True, max_steps
        return Inference(step, derived, complete, self.violations() if complete else [])

    def _dense_fits(self, *, any_size: bool = False) -> bool:
        if not any_size and sum(len(v) for v in self._base.values()) < self.dense_from:
            return False
        try:
            from sym.core.logic.dense import supported
        except ImportError:  # numpy missing: the tuple path does everything
            return False
        return all(supported(rule) for rule in self._rules.values())

    def _try_dense(self, max_steps: int | None) -> Inference | None:
        """Infer set-at-a-time; None (and nothing changed) where the dense path cannot."""
        from sym.core.logic.dense import Unsupported
        from sym.core.logic.dense_rounds import TableView, infer_dense, load

        try:
            model = load(self._base, self._rules)
            budget = Budget(self.cancel, self.max_facts)
            step, derived, complete = infer_dense(model, self._rules, self._strata, budget, max_steps)
        except Unsupported:
            return None
        self._runner = Runner({k: TableView(model, k) for k, t in model.tables.items() if t.n}, budget)
        self._firings, self._dense = [], model
        self.steps, self._complete, self._fresh, self._limit = step, complete, True, max_steps
        return Inference(step, derived, complete, self.violations() if complete else [])

    def ensure_model(self, max_steps: int | None = None) -> None:
        """Compute the model unless the current one reflects the program under this step limit."""
        if not self.fresh_for(max_steps):
            self.infer(max_steps)

    def _current(self) -> None:
        if not self._fresh:
            self.infer(self._limit)

    def clear_model(self) -> None:
        """Forget the derived facts; the next answer recomputes them."""
        self._runner = Runner({})
        self._firings = []
        self._dense = None
        self._fresh = False

    def fresh_for(self, max_steps: int | None) -> bool:
        """Whether the current model reflects the program computed under this step limit."""
        return self._fresh and self._limit == max_steps

    @property
    def dense(self) -> bool:
        """Whether the current model was computed set-at-a-time (numpy) rather than tuple by tuple."""
        return self._dense is not None

    @property
    def complete(self) -> bool:
        return self._fresh and self._complete

    # -- answers -----------------------------------------------------------------

    def relation(self, key: str) -> Stored:
        """Model facts of one relation, a mapping args -> provenance marker (None = asserted)."""
        self._current()
        return self._runner.relations.get(key, {})

    def holds(self, atom: Atom) -> bool:
        return atom.args in self.relation(atom.key)

    def truth(self, atom: Atom, *, open_world: bool = False) -> str:
        """Three-valued truth of a ground atom (which may itself be strongly negated)."""
        if self.holds(atom):
            return TRUE
        if self.holds(atom.negate()) or not open_world:
            return FALSE
        return UNKNOWN

    def solve(self, query: Query | tuple[Literal, ...]) -> list[dict[Var, object]]:
        """All distinct bindings of the query's named variables, in model order."""
        self._current()
        body = query.body if isinstance(query, Query) else tuple(query)
        named = Query(body).variables()
        plan = make_plan(body, lambda k: len(self._runner.relations.get(k, ())))
        unbound = [v for v in named if v not in plan.variables]
        if unbound:  # e.g. ?- s(X), not q(Y).  Y is never bound, so it has no answers to print
            name = unbound[0].name
            raise UserError(f"variable {name} occurs only under `not`, so it is never bound",
                            hint=f"bind {name} with a positive atom first, or write _ in its place to mean 'none at all'")
        found = self._dense_rows(body, named)
        if found is not None:
            return [dict(zip(named, values)) for values in found]
        slots = [plan.variables.index(v) for v in named]
        seen: dict[tuple[Any, ...], None] = {}
        for row in self._runner.run(plan):
            seen.setdefault(tuple(row[i] for i in slots))
        return [dict(zip(named, values)) for values in seen]

    def _dense_rows(self, body: tuple[Literal, ...], wanted: list[Var]) -> list[tuple[Any, ...]] | None:
        """Distinct values of `wanted` over the body, run set-at-a-time on a dense model; None
        where the tuple runner answers instead."""
        if self._dense is None:
            return None
        from sym.core.logic.dense_query import rows

        return rows(self._dense, body, wanted, self._runner.budget)

    def facts(self, key: str | None = None, *, derived: bool | None = None) -> Iterator[Atom]:
        """Model facts, optionally only asserted (derived=False) or only derived (True)."""
        self._current()
        for k, rel in self._runner.relations.items():
            if key is not None and k != key:
                continue
            neg = k.startswith("~")
            pred = k[1 if neg else 0:k.rindex("/")]
            for args, prov in rel.items():
                if derived is None or (prov is not None) == derived:
                    yield Atom(pred, args, neg)

    def provenance(self, atom: Atom) -> Derivation | None:
        """The first derivation of a derived fact; None for asserted or absent facts."""
        prov = self.relation(atom.key).get(atom.args)
        if prov is None:
            return None
        if self._dense is not None:
            from sym.core.logic.dense_rounds import derivation

            found = derivation(self._dense, atom.key, atom.args)
            if found is None:   # cannot happen: prov marks a derived fact
                return None
            rule_id, step, binding = found
            rule = self._rules[rule_id]
            return Derivation(atom, rule_id, rule, step, tuple(instantiate(lit, binding) for lit in rule.body))
        number, *payload = prov
        firing = self._firings[number]
        binding = dict(zip(firing.plan.variables, full_row(firing.plan, tuple(payload))))
        rule = self._rules[firing.rule_id]
        premises = tuple(instantiate(lit, binding) for lit in rule.body)
        return Derivation(atom, firing.rule_id, rule, firing.step, premises)

    def violations(self) -> list[Violation]:
        """Integrity-constraint violations and p / ~p contradictions in the model."""
        self._current()
        relations = self._runner.relations
        out: list[Violation] = []
        for key, rel in relations.items():
            if key.startswith("~") and key[1:] in relations:
                positive = relations[key[1:]]
                pred = key[1:key.rindex("/")]
                if self._dense is not None:
                    from sym.core.logic.dense_query import contradictions

                    both = contradictions(self._dense, key)
                else:
                    both = [args for args in rel if args in positive]
                out += [Violation((Atom(pred, args), Atom(pred, args, True))) for args in both]
        for rid, rule in self._rules.items():
            if rule.head is not None:
                continue
            plan = make_plan(rule.body, lambda k: len(relations.get(k, ())))
            found = self._dense_rows(rule.body, plan.variables)
            for row in self._runner.run(plan) if found is None else found:
                binding = dict(zip(plan.variables, row))
                facts = tuple(instantiate_atom(a, binding) for a in literal_atoms(rule.body))
                out.append(Violation(facts, rid, rule))
        return out
