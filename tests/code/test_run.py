"""A run: one frozen object per command with its id, settings, events, cancel flag and model client."""

from __future__ import annotations

import dataclasses
import itertools
import threading

import pytest

from sym.core.errors import Cancelled, UserError
from sym.core.events import Progress, TraceNode
from sym.core.run import Run
from sym.core.settings import Settings


def test_a_run_is_frozen():
    run = Run(Settings(), "ask-1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.settings = Settings()   # type: ignore[misc]


def test_a_numbered_run_draws_its_number_only_when_its_id_is_used():
    counter = itertools.count(1)
    unused = Run(Settings(), "tell", numbers=lambda: next(counter))
    used = Run(Settings(), "ask", numbers=lambda: next(counter))
    assert used.id == "ask-1" and used.id == "ask-1"
    assert unused.id == "tell-2"


def test_check_raises_cancelled_once_and_clears_the_flag():
    cancel = threading.Event()
    run = Run(Settings(), cancel=cancel)
    run.check()
    cancel.set()
    assert run.cancelled
    with pytest.raises(Cancelled):
        run.check()
    assert not cancel.is_set()
    run.check()


def test_trace_and_progress_are_events_of_the_run():
    seen: list = []
    run = Run(Settings(), "why-4", emit=seen.append)
    run.trace("n1", None, "why", "label", "detail", "ok")
    run.progress("parsing")(3, 10)
    assert seen == [TraceNode("why-4", "n1", None, "why", "label", "detail", "ok"), Progress("parsing", 3, 10)]


def test_the_model_client_is_built_once_for_the_runs_settings():
    built: list = []

    def client(run):
        built.append(run.settings)
        return object()

    settings = Settings()
    run = Run(settings, client=client)
    assert run.llm is run.llm and built == [settings]


def test_a_run_without_a_model_says_so():
    run = Run.using(None, "bench-1")
    assert not run.has_model and run.id == "bench-1"
    with pytest.raises(UserError, match="needs a language model"):
        _ = run.llm


def test_the_runs_stop_carries_every_limit_of_its_settings():
    settings = Settings()
    settings.proof_timeout, settings.math_timeout, settings.query_timeout, settings.max_facts = 2.5, 7.0, 3.0, 99
    cancel = threading.Event()
    stop = Run(settings, cancel=cancel).stop
    assert (stop.proof_ms, stop.math_timeout, stop.query_timeout, stop.max_facts) == (2500, 7.0, 3.0, 99)
    assert stop.cancel is cancel and not stop.cancelled
    cancel.set()
    assert stop.cancelled
    with pytest.raises(Cancelled) as stopped:
        stop.check()
    assert stopped.value.reason == "cancelled" and not cancel.is_set()


def test_every_stop_is_one_exception_type_with_its_reason():
    from sym.core.errors import CapReached, Stopped, TimedOut
    from sym.core.logic.pause import Budget

    assert [e.reason for e in (Cancelled(), TimedOut("late"), CapReached("many"))] == ["cancelled", "deadline", "cap"]
    assert issubclass(Cancelled, Stopped) and issubclass(TimedOut, Stopped) and issubclass(CapReached, Stopped)
    with pytest.raises(Stopped) as capped:
        Budget(max_facts=10).check(11)
    assert capped.value.reason == "cap" and "max_facts" in str(capped.value)


def test_a_sample_of_a_run_carries_its_id_and_draws_no_number_of_its_own():
    counter = itertools.count(1)
    seen: list = []
    run = Run(Settings(), "prove", numbers=lambda: next(counter))
    client = object()
    sample = run.sample(client, seen.append)
    sample.trace("n1", None, "prove.attempt", "step 3")
    assert seen == [TraceNode("prove-1", "n1", None, "prove.attempt", "step 3")] and sample.llm is client
    assert dataclasses.replace(sample, settings=Settings()).id == "prove-1"    # a copy of the sample too
    assert run.id == "prove-1" and next(counter) == 2
