"""Run a built program on Z3: entailment per verification, consistency with unsat cores,
optimization. Every check has a timeout that holds whether or not Z3 honours it (a watchdog
interrupts the context past it) and can be interrupted from another thread.

Semantics: KB ∧ ¬v unsat → proved; KB ∧ v unsat → refuted; both sat → unknown (model and
counter-model); KB unsat → inconsistent, with the core named by knowledge-base/rule entry.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.errors import Cancelled, TimedOut
from sym.core.events import CoreEntry, ModelShown
from sym.core.reason.pot.build import Built, Objective, Verification, build
from sym.core.reason.pot.declare import is_bool, is_numeric
from sym.core.reason.pot.schema import Program
from sym.core.stop import UNBOUNDED, Stop, check

if TYPE_CHECKING:
    import z3  # z3 ships no type information: to mypy its classes are Any

MAX_MODEL_ENTRIES = 200
PROVED, REFUTED, UNKNOWN, INCONSISTENT = "proved", "refuted", "unknown", "inconsistent"
ModelValue = bool | int | float | str     # a term's value in a model, as shown


@dataclass
class VerificationResult:
    name: str
    status: str
    model: dict[str, Any] | None = None           # a model of KB ∧ v
    counter_model: dict[str, Any] | None = None   # a model of KB ∧ ¬v
    reason: str = ""                    # why unknown, when Z3 said so

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "status": self.status}
        if self.model is not None:
            out["model"] = self.model
        if self.counter_model is not None:
            out["counter_model"] = self.counter_model
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class OptimizationResult:
    status: str                         # optimal | infeasible | unknown | inconsistent
    objectives: list[dict[str, Any]] = field(default_factory=list)   # {"type", "expression", "optimum"}
    model: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "objectives": self.objectives}
        if self.model is not None:
            out["model"] = self.model
        return out


@dataclass
class ProofReport:
    verifications: list[VerificationResult]
    consistent: bool | None             # None: Z3 could not decide
    core: list[str] = field(default_factory=list)
    optimization: OptimizationResult | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"consistent": self.consistent,
                     "verifications": [v.to_dict() for v in self.verifications]}
        if self.core:
            out["core"] = self.core
        if self.optimization is not None:
            out["optimization"] = self.optimization.to_dict()
        return out


class Watchdog:
    """Interrupts a Z3 context when the user cancels, and when a check runs past its deadline.

    Z3's own `timeout` stops most checks, but not all of them promptly (nonlinear arithmetic on a
    busy machine ran for minutes past a 1 ms one): each check is armed with its timeout plus a
    grace, and a thread of our own interrupts the context once that passes; `expired` says so,
    and the check is then a timeout, not a cancel. ctypes lets go of the GIL while Z3 runs, so
    the thread runs however long Z3 takes."""

    POLL = 0.02         # seconds between looks at the cancel flag (a threading.Event cannot be waited on with another)

    def __init__(self, zctx: z3.Context, cancel: threading.Event | None) -> None:
        self.zctx, self.cancel = zctx, cancel
        self.expired = False
        self._until: float | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._done = False
        self._thread = threading.Thread(target=self._watch, name="z3-watchdog", daemon=True)

    @staticmethod
    def grace(timeout_ms: int) -> float:
        """Seconds past Z3's own timeout before the watchdog steps in."""
        return max(0.05, timeout_ms / 10_000)

    @contextmanager
    def armed(self, timeout_ms: int) -> Iterator[None]:
        """Around one check: interrupt it once `timeout_ms` and the grace have passed."""
        with self._lock:
            self.expired = False
            self._until = time.monotonic() + timeout_ms / 1000 + self.grace(timeout_ms)
        self._wake.set()
        try:
            yield
        finally:
            with self._lock:
                self._until = None

    def _watch(self) -> None:
        while not self._done:
            if self.cancel is not None and self.cancel.is_set():
                self.zctx.interrupt()
                return
            with self._lock:
                until = self._until
                if until is not None and time.monotonic() >= until:
                    self.expired, self._until = True, None
                    self.zctx.interrupt()
                    continue
            wait = None if until is None else max(0.0, until - time.monotonic())
            if self.cancel is not None:
                wait = self.POLL if wait is None else min(wait, self.POLL)
            self._wake.wait(wait)
            self._wake.clear()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._done = True
        self._wake.set()
        self._thread.join()


