"""/check: is the working memory consistent, and if not, which items clash (by memory id).

The engine decides first (core.reason.pot.check_horn): its model of the memory, integrity
constraints, p / ~p clashes, the core traced through provenance. That settles every memory
under the program's own semantics (the one /ask and /infer use; `not` is stratified). Z3
is asked only about what lies beyond forward chaining: a rule with a strongly negated
premise, read classically (~p as not-p), also licenses reasoning by cases and by
contraposition. Where the engine's model satisfies such rules classically too, it is a
model of the whole memory and Z3 is not called; otherwise only the items that share
predicates with the unsatisfied rules are sent, over a domain that keeps the answer exact.

The classical translation is over the finite domain of the memory's constants (one enum
sort, so unique names and domain closure hold): a predicate is a Bool function, a rule is a
ForAll implication, strong negation ~p is Not(p), `not p` (negation as failure) is read
classically as Not(p), a constraint `:- body` is Not(And(body)). Comparisons use the
engine's order: numbers by value, atoms alphabetically, never a number against an atom.
Soft rules (applied by the LLM) are left out, as the engine leaves them out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.logic.terms import Atom, Compare, Const, Literal, Naf, Rule, Term, Var, clause_atoms, format_const, is_numeric
from sym.core.reason.pot.check_horn import beyond_horn, check_horn, holds_in_model, relevant_part
from sym.core.reason.pot.interpret import gave_up, interruptible
from sym.core.stop import UNBOUNDED, Stop

if TYPE_CHECKING:
    import z3  # z3 ships no type information: to mypy its classes are Any

    from sym.core.memory.working import Item, WorkingMemory

Domain = list[tuple[bool, Const]]     # the constants quantified over, as (is an atom, value)


@dataclass
class Consistency:
    consistent: bool | None             # None: Z3 could not decide in time
    core: list[str] = field(default_factory=list)   # memory item ids
    checked: int = 0                    # how many items were checked
    reason: str = ""
    method: str = "engine"              # engine: decided by forward chaining; z3: the classical part
    minimal: bool = False               # no proper subset of the core clashes
    clash: str = ""                     # what clashed, in words
    sent: int = 0                       # items sent to Z3 (0: Z3 was not called)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"consistent": self.consistent, "checked": self.checked, "core": self.core,
                     "method": self.method, "z3_items": self.sent}
        if self.consistent is False:
            out["minimal"] = self.minimal
        if self.clash:
            out["clash"] = self.clash
        if self.reason:
            out["reason"] = self.reason
        return out


def _constants(items: Iterable[Item]) -> Domain:
    seen: dict[tuple[bool, Const], None] = {}
    for it in items:
        clause = it.clause
        lits = [clause] if isinstance(clause, Atom) else [*([clause.head] if clause.head else []), *clause.body]
        for lit in lits:
            if is_numeric(lit):
                continue      # a computing rule is not sent to Z3 (check_memory says so)
            assert isinstance(lit, (Atom, Naf, Compare))
            terms = [lit.left, lit.right] if isinstance(lit, Compare) else (lit.atom if isinstance(lit, Naf)
                                                                            else lit).args
            for t in terms:
                if not isinstance(t, Var):
                    seen.setdefault((type(t) is str, t), None)
    return list(seen)


class Theory:
    """Z3 declarations for one memory: the domain, the predicates, the order for comparisons."""

    def __init__(self, items: Iterable[Item], domain: Domain | None = None) -> None:
        import z3

        self.ctx = z3.Context()
        consts = (domain if domain is not None else _constants(items)) or [(True, "nothing")]
        names = [format_const(v) for _, v in consts]
        self.sort, values = z3.EnumSort("Obj", names, ctx=self.ctx)
        self.value = {c: v for c, v in zip(consts, values)}
        self.is_atom = z3.Function("is_atom", self.sort, z3.BoolSort(self.ctx))
        self.rank = z3.Function("rank", self.sort, z3.RealSort(self.ctx))
        self.preds: dict[tuple[str, int], z3.FuncDeclRef | z3.BoolRef] = {}
        self.background: list[z3.BoolRef] = []
        atoms = sorted(v for is_str, v in consts if is_str)
        for is_str, v in consts:
            key = (is_str, v)
            self.background.append(self.is_atom(self.value[key]) == z3.BoolVal(is_str, self.ctx))
            if is_str:
                self.background.append(self.rank(self.value[key]) == atoms.index(v))
            else:
                self.background.append(self.rank(self.value[key]) == z3.RealVal(str(v), self.ctx))

    def term(self, t: Term, scope: dict[Var, z3.ExprRef]) -> z3.ExprRef:
        import z3

        if isinstance(t, Var):
            if t not in scope:
                scope[t] = z3.Const(f"V{len(scope)}_{t.name}", self.sort)
            return scope[t]
        return self.value[(type(t) is str, t)]

    def atom(self, a: Atom, scope: dict[Var, z3.ExprRef]) -> z3.BoolRef:
        import z3

        key = (a.pred, len(a.args))
        if key not in self.preds:
            label = f"{a.pred}/{len(a.args)}"
            self.preds[key] = (z3.Function(label, *[self.sort] * len(a.args), z3.BoolSort(self.ctx))
                               if a.args else z3.Bool(label, self.ctx))
        p = self.preds[key]
        holds = p(*[self.term(t, scope) for t in a.args]) if a.args else p
        return z3.Not(holds) if a.neg else holds

    def literal(self, lit: Literal, scope: dict[Var, z3.ExprRef], outer: set[Var]) -> z3.BoolRef:
        import z3

        assert isinstance(lit, (Atom, Naf, Compare)), lit     # computing rules are not sent (check_memory)
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
        cmp: Callable[[z3.ArithRef, z3.ArithRef], z3.BoolRef] = {
            "<": lambda a, b: a < b, ">": lambda a, b: a > b, "=<": lambda a, b: a <= b, ">=": lambda a, b: a >= b}[lit.op]
        return z3.And(self.is_atom(left) == self.is_atom(right), cmp(self.rank(left), self.rank(right)))

    def clause(self, clause: Atom | Rule) -> z3.BoolRef:
        import z3

        if isinstance(clause, Atom):
            return self.atom(clause, {})
        assert isinstance(clause, Rule)
        outer = {v for lit in clause.body if not isinstance(lit, Naf) for v in lit.variables()}
        if clause.head is not None:
            outer |= set(clause.head.variables())
        scope: dict[Var, z3.ExprRef] = {}
        for v in sorted(outer, key=lambda v: v.name):
            self.term(v, scope)
        body = [self.literal(lit, scope, outer) for lit in clause.body]
        cond = z3.And(*body) if len(body) > 1 else (body[0] if body else z3.BoolVal(True, self.ctx))
        formula = z3.Not(cond) if clause.head is None else z3.Implies(cond, self.atom(clause.head, scope))
        bound = [scope[v] for v in sorted(outer, key=lambda v: v.name)]
        return z3.ForAll(bound, formula) if bound else formula


def check_memory(memory: WorkingMemory, *, stop: Stop = UNBOUNDED, minimise: bool = True) -> Consistency:
    """Is the memory's (hard) theory consistent? If not, which items clash (a core). Z3's check
    runs within stop.proof_timeout; the stop's cancel interrupts it."""
    items = [it for it in memory.items.values() if not it.soft]
    horn = check_horn(memory, items, stop=stop, minimise=minimise)
    if horn.violations:
        clash = horn.clash + (f" ({horn.violations} clashes in all)" if horn.violations > 1 else "")
        if horn.uses_naf:
            clash += "; it rests on `not` (something not derivable), so adding an item may also mend it"
        return Consistency(False, horn.core, len(items), minimal=horn.minimal, clash=clash)
    # the model is a classical model of every clause but those with a ~ premise; where it
    # satisfies those too, it is one of the whole memory; a classical clash lies in the part
    # that shares predicates with a clause it does not satisfy
    unsettled = [it for it in items if isinstance(it.clause, Rule)     # (beyond_horn says False of a fact)
                 and beyond_horn(it.clause) and not holds_in_model(memory.engine, it.clause)]
    if not unsettled:
        return Consistency(True, checked=len(items))
    part = relevant_part(items, unsettled)
    numeric = next((it for it in part if isinstance(it.clause, Rule) and any(is_numeric(lit) for lit in it.clause.body)), None)
    if numeric is not None:     # Z3 would quantify over the named constants, and arithmetic makes new ones
        return Consistency(None, checked=len(items), method="z3",
                           reason=f"not decided: {numeric.id} ({numeric.text}) computes with numbers, and the classical "
                                  "check reads ~p over the constants memory names; the model itself has no clash")
    out = check_classical(part, stop=stop, domain=_domain(part, items),
                          order={i: n for n, i in enumerate(memory.items)})
    out.checked, out.method, out.sent = len(items), "z3", len(part)
    if out.consistent is False:
        out.clash = "classically, reading ~p as not p (by cases or contraposition)"
    return out


