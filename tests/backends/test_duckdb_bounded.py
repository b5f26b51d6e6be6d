"""A DuckDB model is bounded as the native one is: a runaway recursion stops at the fact cap with one
line, the deadline and Esc (cancel) interrupt a statement running inside DuckDB, arithmetic errors
are the native engine's line, and what DuckDB cannot hold exactly is refused in one line."""

from __future__ import annotations

import threading
import time

import pytest

from sym.core.backends.duck import DuckExecutor
from sym.core.backends.engine import RelationalEngine
from sym.core.errors import Cancelled, TimedOut, UserError
from sym.core.logic.parser import parse_program, parse_query


def duck(text: str) -> RelationalEngine:
    engine = RelationalEngine(DuckExecutor(threads=1))
    engine.add_program([item.clause for item in parse_program(text)])
    return engine


def test_a_runaway_recursion_stops_at_the_fact_cap_with_one_line():
    engine = duck("n(0). n(1). n(2). n(3). n(Y) :- n(X), Y is X + 4.")
    engine.max_facts = 200
    with pytest.raises(UserError) as err:
        engine.infer()
    assert "max_facts" in str(err.value) and "\n" not in str(err.value)


def test_the_deadline_interrupts_a_statement_inside_duckdb():
    # one statement that runs for hours: 10^12 rows of a four-way cross product
    engine = duck("big(0). " + " ".join(f"d({i})." for i in range(1000))
                  + " pair(A, B, C) :- d(A), d(B), d(C), d(D), A * B + C * D =:= 7.")
    engine.deadline.arm(0.5)
    started = time.monotonic()
    with pytest.raises(TimedOut):
        engine.infer()
    assert time.monotonic() - started < 30


def test_cancel_interrupts_a_statement_inside_duckdb():
    engine = duck(" ".join(f"d({i})." for i in range(1000)) + " pair(A, B, C) :- d(A), d(B), d(C), d(D), A * B + C * D =:= 7.")
    engine.cancel = threading.Event()
    threading.Timer(0.3, engine.cancel.set).start()
    with pytest.raises(Cancelled):
        engine.infer()
    assert not engine.cancel.is_set()      # the next job starts afresh


def test_division_by_zero_is_the_native_engines_line():
    engine = duck("p(1, 0). q(X, Z) :- p(X, Y), Z is X / Y.")
    with pytest.raises(UserError) as err:
        engine.infer()
    assert str(err.value).startswith("cannot evaluate Z is X / Y: division by zero")


def test_a_column_of_numbers_and_atoms_is_refused_in_one_line():
    engine = duck("p(1). p(a). q(X) :- p(X).")
    with pytest.raises(UserError) as err:
        engine.infer()
    assert "p/1 argument 1 holds both numbers and atoms" in str(err.value)


def test_max_steps_is_refused_not_answered_from_a_different_model():
    engine = duck("e(1, 2). t(X, Y) :- e(X, Y).")
    with pytest.raises(UserError, match="max_steps"):
        engine.infer(2)


def test_a_query_after_the_stop_answers_afresh():
    engine = duck("n(0). n(Y) :- n(X), Y is X + 1, Y < 50.")
    engine.max_facts = 10
    with pytest.raises(UserError):
        engine.infer()
    engine.max_facts = None
    assert len(engine.solve(parse_query("?- n(X)."))) == 50


def test_facts_that_widen_or_narrow_a_column_are_answered_with_its_new_type():
    from sym.core.logic.terms import Atom

    engine = duck("p(1). q(X, Y) :- p(X), Y is X * 2.")
    assert engine.solve(parse_query("?- q(X, Y).")) != []
    engine.add_facts([Atom("p", (1.5,))])      # int -> num
    assert sorted(tuple(a.values()) for a in engine.solve(parse_query("?- q(X, Y)."))) == [(1, 2), (1.5, 3)]
    engine.remove_fact(Atom("p", (1,)))
    assert engine.holds(Atom("q", (1.5, 3)))
    engine.add_facts([Atom("p", ("a",))])      # numbers and an atom: refused in one line
    with pytest.raises(UserError, match="both numbers and atoms"):
        engine.solve(parse_query("?- q(X, Y)."))
    engine.remove_fact(Atom("p", ("a",)))
    assert engine.holds(Atom("q", (1.5, 3)))
