"""The semi-naive forward-chaining engine: asserted facts + rules -> a materialised model.

Strata are evaluated in order; within one, each round joins only against the facts new
in the previous round. Every derived fact keeps its first derivation (rule, step, the
binding that fired it), from which `provenance` rebuilds the premises on demand.
The engine holds no ids of its own beyond the rule ids its caller gives it. Large programs
(by asserted or derived facts) run the same rounds set-at-a-time over numpy columns
(`dense_rounds`), keeping provenance columnar; small ones stay on tuples (`rounds`). Facts added
to a current tuple model whose growth no `not` reads continue its rounds. Until the whole model
is asked for, answers come goal-directed from the part a question needs (`goal`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from itertools import islice
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sym.core.logic.derivation import FALSE as FALSE  # the three truth values, from here too
from sym.core.logic.derivation import TRUE as TRUE
from sym.core.logic.derivation import UNKNOWN as UNKNOWN
from sym.core.logic.derivation import Derivation as Derivation  # callers import these three from here
from sym.core.logic.derivation import Inference as Inference
from sym.core.logic.derivation import Violation as Violation
from sym.core.logic.derivation import instantiate, unbound_names
from sym.core.logic.facts import FactBase
from sym.core.logic.goal import Goals
from sym.core.logic.onward import go_on
from sym.core.logic.pause import Budget, Deadline, gc_paused
from sym.core.logic.plan import Indexes, Row, Runner, Stored
from sym.core.logic.rounds import Firing, run_rounds
from sym.core.logic.slice import Dependencies, body_keys
from sym.core.logic.strata import Strata
from sym.core.logic.terms import Atom, Literal, Query, Rule, Var
from sym.core.logic.violations import firing_derivation, model_violations
from sym.core.stop import UNBOUNDED, Stop

if TYPE_CHECKING:
    from collections.abc import Sequence
    from threading import Event

    from sym.core.logic.dense import DenseModel
    from sym.core.logic.goal import Goals

DENSE_FROM = 2_000     # from this many asserted facts inference runs set-at-a-time; below, the tuple path answers in ~1 ms
DENSE_AFTER = 50_000   # a tuple-path inference that has derived this many facts starts again set-at-a-time


class Engine:
    """Asserted facts and rules; computes and answers from their model."""

    def __init__(self, *, goal_directed: bool = True) -> None:
        self._asserted = FactBase()
        self._base = self._asserted.own       # insertion-ordered sets of argument tuples, by relation
        self._rules: dict[str, Rule] = {}
        self._mentioned: dict[str, int] = {}      # relation -> how many rules mention it, kept as rules come and go
        self._constraints: dict[str, Rule] = {}
        self._stratification = Strata()   # kept as rules are added, updated from the new ones where it can
        self._strata: dict[str, int] = {}
        self._deps: Dependencies | None = None
        self._runner = Runner({})
        self._complete = False
        self._fresh = False     # model reflects the current facts and rules
        self._pending: dict[str, list[Row]] | None = None  # … but for these added facts, which rounds may go on from
        self._pending_rules: dict[str, Rule] = {}   # … and these added rules, run once on it before the rounds go on
        self._limit: int | None = None  # the step limit the model was computed under
        self._firings: list[Firing] = []
        self.steps = 0
        # what stops its work: the run's Stop (cancel, checked between rounds and in joins; max_facts,
        # derived facts or join rows) and the deadline of one question, armed by its memory (query_timeout)
        self.stop: Stop = UNBOUNDED
        self.deadline = Deadline()
        self.dense_from: float = DENSE_FROM  # asserted facts from which inference runs set-at-a-time (numpy)
        self.dense_after = DENSE_AFTER  # … or derived facts after which it switches to that path
        self.dense_width = 0          # … when its rounds derive at least this many facts each, on average
        self.queue = False            # linear strata go on fact by fact after their first round (narrow programs)
        self.label: Callable[[str], str] | None = None   # names a rewritten program's relations in messages
        self._dense: DenseModel | None = None   # the last dense inference's model, for provenance
        self.goal_directed = goal_directed      # answer from what a question needs until the model is asked for
        self._goals: Goals | None = None

    # -- the program -------------------------------------------------------------

    def add_facts(self, atoms: Iterable[Atom]) -> int:
        """Assert ground facts; returns how many were new."""
        news = self._asserted.add(atoms)
        added = sum(len(v) for v in news.values())
        if added and (self._asserted.symbols is not None or self._asserted.size() >= self.dense_from):
            self._asserted.encode(news)   # kept as columns from now on: an inference reads them as they are
        if added:
            self.note_added(news)
            if self._goals is not None:
                self._goals.added(news)
        return added

    def note_added(self, news: dict[str, list[Row]]) -> bool:
        """Asserted facts are new (already in the fact base): a current tuple model whose growth
        no `not` reads goes on from them when next asked (True); any other is recomputed (False)."""
        if self._fresh or self._pending is not None:
            if self._dense is None and self._complete and self._limit is None and self.dependencies().monotone(news):
                pending = self._pending if self._pending is not None else {}
                for key, rows in news.items():
                    pending.setdefault(key, []).extend(rows)
                self._pending = pending
            else:
                self._pending = None
        self._fresh = False
        return self._pending is not None

    def remove_fact(self, atom: Atom) -> bool:
        if not self._asserted.remove(atom):
            return False
        self._fresh, self._pending, self._pending_rules = False, None, {}
        if self._goals is not None:
            self._goals.forget(None)   # goal models share the fact base: retraction recomputes
        return True

    def is_asserted(self, atom: Atom) -> bool:
        return self._asserted.holds(atom)

    def add_rule(self, rule_id: str, rule: Rule) -> None:
        """Add a rule or constraint; an unstratifiable result raises and changes nothing."""
        self.add_rules({rule_id: rule})

    def add_rules(self, rules: dict[str, Rule]) -> None:
        """Add rules and constraints by id, all or nothing (a `check_rules` of the same rules just
        before is not repeated)."""
        replaced = any(rid in self._rules for rid in rules)
        if replaced:    # a rule replaced under its id: stratified anew
            self._stratification = Strata([*(r for rid, r in self._rules.items() if rid not in rules), *rules.values()])
        else:
            self._stratification.add(rules.values())    # raises before any change
        self._mention([(rid, self._rules[rid]) for rid in rules if rid in self._rules], -1)
        self._rules.update(rules)
        self._mention(rules.items(), +1)
        self._strata = self._stratification.levels
        if replaced:
            self._deps = None
        elif self._deps is not None:      # who reads whom: the new rules' edges added, not read again
            self._deps.added(rules)
        self._program_changed(rules, added=not replaced, go_on=not replaced and self._goes_on(rules))

    def _goes_on(self, rules: dict[str, Rule]) -> bool:
        """Whether a current tuple model goes on from rules just added (each run once on it, then
        rounds from what they derived) rather than being recomputed: where no `not` or aggregate
        reads what they (or the facts and rules added before, still pending) can grow."""
        if not (self._fresh or self._pending is not None) or self._dense is not None:
            return False
        if not self._complete or self._limit is not None:
            return False
        grown = {r.head.key for r in [*rules.values(), *self._pending_rules.values()] if r.head is not None}
        return self.dependencies().monotone(grown | set(self._pending or ()))

    def _program_changed(self, rules: dict[str, Rule], *, added: bool = False, go_on: bool = False) -> None:
        if go_on:
            self._fresh = False
            self._pending = {} if self._pending is None else self._pending
            self._pending_rules.update(rules)
        else:
            self._fresh, self._pending, self._pending_rules = False, None, {}
        if not added:
            self._deps = None
        if self._goals is not None:
            heads = [rule.head for rule in rules.values()]
            self._goals.forget(None if None in heads else {head.key for head in heads if head is not None}, added=added)

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
        self._stratification.check(new.values())

    def remove_rule(self, rule_id: str) -> bool:
        rule = self._rules.pop(rule_id, None)
        if rule is None:
            return False
        self._mention([(rule_id, rule)], -1)
        self._stratification = Strata(self._rules.values())
        self._strata = self._stratification.levels
        self._program_changed({rule_id: rule})
        return True

    def _mention(self, rules: Iterable[tuple[str, Rule]], sign: int) -> None:
        """Count the relations these rules mention in (+1) or out (-1), and keep the constraints."""
        mentioned = self._mentioned
        for rid, rule in rules:
            for key in ([rule.head.key] if rule.head is not None else []) + [k for k, _ in body_keys(rule.body)]:
                count = mentioned[key] = mentioned.get(key, 0) + sign
                if count <= 0:
                    del mentioned[key]
            if rule.head is None:
                if sign > 0:
                    self._constraints[rid] = rule
                else:
                    self._constraints.pop(rid, None)

    @property
    def rules(self) -> dict[str, Rule]:
        return dict(self._rules)

    def constraints(self) -> dict[str, Rule]:
        """The integrity constraints (rules without a head), by id."""
        return dict(self._constraints)

    def dependencies(self) -> Dependencies:
        """Who reads whom among the rules (kept until the rules change)."""
        if self._deps is None:
            self._deps = Dependencies(self._rules)
        return self._deps

    @property
    def goals(self) -> Goals:
        """Goal-directed answers: each question evaluates only what it needs (see `goal`)."""
        if self._goals is None:
            self._goals = Goals(self)
        return self._goals

    def base(self) -> Mapping[str, dict[tuple[Any, ...], None]]:
        """The asserted facts by relation (read-only: goal models share them)."""
        return self._base

    def share(self, facts: Mapping[str, dict[tuple[Any, ...], None]], indexes: dict[str, Indexes] | None = None) -> None:
        """Read these fact sets as asserted too, without copying (a goal model reads its engine's),
        and the indexes on them that their owner keeps current (`indexes`, added to on first use)."""
        self._asserted.share(facts, indexes)

    def shared_indexes(self) -> dict[str, Indexes]:
        """Indexes of asserted relations that this engine keeps current as facts are added."""
        return self._asserted.indexes

    def relation_keys(self) -> set[str]:
        """Every relation mentioned by a fact or a rule."""
        return self._asserted.keys() | set(self._mentioned)

    # -- inference ---------------------------------------------------------------

    def infer(self, max_steps: int | None = None, *, query: bool = False) -> Inference:
        """Recompute the model from the asserted facts, stopping after `max_steps` rounds
        (`query`: computed to answer a question, which a stop at max_facts names)."""
        with gc_paused():
            return self._infer(max_steps, query)

    @property
    def cancel(self) -> Event | None:
        return self.stop.cancel

    @cancel.setter
    def cancel(self, event: Event | None) -> None:
        self.stop = replace(self.stop, cancel=event)

    @property
    def max_facts(self) -> int | None:
        return self.stop.max_facts

    @max_facts.setter
    def max_facts(self, most: int | None) -> None:
        self.stop = replace(self.stop, max_facts=most)

    def stops_as(self, other: Engine) -> Engine:
        """Stop as `other` does (a helper engine of its question): its Stop and its deadline, shared."""
        self.stop, self.deadline = other.stop, other.deadline
        return self

    def _budget(self, query: bool) -> Budget:
        return Budget(self.stop.cancel, self.stop.max_facts, query=query, label=self.label, deadline=self.deadline)

    def _infer(self, max_steps: int | None, query: bool = False) -> Inference:
        # an interrupted run must not leave a half-built model looking current
        self._fresh, self._pending, self._pending_rules = False, None, {}
        self._firings = []
        self._dense = None
        budget = self._budget(query)
        if self._dense_fits() and (done := self._try_dense(max_steps, budget)) is not None:
            return done
        heads = {rule.head.key for rule in self._rules.values() if rule.head is not None}
        # relations no rule derives are the fact base's own sets: nothing is copied for them
        relations: dict[str, Stored] = {k: dict.fromkeys(v) if k in heads else v for k, v in self._asserted.all().items() if v}
        runner = self._runner = Runner(relations, budget)
        self._asserted.share_indexes(runner, heads)
        switched: list[Inference] = []
        tried = False

        def switch(derived: int, steps: int) -> bool:  # a small program with a large model: start again set-at-a-time
            nonlocal tried
            if tried or derived < self.dense_width * steps:
                return False
            tried = True
            if self._dense_fits(any_size=True) and (done := self._try_dense(max_steps, budget)) is not None:
                switched.append(done)
                return True
            return False

        ran = run_rounds(runner, self._firings, self._rules, self._strata, budget, max_steps=max_steps,
                         switch_after=self.dense_after, switch=switch, queue=self.queue)
        if ran is None:
            return switched[0]
        step, derived, complete = ran
        self.steps, self._complete, self._fresh, self._limit = step, complete, True, max_steps
        return Inference(step, derived, complete, self.violations() if complete else [])

    def _dense_fits(self, *, any_size: bool = False) -> bool:
        if not any_size and self._asserted.size() < self.dense_from:
            return False
        try:
            from sym.core.logic.dense import supported
        except ImportError:  # numpy missing: the tuple path does everything
            return False
        return all(supported(rule) for rule in self._rules.values())

    def _try_dense(self, max_steps: int | None, budget: Budget) -> Inference | None:
        """Infer set-at-a-time; None (and nothing changed) where the dense path cannot."""
        from sym.core.logic.dense import Unsupported
        from sym.core.logic.dense_rounds import TableView, infer_dense, load

        try:
            model = load(self._asserted.all(), self._rules, *self._asserted.encoded())
            step, derived, complete = infer_dense(model, self._rules, self._strata, budget, max_steps)
        except Unsupported:
            return None
        self._runner = Runner({k: TableView(model, k) for k, t in model.tables.items() if t.n}, budget)
        self._firings, self._dense = [], model
        self.steps, self._complete, self._fresh, self._limit = step, complete, True, max_steps
        return Inference(step, derived, complete, self.violations() if complete else [])

    def _continue(self) -> None:
        """Go on from the facts and rules added since the model was computed (only what follows
        from them): each added rule runs once on the whole model, then rounds go on from what is new."""
        pending, self._pending = self._pending, None
        rules, self._pending_rules = self._pending_rules, {}
        assert pending is not None   # called only with added facts or rules to go on from
        runner = self._runner
        with gc_paused():
            runner.budget = self._budget(True)
            self.steps = go_on(runner, self._firings, self._rules, self._strata, rules, pending, self._asserted.all(),
                               self._asserted.share_indexes, step=self.steps, queue=self.queue)
        self._fresh = True

    def ensure_model(self, max_steps: int | None = None) -> None:
        """Compute the model unless the current one reflects the program under this step limit."""
        if self._pending is not None and max_steps is None and self._limit is None:
            self._continue()
        elif not self.fresh_for(max_steps):
            self.infer(max_steps)

    def current(self) -> None:
        """Bring the model up to date: go on from added facts where it can, else recompute."""
        self._current()

    def _current(self) -> None:
        if self._fresh:
            return
        if self._pending is not None:
            self._continue()
        else:
            self.infer(self._limit, query=True)

    def clear_model(self) -> None:
        """Forget the derived facts; the next answer recomputes them."""
        self._runner = Runner({})
        self._firings = []
        self._dense = None
        self._fresh, self._pending, self._pending_rules = False, None, {}
        if self._goals is not None:
            self._goals.forget(None)

    def unlimited(self) -> None:
        """Answer as if no step limit had been asked for: a model computed under one is dropped,
        so answers come goal-directed again (or from the whole model once it is asked for)."""
        if self._limit is not None:
            self.clear_model()
            self._limit = None

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

    def _goal_directed(self) -> bool:
        """Whether answers come from goal models: the whole model is not current, and no step limit
        was asked for (a limited model answers as it stands)."""
        return self.goal_directed and not self._fresh and self._limit is None

    # -- answers -----------------------------------------------------------------

    def relation(self, key: str) -> Stored:
        """Model facts of one relation, a mapping args -> provenance marker (None = asserted)."""
        self._current()
        return self._runner.relations.get(key, {})

    def holds(self, atom: Atom) -> bool:
        if self._goal_directed():
            return self.goals.holds(atom)
        return atom.args in self.relation(atom.key)

    def truth(self, atom: Atom, *, open_world: bool = False) -> str:
        """Three-valued truth of a ground atom (which may itself be strongly negated)."""
        if self._goal_directed():
            return self.goals.truth(atom, open_world=open_world)
        if self.holds(atom):
            return TRUE
        if self.holds(atom.negate()) or not open_world:
            return FALSE
        return UNKNOWN

    def solve(self, query: Query | tuple[Literal, ...]) -> list[dict[Var, object]]:
        """All distinct bindings of the query's named variables, in model order."""
        body = query.body if isinstance(query, Query) else tuple(query)
        named = Query(body).variables()
        if self._goal_directed():
            return [dict(zip(named, values)) for values in self.goals.rows(body, named)]
        self._current()
        return [dict(zip(named, values)) for values in self.rows(body, named)]

    def rows(self, body: tuple[Literal, ...], named: list[Var]) -> Sequence[tuple[Any, ...]]:
        """The distinct values of `named` over the body's bindings in the current model, in model order."""
        plan = unbound_names(body, named, lambda k: len(self._runner.relations.get(k, ())))
        found = self._dense_rows(body, named)
        if found is not None:
            return found
        slots = [plan.variables.index(v) for v in named]
        found = self._runner.run(plan)
        if slots == list(range(len(plan.variables))):
            return list(dict.fromkeys(found))
        pick = itemgetter(*slots) if len(slots) > 1 else (lambda row: (row[slots[0]],)) if slots else (lambda row: ())
        return list(dict.fromkeys(map(pick, found)))

    def _dense_rows(self, body: tuple[Literal, ...], wanted: list[Var]) -> Sequence[tuple[Any, ...]] | None:
        """Distinct values of `wanted` over the body, run set-at-a-time on a dense model; None
        where the tuple runner answers instead."""
        if self._dense is None:
            return None
        from sym.core.logic.dense_query import rows

        return rows(self._dense, body, wanted, self._runner.budget)

    def facts(self, key: str | None = None, *, derived: bool | None = None, offset: int = 0,
              limit: int | None = None) -> Iterator[Atom]:
        """Model facts, optionally only asserted (derived=False) or only derived (True), in model
        order; `offset` and `limit` page them."""
        self._current()
        return islice(self._model_facts(key, derived), offset, None if limit is None else offset + limit)

    def count_facts(self, key: str | None = None, *, derived: bool | None = None) -> int:
        """How many model facts `facts` would give (without a page)."""
        self._current()
        rels = self._runner.relations
        chosen = rels.values() if key is None else [rels.get(key, {})]
        if derived is None:
            return sum(map(len, chosen))
        return sum(1 for rel in chosen for prov in rel.values() if (prov is not None) == derived)

    def _model_facts(self, key: str | None, derived: bool | None) -> Iterator[Atom]:
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
        if self._goal_directed():
            return self.goals.provenance(atom)
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
        return firing_derivation(self._firings, self._rules, atom, prov)

    def violations(self) -> list[Violation]:
        """Integrity-constraint violations and p / ~p contradictions in the model."""
        if self._goal_directed():
            return self.goals.violations()
        self._current()
        return model_violations(self._runner.relations, self._rules, self._dense, self._runner.run, self._dense_rows)