def _domain(part: list[Item], items: list[Item]) -> Domain:
    """The constants Z3 quantifies over: few enough to be quick, and exact, i.e. `part` is
    satisfiable over them exactly when it is over the whole memory's domain.

    Where every variable of every rule sits in a premise that is not strongly negated, an
    element no sent item names can have every atom false, which satisfies each instance
    that mentions it. Without comparisons (so without equality) such an element can copy
    any named one. Either way the part's own constants suffice; otherwise the whole domain."""
    comparing = any(isinstance(lit, Compare) for it in part if isinstance(it.clause, Rule)
                    for lit in it.clause.body)
    if not comparing or all(_classically_safe(it.clause) for it in part):
        return _constants(part)
    return _constants(items)


def _classically_safe(clause: Atom | Rule) -> bool:
    if not isinstance(clause, Rule):
        return True
    bound = {v for lit in clause.body if isinstance(lit, Atom) and not lit.neg for v in lit.variables()}
    mentioned = {v for lit in clause.body for v in lit.variables()}
    if clause.head is not None:
        mentioned |= set(clause.head.variables())
    return mentioned <= bound


def check_classical(items: Sequence[Item], *, stop: Stop = UNBOUNDED, domain: Domain | None = None,
                    order: dict[str, int] | None = None) -> Consistency:
    """Is the classical theory of these items satisfiable (over `domain`, by default their own
    constants)? If not, an unsat core of item ids."""
    import z3

    timeout_ms, cancel = stop.proof_ms, stop.cancel
    theory = Theory(items, domain)
    s = z3.Solver(ctx=theory.ctx)
    s.set("timeout", timeout_ms)
    s.set("unsat_core", True)
    for f in theory.background:
        s.add(f)
    flags: dict[str, str] = {}
    for n, it in enumerate(items, 1):
        if not n % 1024:     # a big part takes seconds to build
            stop.check()
        flag = z3.Bool(f"item!{it.id}", theory.ctx)
        flags[str(flag)] = it.id
        s.assert_and_track(theory.clause(it.clause), flag)
    with interruptible(theory.ctx, cancel) as watchdog, watchdog.armed(timeout_ms):
        result = s.check()
    stop.check()
    if watchdog.expired:          # Z3 did not stop itself in time: the watchdog did
        gave_up("timeout", "checking the memory", timeout_ms)
    if result == z3.sat:
        return Consistency(True, checked=len(items), method="z3")
    if result == z3.unsat:
        core = [flags[str(c)] for c in s.unsat_core()]
        order = order or {it.id: n for n, it in enumerate(items)}
        return Consistency(False, sorted(core, key=order.__getitem__), checked=len(items), method="z3")
    reason = s.reason_unknown()
    gave_up(reason, "checking the memory", timeout_ms)
    return Consistency(None, checked=len(items), reason=reason, method="z3")


__all__ = ["Consistency", "check_classical", "check_memory", "clause_atoms"]
