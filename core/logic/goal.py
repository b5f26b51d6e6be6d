"""Goal-directed answers: a question evaluates only the rules its relations depend on, rewritten
for its bound arguments (`magic`), in a goal model of its own. Goal models share the engine's fact
base, are kept (least recently used dropped), go on from facts added later where no `not` reads
what grew, and are dropped when a rule they read changes or a fact is retracted. A question on
stored relations only runs no rule. This room never computes the whole model; the engine does.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any

from sym.core.errors import StratificationError
from sym.core.logic.derivation import FALSE, TRUE, UNKNOWN, Derivation, Violation, unbound_names
from sym.core.logic.magic import Demand, Rewrite
from sym.core.logic.plan import Row
from sym.core.logic.slice import body_keys
from sym.core.logic.terms import Atom, Literal, Var

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sym.core.logic.engine import Engine
    from sym.core.logic.slice import Dependencies

KEPT = 8              # goal models kept
DENSE_WIDTH = 256     # a demand program goes set-at-a-time only once its rounds derive this many facts each


@dataclass
class GoalModel:
    engine: Engine     # the rewritten program over the shared fact base
    demand: Demand
    depths: dict[Atom, int] = field(default_factory=dict)   # derived facts' proof depths, found so far


class Goals:
    """The goal models of one engine, and the answers read from them."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.models: OrderedDict[Any, GoalModel] = OrderedDict()
        self.checks: GoalModel | None = None   # the model of what constraints and clashes read, kept as memory grows

    # -- answers -------------------------------------------------------------------

    def rows(self, body: tuple[Literal, ...], named: list[Var]) -> Sequence[tuple[Any, ...]]:
        """The distinct values of `named` over the body's bindings (as `Engine.rows` on the whole model)."""
        unbound_names(body, named)
        parts = _apart(body)
        if len(parts) > 1:
            return self._product(parts, named)
        demand = self._demand(body)
        model = self._model(demand)
        goal = body if model.demand.answer is None or demand.answer is None else (demand.answer,)  # factored: its answers
        return model.engine.rows(goal, named)

    def _product(self, parts: list[tuple[Atom, ...]], named: list[Var]) -> list[tuple[Any, ...]]:
        """A conjunction of goals that share no variable: each answered alone (a ground one as a
        truth, with its own goal model), then their answers joined, so `?- p2(m0, X), p(n0, n7).`
        costs its goals and the join, not a demand program asking for both at once."""
        found: list[tuple[list[Var], Sequence[tuple[Any, ...]]]] = []
        for part in parts:
            wanted = [v for v in named if any(v in atom.args for atom in part)]
            rows = ([()] if self.holds(part[0]) else []) if len(part) == 1 and part[0].is_ground else \
                self.rows(part, wanted)
            if not rows:
                return []
            found.append((wanted, rows))
        order = [v for wanted, _ in found for v in wanted]
        pick = [order.index(v) for v in named]
        return [tuple(row[i] for i in pick) for row in
                (tuple(value for chunk in combo for value in chunk) for combo in product(*(rows for _, rows in found)))]

    def holds(self, atom: Atom) -> bool:
        if not atom.is_ground:
            return False
        decided = self._decided(atom)
        if decided is not None:
            return decided
        return self._ground(atom)

    def _ground(self, atom: Atom) -> bool:
        """Whether a ground atom holds, from its goal model (a factored one where its recursion
        carries a constant unchanged: then its answer is the atom)."""
        demand = self._demand((atom,), carried=True)
        model = self._model(demand)
        if demand.answer is not None:
            return demand.answer.args in model.engine.relation(demand.answer.key)
        return atom.args in model.engine.relation(atom.key)

    def truth(self, atom: Atom, *, open_world: bool = False) -> str:
        """Three-valued truth of a ground atom: its strong negation is asked for with it."""
        negation = atom.negate()
        asked = (atom, negation) if open_world and self._known(negation.key) else (atom,)
        found = [self._decided(a) for a in asked]
        if len(asked) == 1 and found[0] is None:
            found = [self._ground(atom)]
        elif any(v is None for v in found):
            model = self._model(self._demand(*((a,) for a in asked)))
            found = [a.args in model.engine.relation(a.key) for a in asked]
        if found[0]:
            return TRUE
        if not open_world or (len(found) > 1 and found[1]):
            return FALSE
        return UNKNOWN

    def provenance(self, atom: Atom) -> Derivation | None:
        """The first derivation of a derived fact in the goal model that holds it (the one a
        proof tree's root came from holds all its premises, so a tree never mixes models)."""
        model = self._holding(atom)
        if model is None:
            if not atom.is_ground:
                return None
            model = self._model(self._demand((atom,)))
            if atom.args not in model.engine.relation(atom.key):
                return None
        found = self._derivation(model, atom)
        if found is None:
            return None
        return Derivation(atom, found.rule_id, found.rule, self._depth(model, atom), found.premises)

    def _derivation(self, model: GoalModel, atom: Atom) -> Derivation | None:
        """A goal model's derivation of a fact, in the terms of the rules it was rewritten from."""
        found = model.engine.provenance(atom)
        if found is None:
            return None
        rule_id, guards = model.demand.origin[found.rule_id]
        rule = self.engine.dependencies().rules[rule_id]
        return Derivation(atom, rule_id, rule, found.step, found.premises[guards:])

    def _depth(self, model: GoalModel, atom: Atom) -> int:
        """A fact's step as its proof's depth: one more than its deepest derived premise. A goal
        model's rounds also find what was asked for (magic facts); numbered by depth, a proof's
        steps do not depend on how its question was evaluated."""
        depths = model.depths
        stack = [atom]
        while stack:
            top = stack[-1]
            if top in depths:
                stack.pop()
                continue
            found = self._derivation(model, top)
            premises = [] if found is None else [p for p in found.premises if isinstance(p, Atom)]
            waiting = [p for p in premises if p not in depths]
            if waiting:
                stack += waiting
                continue
            depths[top] = 1 + max((depths[p] for p in premises), default=0) if found is not None else 0
            stack.pop()
        return depths[atom]

    def violations(self) -> list[Violation]:
        """Constraint violations and p / ~p clashes, from the slice of the relations they read."""
        deps = self.engine.dependencies()
        constraints = self.engine.constraints()
        keys = self.engine.relation_keys()
        wanted = {k for k in keys if k.startswith("~") and k[1:] in keys}
        wanted |= {k[1:] for k in wanted}
        for rule in constraints.values():
            wanted |= {key for key, _ in body_keys(rule.body)}
        if not wanted:
            return []
        scope = deps.closure(wanted)
        rules = {**deps.rules_for(scope), **constraints}
        demand = Demand(rules, [], {rid: (rid, 0) for rid in rules}, scope, {k for k in scope if deps.derived(k)})
        return self._checked(demand).engine.violations()

    def _checked(self, demand: Demand) -> GoalModel:
        """The model constraints and clashes are read from, current: the one kept goes on from the
        facts and rules added since (its engine runs a new rule once on it, then rounds from what it
        derived) where it can, so a check after /tell costs what the told clauses reach."""
        model = self.checks
        if model is None or not (model.demand.rules.items() <= demand.rules.items() and model.demand.keys <= demand.keys):
            model = self._make(demand)
            model.engine.dense_from, model.engine.dense_after = float("inf"), 1 << 62   # tuples: a model that can go on
        else:
            engine, base = model.engine, self.engine.base()
            engine.add_rules({rid: r for rid, r in demand.rules.items() if rid not in model.demand.rules})
            entered = {k: base[k] for k in demand.keys - model.demand.keys if base.get(k)}
            engine.share(entered)
            engine.note_added({k: list(rel) for k, rel in entered.items()})
            model.demand = demand
        self.checks = None
        engine = model.engine
        engine.stops_as(self.engine)
        engine.current()     # stopped half way (max_facts, Esc): nothing half-built is kept
        self.checks = model
        return model

    # -- goal models ---------------------------------------------------------------

    def _known(self, key: str) -> bool:
        return self.engine.dependencies().derived(key) or bool(self.engine.base().get(key))

    def _demand(self, *bodies: tuple[Literal, ...], carried: bool = False) -> Demand:
        deps = self.engine.dependencies()
        taken = set(deps.reads) | {k for keys in deps.reads.values() for k in keys} | set(self.engine.base())
        return Rewrite(deps, taken).demand(*bodies, carried=carried)

    def _model(self, demand: Demand) -> GoalModel:
        """The goal model of a demand's program, with its seeds added, current."""
        key = (frozenset(demand.rules.items()), frozenset(demand.keys))
        model = self.models.get(key)
        if model is None:
            model = self._make(demand)
            self.models[key] = model
            while len(self.models) > KEPT:
                self.models.popitem(last=False)
        else:
            self.models.move_to_end(key)
        engine = model.engine
        engine.stops_as(self.engine)      # the deadline shared: armed by the memory per question
        try:
            engine.add_facts(demand.seeds)
            engine.current()            # computed, or gone on from the seeds just added
        except BaseException:
            self.models.pop(key, None)  # stopped half way (max_facts, Esc): nothing half-built is kept
            raise
        return model

    def _make(self, demand: Demand) -> GoalModel:
        engine = type(self.engine)(goal_directed=False)   # the same engine, over a slice
        base = self.engine.base()
        engine.share({k: base[k] for k in demand.keys if k in base}, self.engine.shared_indexes())
        narrow = bool(demand.guarded) or demand.answer is not None
        # a demand program is narrow: fact by fact, and set-at-a-time only once its rounds are wide;
        # a slice alone (nothing bound) runs as the whole model would
        if narrow:
            engine.dense_from, engine.dense_width, engine.queue = float("inf"), DENSE_WIDTH, True
        labels = demand.labels
        engine.label = lambda key: labels.get(key, key)
        try:
            engine.add_rules(demand.rules)
        except StratificationError:     # cannot happen (`not` reads whole relations): answer from the slice
            deps = self.engine.dependencies()
            rules = deps.rules_for(demand.keys)
            demand = Demand(rules, [], {rid: (rid, 0) for rid in rules}, demand.keys,
                            {k for k in demand.keys if deps.derived(k)})
            engine.add_rules(demand.rules)
        return GoalModel(engine, demand)

    def _whole(self, model: GoalModel, atom: Atom, deps: Dependencies) -> bool:
        """Whether a goal model holds every fact of the atom's relation that the atom could be."""
        key, demand = atom.key, model.demand
        if key not in demand.keys:
            return False
        if not deps.derived(key) or key in demand.complete:
            return True
        guard = demand.guarded.get(key)
        if guard is None:
            return False
        magic, positions = guard
        return tuple(atom.args[i] for i in positions) in model.engine.relation(magic)

    def _holding(self, atom: Atom) -> GoalModel | None:
        """The most recently used goal model that holds the atom, made most recent; else the model
        of the checks, where it holds the atom (a clash's proof is read from the model that found it)."""
        for key, model in reversed(self.models.items()):
            if atom.key in model.demand.keys and atom.args in model.engine.relation(atom.key):
                self.models.move_to_end(key)
                return model
        checks = self.checks
        if checks is not None and checks.engine.complete and atom.key in checks.demand.keys \
                and atom.args in checks.engine.relation(atom.key):
            return checks
        return None

    def _decided(self, atom: Atom) -> bool | None:
        """Whether a goal model at hand settles the atom: True or False, or None where none does."""
        if self._holding(atom) is not None:
            return True
        deps = self.engine.dependencies()
        for model in reversed(self.models.values()):
            if self._whole(model, atom, deps):
                return False
        return None

    # -- changes -------------------------------------------------------------------

    def added(self, news: dict[str, list[Row]]) -> None:
        """Facts were asserted: each goal model reading them goes on from them, or is dropped."""
        base = self.engine.base()
        kept = [*self.models.items(), *([(None, self.checks)] if self.checks is not None else [])]
        for key, model in kept:
            touched = {k: rows for k, rows in news.items() if k in model.demand.keys}
            if not touched:
                continue
            model.engine.share({k: base[k] for k in touched})
            model.depths.clear()        # a derived fact may be asserted now
            if not model.engine.note_added(touched):
                if key is None:
                    self.checks = None
                else:
                    del self.models[key]

    def forget(self, keys: set[str] | None, *, added: bool = False) -> None:
        """Drop the goal models reading any of `keys` (None: all). Rules were `added` (not removed
        or replaced): the model constraints are read from is kept, to go on from them."""
        for key, model in list(self.models.items()):
            if keys is None or keys & model.demand.keys:
                del self.models[key]
        if not added:
            self.checks = None


def _apart(body: tuple[Literal, ...]) -> list[tuple[Atom, ...]]:
    """A body of atoms split into the groups that share variables (one group: not split; a body
    with anything but atoms is not split)."""
    if len(body) < 2 or not all(isinstance(lit, Atom) for lit in body):
        return [tuple(lit for lit in body if isinstance(lit, Atom))]
    groups: list[tuple[set[Var], list[Atom]]] = []
    for lit in body:
        assert isinstance(lit, Atom)
        mine = set(lit.variables())
        joined = [g for g in groups if g[0] & mine]
        merged: tuple[set[Var], list[Atom]] = (mine, [])
        for g in joined:
            merged[0].update(g[0])
            merged[1].extend(g[1])
            groups.remove(g)
        merged[1].append(lit)
        groups.append(merged)
    return [tuple(sorted(atoms, key=body.index)) for _, atoms in groups]
