"""Inference never runs away: it stops at max_facts with a message naming the setting, a
cancel (Esc / Ctrl+C) stops it inside a large join, long rule bodies plan quickly, and a
query with a variable only under `not` is a clean error."""

from __future__ import annotations

import threading
import time

import pytest

from sym.core.errors import Cancelled, UserError
from sym.core.logic.engine import Engine
from sym.core.logic.plan import make_plan
from sym.core.logic.terms import Atom, Compare, Naf, Query, Rule, Var
from sym.repl.results import Failure, Inferred

X, Y = Var("X"), Var("Y")
CROSS = Rule(Atom("pair", (X, Y)), (Atom("a", (X,)), Atom("b", (Y,))))


class CancelAfter(threading.Event):
    """An Event the 'user' sets after the job has looked at it `n` times (Esc pressed mid-run)."""

    def __init__(self, n: int):
        super().__init__()
        self.left = n

    def is_set(self) -> bool:
        self.left -= 1
        if self.left == 0:
            self.set()
        return super().is_set()


def cross_engine(n: int) -> Engine:
    engine = Engine()
    engine.add_facts(Atom("a", (i,)) for i in range(n))
    engine.add_facts(Atom("b", (i,)) for i in range(n))
    engine.add_rule("r1", CROSS)
    return engine


def test_a_cross_product_stops_at_max_facts_with_a_message_naming_it():
    engine = cross_engine(3000)            # 9,000,000 pairs
    engine.max_facts = 100_000
    with pytest.raises(UserError, match=r"more than 100,000 facts \(max_facts\)") as caught:
        engine.infer()
    assert "/set max_facts" in caught.value.hint
    assert not engine.complete
    engine.max_facts = None
    engine.remove_rule("r1")
    assert engine.infer().complete         # the engine is usable afterwards


def test_the_limit_counts_facts_derived_over_many_rounds():
    engine = Engine()
    engine.add_facts(Atom("edge", (i, i + 1)) for i in range(300))   # closure: 45,150 paths
    engine.add_rule("r1", Rule(Atom("path", (X, Y)), (Atom("edge", (X, Y)),)))
    Z = Var("Z")
    engine.add_rule("r2", Rule(Atom("path", (X, Z)), (Atom("path", (X, Y)), Atom("edge", (Y, Z)))))
    engine.max_facts = 10_000
    with pytest.raises(UserError, match="max_facts"):
        engine.infer()
    engine.max_facts = 50_000
    assert engine.infer().derived == 45_150


def test_cancel_stops_inference_inside_a_large_join():
    engine = cross_engine(10_000)          # 10^8 pairs: minutes and gigabytes if it ran on
    engine.cancel = CancelAfter(6)
    started = time.monotonic()
    with pytest.raises(Cancelled):
        engine.infer()
    assert time.monotonic() - started < 5  # a generous bound: it did not run to the end
    assert not engine.cancel.is_set()      # cleared for the next job
    assert not engine.complete


def test_esc_on_infer_reports_cancelled_not_a_result(sym):
    sym("/fact " + " ".join(f"a({i})." for i in range(2000)))
    sym("/fact " + " ".join(f"b({i})." for i in range(2000)))
    sym("/rule pair(X, Y) :- a(X), b(Y).")
    sym.shell.ctx.cancel = CancelAfter(4)
    result = sym("/infer")
    assert isinstance(result, Failure) and result.exit_code == 130
    assert "cancel" in result.message
    sym.shell.ctx.cancel = threading.Event()
    sym("/set max_facts 1000000")
    sym("/forget pair(X, Y) :- a(X), b(Y).")
    assert isinstance(sym("/infer"), Inferred)


def test_max_facts_setting_reaches_infer_and_queries(sym):
    sym("/fact " + " ".join(f"a({i})." for i in range(500)))
    sym("/fact " + " ".join(f"b({i})." for i in range(500)))
    sym("/rule pair(X, Y) :- a(X), b(Y).")
    sym("/set max_facts 10000")
    # a point question (?- pair(1, 2).) is goal-directed and needs no pair facts but its own; the
    # whole relation does
    for text in ("/infer", "?- pair(X, Y)."):
        result = sym(text)
        assert isinstance(result, Failure) and "max_facts" in result.message


def test_a_variable_only_under_not_is_a_clean_error(sym):
    sym("/fact s(a).")
    sym("/fact q(b).")
    result = sym("?- s(X), not q(Y).")
    assert isinstance(result, Failure)
    assert "Y" in result.message and "not" in result.message and result.hint
    assert sym("?- s(X), not q(_).").answer.bindings == []


def test_engine_solve_refuses_an_unbound_named_variable():
    engine = Engine()
    engine.add_facts([Atom("s", ("a",))])
    with pytest.raises(UserError, match="only under `not`"):
        engine.solve(Query((Atom("s", (X,)), Naf(Atom("q", (Y,))))))


def test_a_rule_with_thousands_of_body_literals_plans_and_runs():
    n = 2_500           # (10,000 runs too, in about a minute: each step still copies the columns bound so far)
    xs = [Var(f"X{i}") for i in range(n + 1)]
    body = (Atom("p", (0, xs[1])),) + tuple(Atom("p", (xs[i], xs[i + 1])) for i in range(1, n))
    engine = Engine()
    engine.add_facts(Atom("p", (i, i + 1)) for i in range(n))
    engine.add_rule("long", Rule(Atom("q", (xs[n],)), body))
    engine.infer()
    assert list(engine.facts("q/1")) == [Atom("q", (n,))]


def test_long_bodies_keep_filters_after_the_atoms_that_bind_them():
    n = 2000
    xs = [Var(f"X{i}") for i in range(n + 1)]
    body = (Compare("<", xs[0], xs[n]), Naf(Atom("r", (xs[n // 2],)))) + tuple(
        Atom("p", (xs[i], xs[i + 1])) for i in range(n))
    plan = make_plan(body, lambda key: 10)
    assert sorted(plan.order) == list(range(len(body)))
    placed = {v for v in plan.variables}
    assert placed == set(xs)
    position = {i: k for k, i in enumerate(plan.order)}
    assert position[0] > max(position[j] for j in range(2, len(body)) if j - 2 in (0, n - 1))
    assert position[1] > min(position[j] for j in (2 + n // 2 - 1, 2 + n // 2))
