"""/check: the working memory's facts, rules and constraints as a Z3 theory, and whether
it is consistent — with the unsat core given as memory item ids.

The translation is classical over the finite domain of the memory's constants (one enum
sort, so unique names and domain closure hold): a predicate is a Bool function, a rule is a
ForAll implication, strong negation ~p is Not(p), `not p` (negation as failure) is read
classically as Not(p), a constraint `:- body` is Not(And(body)). Comparisons use the
engine's order: numbers by value, atoms alphabetically, never a number against an atom.
Soft rules (applied by the LLM) are left out, as the engine leaves them out.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from core.errors import Cancelled
from core.logic.terms import Atom, Compare, Naf, Rule, Var, clause_atoms, format_const
from core.reason.pot.interpret import gave_up, interruptible


@dataclass
class Consistency:
    consistent: bool | None             # None: Z3 could not decide in time
    core: list[str] = field(default_factory=list)   # memory item ids
    checked: int = 0                    # how many items went into the theory
    reason: str = ""

    def to_dict(self) -> dict:
        out: dict = {"consistent": self.consistent, "checked": self.checked, "core": self.core}
        if self.reason:
            out["reason"] = self.reason
        return out


def _constants(items) -> list:
    seen: dict = {}
    for it in items:
        clause = it.clause
        lits = [clause] if isinstance(clause, Atom) else [*([clause.head] if clause.head else []), *clause.body]
        for lit in lits:
            terms = [lit.left, lit.right] if isinstance(lit, Compare) else (lit.atom if isinstance(lit, Naf)
                                                                            else lit).args
            for t in terms:
                if not isinstance(t, Var):
                    seen.setdefault((type(t) is str, t), None)
    return list(seen)


class Theory:
    """Z3 declarations for one memory: the domain, the predicates, the order for comparisons."""

    def __init__(self, items):
        import z3

        self.ctx = z3.Context()
        consts = _constants(items) or [(True, "nothing")]
        names = [format_const(v) for _, v in consts]
        self.sort, values = z3.EnumSort("Obj", names, ctx=self.ctx)
        self.value = {c: v for c, v in zip(consts, values)}
        self.is_atom = z3.Function("is_atom", self.sort, z3.BoolSort(self.ctx))
        self.rank = z3.Function("rank", self.sort, z3.RealSort(self.ctx))
        self.preds: dict = {}
        self.background = []
        atoms = sorted(v for is_str, v in consts if is_str)
        for is_str, v in consts:
            key = (is_str, v)
            self.background.append(self.is_atom(self.value[key]) == z3.BoolVal(is_str, self.ctx))
            if is_str:
                self.background.append(self.rank(self.value[key]) == atoms.index(v))
            else:
                self.background.append(self.rank(self.value[key]) == z3.RealVal(str(v), self.ctx))

    def term(self, t, scope: dict):
        import z3

        if isinstance(t, Var):
            if t not in scope:
                scope[t] = z3.Const(f"V{len(scope)}_{t.name}", self.sort)
            return scope[t]
        return self.value[(type(t) is str, t)]

    def atom(self, a: Atom, scope: dict):
        import z3

        key = (a.pred, len(a.args))
        if key not in self.preds:
            label = f"{a.pred}/{len(a.args)}"
            self.preds[key] = (z3.Function(label, *[self.sort] * len(a.args), z3.BoolSort(self.ctx))
                               if a.args else z3.Bool(label, self.ctx))
        p = self.preds[key]
        holds = p(*[self.term(t, scope) for t in a.args]) if a.args else p
        return z3.Not(holds) if a.neg else holds

    def literal(self, lit, scope: dict, outer: set):
        import z3

        if isinstance(lit, Atom):
            return self.atom(lit, scope)
        if isinstance(lit, Naf):
            local = [v for v in lit.atom.variables() if v not in outer]
            inner = dict(scope)
            body = self.atom(lit.atom, inner)
            bound = [inner[v] for v in dict.fromkeys(local)]
            return z3.Not(z3.Exists(bound, body) if bound else body)
        left, right = self.term(lit.left, scope), self.term(lit.right, scope)
        if lit.op == "=":
            return left == right
        if lit.op == "\\=":
            return left != right
        cmp = {"<": lambda a, b: a < b, ">": lambda a, b: a > b, "=<": lambda a, b: a <= b,
               ">=": lambda a, b: a >= b}[lit.op]
        return z3.And(self.is_atom(left) == self.is_atom(right), cmp(self.rank(left), self.rank(right)))

    def clause(self, clause):
        import z3

        if isinstance(clause, Atom):
            return self.atom(clause, {})
        assert isinstance(clause, Rule)
        outer = {v for lit in clause.body if not isinstance(lit, Naf) for v in lit.variables()}
        if clause.head is not None:
            outer |= set(clause.head.variables())
        scope: dict = {}
        for v in sorted(outer, key=lambda v: v.name):
            self.term(v, scope)
        body = [self.literal(lit, scope, outer) for lit in clause.body]
        cond = z3.And(*body) if len(body) > 1 else (body[0] if body else z3.BoolVal(True, self.ctx))
        formula = z3.Not(cond) if clause.head is None else z3.Implies(cond, self.atom(clause.head, scope))
        bound = [scope[v] for v in sorted(outer, key=lambda v: v.name)]
        return z3.ForAll(bound, formula) if bound else formula


def check_memory(memory, *, timeout_ms: int, cancel: threading.Event | None = None) -> Consistency:
    """Is the memory's (hard) theory satisfiable? If not, which items clash (an unsat core)."""
    import z3

    items = [it for it in memory.items.values() if not it.soft]
    theory = Theory(items)
    s = z3.Solver(ctx=theory.ctx)
    s.set("timeout", max(1, int(timeout_ms)))
    s.set("unsat_core", True)
    for f in theory.background:
        s.add(f)
    flags = {}
    for it in items:
        flag = z3.Bool(f"item!{it.id}", theory.ctx)
        flags[str(flag)] = it.id
        s.assert_and_track(theory.clause(it.clause), flag)
    with interruptible(theory.ctx, cancel):
        result = s.check()
    if cancel is not None and cancel.is_set():
        cancel.clear()
        raise Cancelled()
    if result == z3.sat:
        return Consistency(True, checked=len(items))
    if result == z3.unsat:
        core = [flags[str(c)] for c in s.unsat_core()]
        order = {i: n for n, i in enumerate(memory.items)}
        return Consistency(False, sorted(core, key=order.get), checked=len(items))
    reason = s.reason_unknown()
    gave_up(reason, "checking the memory", timeout_ms)
    return Consistency(None, checked=len(items), reason=reason)


__all__ = ["Consistency", "check_memory", "clause_atoms"]
