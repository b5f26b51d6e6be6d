"""sym's additions at one check of an SMT-LIB script, on top of Z3's own answer there: the claim's
entailment verdict (proved / refuted / unknown with model and counter-model / inconsistent), the
unsat core named by the script's lines, the optimum of each objective.

What is in force at the check (its declarations and assertions, scopes already applied by
smt2_run.py) is read again by Z3's parser into a fresh context; every solver call goes through
interpret.Checker (its own timeout, the in-process watchdog) and `arm` tells the worker's parent
that a call starts, so that the parent can stop the process where Z3 does not stop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sym.core.errors import TimedOut
from sym.core.reason.pot.build import Built, Objective, Verification
from sym.core.reason.pot.interpret import (
    INCONSISTENT,
    REFUTED,
    UNKNOWN,
    Checker,
    OptimizationResult,
    VerificationResult,
    interruptible,
)
from sym.core.stop import Stop

if TYPE_CHECKING:
    import z3

MAX_CORES = 20        # unsat cores computed per script (a script of many checks pays for the first ones)


@dataclass
class Entry:
    """A command in force at a check, as Z3's parser re-reads it."""

    kind: str            # decl | assert | soft | objective
    text: str            # what the parser gets
    label: str = ""      # an assertion's name in a core ("line N" when it has none), an objective's term
    named: bool = False  # the label is the assertion's :named name or its comment
    line: int = 0
    depth: int = 0       # the scope it was given in (0: the top level)
    source: str = ""     # an assertion's text, whitespace collapsed
    objective: str = ""  # minimize | maximize
    weight: str = "1"    # assert-soft


class _Armed(Checker):
    def __init__(self, built: Built, timeout_ms: int, watchdog: Any, arm: Callable[[], None]) -> None:
        super().__init__(built, stop=Stop(proof_timeout=timeout_ms / 1000), watchdog=watchdog)
        self.arm = arm

    def check(self, s: Any, what: str, *assumptions: Any) -> Any:
        self.arm()
        return super().check(s, what, *assumptions)


@dataclass
class Scene:
    """The formulas in force at a check: entries (assertion-like ones aligned with `formulas`)."""

    ctx: Any
    entries: list[Entry]
    formulas: list[Any]
    extra: Any = None          # the formula of check-sat-assuming's literals

    def pairs(self, *kinds: str) -> list[tuple[Entry, Any]]:
        return [(e, f) for e, f in zip(self.asserted, self.formulas) if e.kind in kinds]

    @property
    def asserted(self) -> list[Entry]:
        return [e for e in self.entries if e.kind != "decl"]


def scene(entries: list[Entry], literals: str = "") -> Scene:
    """Z3's parser over what is in force (raises z3.Z3Exception when it cannot re-read it)."""
    import z3

    ctx = z3.Context()
    text = "\n".join(e.text for e in entries)
    if literals:
        text += f"\n(assert (and {literals} true))"
    parsed = list(z3.parse_smt2_string(text, ctx=ctx))
    asserted = [e for e in entries if e.kind != "decl"]
    extra = None
    if literals:
        last = parsed.pop()
        extra = last.arg(0) if last.num_args() == 2 else z3.And(*last.children()[:-1])
    if len(parsed) != len(asserted):
        raise z3.Z3Exception(f"Z3 read {len(parsed)} assertions where sym counted {len(asserted)}")
    return Scene(ctx, entries, parsed, extra)


def _built(sc: Scene, background: list[tuple[Entry, Any]], verifications: list[Verification]) -> Built:
    labels: dict[str, int] = {}
    named = []
    for e, f in background:
        label = e.label if e.label not in labels else f"{e.label} (line {e.line})"
        labels[label] = len(labels)
        named.append((label, f))
    built = Built(env(sc.ctx, [*sc.formulas, *([sc.extra] if sc.extra is not None else [])]), named, verifications)
    built.order = labels
    return built


def core(sc: Scene, timeout_ms: int, arm: Callable[[], None]) -> list[str] | None:
    """The assertions in force that clash (by name, comment or line), or None when the core
    pass itself runs past the limit: the inconsistency stands, unnamed."""
    import z3

    built = _built(sc, sc.pairs("assert"), [])
    with interruptible(sc.ctx, None) as watchdog:
        checker = _Armed(built, timeout_ms, watchdog, arm)
        tracked = checker.solver()
        labels = {}
        for i, (label, f) in enumerate(built.background):
            flag = z3.Bool(f"core!{i}", sc.ctx)
            labels[str(flag)] = label
            tracked.assert_and_track(f, flag)
        try:
            if checker.check(tracked, "the unsat core") != z3.unsat:
                return None
        except TimedOut:
            return None
        order = built.order or {}
        return sorted((labels[str(c)] for c in tracked.unsat_core()), key=lambda x: order.get(x, len(order)))