@contextmanager
def interruptible(zctx: z3.Context, cancel: threading.Event | None) -> Iterator[Watchdog]:
    """While inside, setting `cancel` interrupts whatever Z3 is doing in `zctx`, and so does the
    deadline of a check run inside `watchdog.armed(timeout_ms)` (the watchdog is yielded)."""
    watchdog = Watchdog(zctx, cancel)
    watchdog.start()
    try:
        yield watchdog
    finally:
        watchdog.stop()


def gave_up(reason: str, what: str, timeout_ms: int) -> None:
    """Raise why Z3 answered unknown, once the user's own cancel has been ruled out: its deadline
    or a resource limit ("timeout", "resource", and "canceled", which is how Z3 reports its own
    timer stopping some checks) is TimedOut (exit 4); an interrupt from elsewhere is Cancelled.
    Any other reason (incompleteness) returns, and the answer stays unknown."""
    if "timeout" in reason or "resource" in reason or "cancel" in reason:
        raise TimedOut(f"Z3 ran past proof.timeout ({timeout_ms / 1000:g} s) {what}",
                       hint="raise it with /set proof.timeout SECONDS")
    if "interrupt" in reason:
        raise Cancelled()


class Checker:
    """One program's solver session: checks with timeouts, cancellation and readable models."""

    def __init__(self, built: Built, *, stop: Stop = UNBOUNDED, watchdog: Watchdog | None = None) -> None:
        self.built, self.env, self.timeout_ms, self.cancel = built, built.env, stop.proof_ms, stop.cancel
        self.watchdog = watchdog

    def solver(self, cls: type[z3.Solver] | type[z3.Optimize] | None = None) -> z3.Solver | z3.Optimize:
        import z3

        s = (cls or z3.Solver)(ctx=self.env.ctx)
        s.set("timeout", self.timeout_ms)
        return s

    def check(self, s: z3.Solver | z3.Optimize, what: str, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        """sat / unsat / unknown, raising Cancelled or TimedOut when that is why Z3 gave up."""
        import z3

        if self.watchdog is None:
            result = s.check(*assumptions)
        else:
            with self.watchdog.armed(self.timeout_ms):
                result = s.check(*assumptions)
        check(self.cancel)
        if self.watchdog is not None and self.watchdog.expired:     # Z3 did not stop itself in time
            gave_up("timeout", f"on {what}", self.timeout_ms)
        if result == z3.unknown:
            gave_up(s.reason_unknown(), f"on {what}", self.timeout_ms)
        return result

    # -- readable models -----------------------------------------------------------

    def value(self, model: z3.ModelRef, term: z3.ExprRef) -> ModelValue:
        import z3

        v = model.eval(term, model_completion=True)
        if z3.is_true(v) or z3.is_false(v):
            return bool(z3.is_true(v))
        if z3.is_int_value(v):
            return int(v.as_long())
        if z3.is_rational_value(v):
            if v.denominator_as_long() == 1:
                return int(v.numerator_as_long())
            return float(v.as_fraction())
        if z3.is_algebraic_value(v):
            return str(v.as_decimal(10)).rstrip("?")
        sort_name = v.sort().name()
        for name in self.env.members.get(sort_name, []):
            c = self.env.constants[name]
            if z3.is_true(model.eval(c == v, model_completion=True)):
                return name
        return unnamed_value(str(v))

    def model_dict(self, model: z3.ModelRef, witnesses: dict[str, z3.ExprRef] | None = None,
                   decisions: bool = False) -> dict[str, Any]:
        """Declared constants (not enum values), functions over named domains, and witnesses."""
        import z3

        out: dict[str, Any] = {}
        for name, w in (witnesses or {}).items():
            out[name] = self.value(model, w)
        for name, term in self.env.constants.items():
            if z3.is_app(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED and (
                    is_bool(term.sort()) or is_numeric(term.sort())):
                out[name] = self.value(model, term)
        for name, term in (self.built.decisions.items() if decisions else ()):
            out[name] = self.value(model, term)
        for name, (decl, domain, _rng) in self.env.functions.items():
            if not domain:
                out[name] = self.value(model, decl)
                continue
            pools = [pool for s in domain if (pool := self._domain(s))]
            if len(pools) != len(domain):     # a numeric sort, or one without named constants
                continue
            for combo in itertools.product(*pools):
                if len(out) >= MAX_MODEL_ENTRIES:
                    return out
                out[f"{name}({', '.join(n for n, _ in combo)})"] = self.value(model, decl(*(t for _, t in combo)))
        return out

    def _domain(self, sort: z3.SortRef) -> list[tuple[str, z3.ExprRef]] | None:
        import z3

        if is_bool(sort):
            return [("True", z3.BoolVal(True, self.env.ctx)), ("False", z3.BoolVal(False, self.env.ctx))]
        if is_numeric(sort):
            return None
        return [(n, self.env.constants[n]) for n in self.env.members.get(sort.name(), [])]

    def named_witnesses(self, bound: list[z3.ExprRef], fresh: list[z3.ExprRef]) -> z3.BoolRef | None:
        """An assumption that each witness is one of the named constants of its sort, where it has any."""
        import z3

        parts: list[z3.BoolRef] = []
        for b, w in zip(bound, fresh):
            names = self.env.members.get(b.sort().name(), [])
            if names and not (is_bool(b.sort()) or is_numeric(b.sort())):
                parts.append(z3.Or(*[w == self.env.constants[n] for n in names]))
        return z3.And(*parts) if parts else None

    # -- the checks -----------------------------------------------------------------

    def consistency(self) -> tuple[bool | None, list[str], z3.Solver]:
        """(consistent: True/False/None, core labels)."""
        import z3

        s = self.solver()
        for _, f in self.built.background:
            s.add(f)
        result = self.check(s, "the knowledge base")
        if result != z3.unsat:
            return (True if result == z3.sat else None), [], s
        tracked = self.solver()
        labels: dict[str, str] = {}
        for i, (label, f) in enumerate(self.built.background):
            flag = z3.Bool(f"kb!{i}", self.env.ctx)
            labels[str(flag)] = label
            tracked.assert_and_track(f, flag)
        core: list[str] = []
        if self.check(tracked, "the unsat core") == z3.unsat:
            order = self.built.order
            key = _entry_order if order is None else (lambda label: (False, order.get(label, len(order))))
            core = sorted((labels[str(c)] for c in tracked.unsat_core()), key=key)
        return False, core, s

    def _side(self, s: z3.Solver, v: Verification, positive: bool) -> tuple[z3.CheckSatResult, dict[str, Any] | None]:
        """Check KB ∧ v (positive) or KB ∧ ¬v; returns (result, model dict or None)."""
        import z3

        existential = (v.quantifier == "exists") == positive    # the side whose witnesses a model can name
        what = f"{v.name} ({'v' if positive else 'not v'})"
        s.push()
        try:
            if v.quantifier and existential:
                fresh = [z3.FreshConst(b.sort(), prefix=name) for b, name in zip(v.bound, v.binder_names)]
                body = z3.substitute(v.body, *zip(v.bound, fresh))
                s.add(body if positive else z3.Not(body))
                prefer = self.named_witnesses(v.bound, fresh)
                if prefer is not None and self.check(s, what, prefer) == z3.sat:
                    return z3.sat, self.model_dict(s.model(), dict(zip(v.binder_names, fresh)))
                result = self.check(s, what)
                model = self.model_dict(s.model(), dict(zip(v.binder_names, fresh))) if result == z3.sat else None
                return result, model
            s.add(v.formula if positive else z3.Not(v.formula))
            result = self.check(s, what)
            return result, (self.model_dict(s.model()) if result == z3.sat else None)
        finally:
            s.pop()

    def verification(self, s: z3.Solver, v: Verification) -> VerificationResult:
        import z3

        neg, counter = self._side(s, v, positive=False)
        pos, model = self._side(s, v, positive=True)
        if neg == z3.unsat and pos == z3.unsat:
            return VerificationResult(v.name, INCONSISTENT)
        if neg == z3.unsat:
            return VerificationResult(v.name, PROVED, model=model)
        if pos == z3.unsat:
            return VerificationResult(v.name, REFUTED, counter_model=counter)
        reason = "" if (neg == z3.sat and pos == z3.sat) else f"Z3: {s.reason_unknown()}"
        return VerificationResult(v.name, UNKNOWN, model=model, counter_model=counter, reason=reason)

    def optimize(self) -> OptimizationResult:
        import z3

        opt = self.solver(z3.Optimize)
        for _, f in [*self.built.background, *self.built.constraints]:
            opt.add(f)
        handles = [(o, opt.minimize(o.term) if o.kind == "minimize" else opt.maximize(o.term))
                   for o in self.built.objectives]
        result = self.check(opt, "the optimization")
        if result == z3.unsat:
            return OptimizationResult("infeasible")
        if result != z3.sat:
            return OptimizationResult(UNKNOWN)
        model = opt.model()
        objectives = [{"type": o.kind, "expression": o.text, "optimum": _optimum(self, model, o, h)}
                      for o, h in handles]
        return OptimizationResult("optimal", objectives, self.model_dict(model, decisions=True))


def _optimum(checker: Checker, model: z3.ModelRef, objective: Objective, handle: z3.OptimizeObjective) -> ModelValue:
    value = handle.value()
    text = str(value)
    if "oo" in text or "epsilon" in text:
        return text      # unbounded, or a strict bound
    return checker.value(model, objective.term)


def _entry_order(label: str) -> tuple[bool, int]:
    section, _, rest = label.partition("[")
    return (section != "knowledge_base", int(rest.split("]")[0]) if rest else 0)


def run(program: Program, *, stop: Stop = UNBOUNDED, built: Built | None = None) -> ProofReport:
    """Build (unless given) and check a program, each check within stop.proof_timeout."""
    return check_built(built or build(program), stop=stop)


def check_built(built: Built, *, stop: Stop = UNBOUNDED) -> ProofReport:
    """Check a built program (JSON or SMT-LIB): consistency, then each verification, then the
    optimum, each check within stop.proof_timeout; the Z3 context is interrupted when the stop's
    cancel is set."""
    with interruptible(built.env.ctx, stop.cancel) as watchdog:
        checker = Checker(built, stop=stop, watchdog=watchdog)
        consistent, core, solver = checker.consistency()
        if consistent is False:
            return ProofReport([VerificationResult(v.name, INCONSISTENT) for v in built.verifications],
                               False, core,
                               OptimizationResult(INCONSISTENT) if built.has_optimization else None)
        results = [checker.verification(solver, v) for v in built.verifications]
        optimum = checker.optimize() if built.has_optimization else None
    return ProofReport(results, consistent, [], optimum)


def models_shown(report: ProofReport, texts: Callable[[], dict[str, str]]) -> list[ModelShown]:
    """What the Models pane shows of a report: the unsat core (each entry's text, from `texts`:
    core label -> source text), or the models and counter-models of the verifications and the optimum."""
    if report.consistent is False:
        by_label = texts()
        entries = tuple(CoreEntry(label, by_label.get(label, label)) for label in report.core)
        return [ModelShown("z3.core", f"unsat core of the knowledge base ({len(report.core)} entries)",
                           "\n".join(f"{e.text}  ({e.name.split(' ')[0]})" for e in entries), entries)]
    shown = []
    for r in report.verifications:
        if r.model is not None:
            shown.append(ModelShown("z3.model", f"{r.name}: model ({r.status})", format_model(r.model), r.model))
        if r.counter_model is not None:
            shown.append(ModelShown("z3.counter-model", f"{r.name}: counter-model ({r.status})",
                                    format_model(r.counter_model), r.counter_model))
    optimum = report.optimization
    if optimum is not None and optimum.model is not None:
        shown.append(ModelShown("z3.model", "optimum", format_model(optimum.model), optimum.model))
    return shown


_Z3_UNNAMED = re.compile(r"(.+)!val!(\d+)")


def unnamed_value(text: str) -> str:
    """Z3's name for an element of a sort that no constant names (`Thing!val!2`), as a user reads
    it: `some Thing (#2)`; any other value unchanged."""
    m = _Z3_UNNAMED.fullmatch(text)
    return f"some {m.group(1)} (#{m.group(2)})" if m else text


def format_model(model: dict[str, Any]) -> str:
    return "\n".join(f"{k} = {v}" for k, v in model.items())
