"""A Spark model is bounded as the native one is: a runaway recursion stops at the fact cap with one
line, and the deadline and cancel (Esc) cancel the Spark job running (small data, so nothing here can outlast a
SIGALRM backstop that fails the test instead of hanging it). Skipped with the reason where pyspark or
Java 17+ is missing."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator

import pytest

from tests.backends.spark_env import require_spark

require_spark()

from sym.core.backends import spark as spark_backend  # noqa: E402 (after the skip: pyspark and Java are there)
from sym.core.backends.engine import RelationalEngine  # noqa: E402
from sym.core.errors import Cancelled, TimedOut, UserError  # noqa: E402
from sym.core.logic.parser import parse_program  # noqa: E402

BACKSTOP = 90  # seconds: a test still running then fails (a stop that never came), never hangs


class Hung(Exception):
    pass


@pytest.fixture(autouse=True)
def backstop() -> Iterator[None]:
    def fail(signum, frame):
        raise Hung(f"still running after {BACKSTOP}s")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(BACKSTOP)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def spark(text: str) -> RelationalEngine:
    engine = RelationalEngine(spark_backend.SparkExecutor())
    engine.add_program([item.clause for item in parse_program(text)])
    return engine


def test_a_runaway_recursion_stops_at_the_fact_cap_with_one_line():
    # ten times as many facts a round, without end
    engine = spark("n(1). " + " ".join(f"k({i})." for i in range(10)) + " n(Y) :- n(X), k(K), Y is X * 10 + K.")
    engine.max_facts = 200
    try:
        with pytest.raises(UserError) as err:
            engine.infer()
        assert "max_facts" in str(err.value) and "\n" not in str(err.value)
    finally:
        engine.executor.close()


def test_the_deadline_cancels_a_spark_job():
    # one job that runs for hours: 10^12 rows of a four-way cross product
    engine = spark(" ".join(f"d({i})." for i in range(1000))
                   + " pair(A, B, C) :- d(A), d(B), d(C), d(D), A * B + C * D =:= 7.")
    engine.deadline.arm(2.0)
    try:
        with pytest.raises(TimedOut):
            engine.infer()
    finally:
        engine.executor.close()


def test_cancel_cancels_a_spark_job():
    engine = spark(" ".join(f"d({i})." for i in range(1000))
                   + " pair(A, B, C) :- d(A), d(B), d(C), d(D), A * B + C * D =:= 7.")
    engine.cancel = threading.Event()
    threading.Timer(2.0, engine.cancel.set).start()
    try:
        with pytest.raises(Cancelled):
            engine.infer()
        assert not engine.cancel.is_set()      # the next job starts afresh
    finally:
        engine.executor.close()
