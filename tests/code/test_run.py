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


def test_timeout_ms_follows_the_proof_timeout():
    settings = Settings()
    settings.proof_timeout = 2.5
    assert Run(settings).timeout_ms == 2500


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