def claim(sc: Scene, name: str, line: int, answer: str, timeout_ms: int,
          arm: Callable[[], None]) -> tuple[VerificationResult, list[str] | None]:
    """The claim's verdict, given Z3's answer for it (what is in force and the claim together), and
    the core when what is in force clashes. A claim is check-sat-assuming's literals (against every
    assertion in force) or the assertions of the open scopes (against the top level's)."""
    import z3

    if sc.extra is not None:
        background, body = sc.pairs("assert"), sc.extra
    else:
        background = [(e, f) for e, f in sc.pairs("assert") if e.depth == 0]
        parts = [f for e, f in sc.pairs("assert") if e.depth > 0]
        body = parts[0] if len(parts) == 1 else z3.And(*parts)
    if answer == UNKNOWN:
        return VerificationResult(name, UNKNOWN, reason="Z3 could not decide it"), None
    v = verification(name, line, body)
    built = _built(sc, background, [v])
    with interruptible(sc.ctx, None) as watchdog:
        checker = _Armed(built, timeout_ms, watchdog, arm)
        s = checker.solver()
        for _, f in built.background:
            s.add(f)
        try:
            if answer == "unsat":
                if checker.check(s, "what is in force") == z3.unsat:
                    return VerificationResult(name, INCONSISTENT), core(sc, timeout_ms, arm)
                _, counter = checker._side(s, v, positive=False)
                return VerificationResult(name, REFUTED, counter_model=counter), None
            result = checker.verification(s, v)
        except TimedOut:
            return VerificationResult(name, UNKNOWN, reason=f"Z3 says {answer} for the claim; its negation ran "
                                                            "past proof.timeout"), None
    if result.status == INCONSISTENT:        # Z3 said sat for the claim: a second reading never overrules it
        result = VerificationResult(name, UNKNOWN, reason="Z3 could not decide it")
    return result, None


def optimum(sc: Scene, timeout_ms: int, arm: Callable[[], None]) -> OptimizationResult:
    """Each objective's optimum (lexicographic, as Z3's default), the soft assertions weighed; an
    objective without a bound is `unbounded`, not optimal."""
    import z3

    objectives = [Objective(e.objective, e.label, f.arg(0)) for e, f in sc.pairs("objective")]
    built = _built(sc, sc.pairs("assert"), [])
    with interruptible(sc.ctx, None) as watchdog:
        checker = _Armed(built, timeout_ms, watchdog, arm)
        opt = checker.solver(z3.Optimize)
        for _, f in built.background:
            opt.add(f)
        for e, f in sc.pairs("soft"):
            opt.add_soft(f, e.weight)
        handles = [(o, opt.minimize(o.term) if o.kind == "minimize" else opt.maximize(o.term)) for o in objectives]
        try:
            result = checker.check(opt, "the optimization")
        except TimedOut:
            return OptimizationResult(UNKNOWN)
        if result == z3.unsat:
            return OptimizationResult("infeasible")
        if result != z3.sat:
            return OptimizationResult(UNKNOWN)
        model = opt.model()
        shown, status = [], "optimal"
        value: Any
        for o, h in handles:
            text = str(h.value())
            if "oo" in text:
                status, value = "unbounded", ("-oo" if "-" in text else "oo")
            elif "epsilon" in text:
                value = text.replace("*", " * ")     # a bound approached, never reached
            else:
                value = checker.value(model, o.term)
            shown.append({"type": o.kind, "expression": o.text, "optimum": value})
        return OptimizationResult(status, shown, checker.model_dict(model))


def verification(name: str, line: int, body: z3.BoolRef) -> Verification:
    """A claim; a quantified one binds constants, so that models can name its witnesses."""
    import z3

    if z3.is_quantifier(body) and (body.is_exists() or body.is_forall()):
        consts = [z3.FreshConst(body.var_sort(i), prefix=body.var_name(i)) for i in range(body.num_vars())]
        inner = z3.substitute_vars(body.body(), *reversed(consts))
        return Verification(name, f"line {line}", "exists" if body.is_exists() else "forall", consts, inner,
                            [body.var_name(i) for i in range(body.num_vars())])
    return Verification(name, f"line {line}", None, [], body, [])


def env(zctx: z3.Context, formulas: list[Any]) -> Any:
    """What the script declared, found in its formulas: constants, functions, sorts and named values."""
    import z3

    from sym.core.reason.pot.declare import Env, is_bool, is_numeric

    out = Env(zctx)
    seen: set[int] = set()
    todo = list(formulas)
    while todo:
        e = todo.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_quantifier(e):
            todo.append(e.body())
            continue
        if not z3.is_app(e):
            continue
        todo.extend(e.children())
        d = e.decl()
        for s in [e.sort(), *(d.domain(i) for i in range(d.arity()))]:
            if not (is_bool(s) or is_numeric(s)):
                out.sorts.setdefault(s.name(), s)
        if d.kind() == z3.Z3_OP_UNINTERPRETED:
            if d.arity() == 0:
                out.constants.setdefault(d.name(), e)
            else:
                out.functions.setdefault(d.name(), (d, [d.domain(i) for i in range(d.arity())], d.range()))
    for name, s in out.sorts.items():
        if isinstance(s, z3.DatatypeSortRef):
            for i in range(s.num_constructors()):
                c = s.constructor(i)
                if c.arity() == 0:
                    out.constants.setdefault(c.name(), c())
                    out.members.setdefault(name, []).append(c.name())
        else:
            out.members[name] = [n for n, t in out.constants.items() if t.sort() == s]
    return out
