"""/math never hangs: SymPy runs in a worker process that a deadline, a memory limit or a
cancel stops, and results too large to show are one clear line."""

from __future__ import annotations

import os
import threading
import time

import pytest

from sym.core.errors import Cancelled, TimedOut, UserError
from sym.core.reason import math as math_mod
from sym.core.reason.math import compute
from sym.core.stop import Stop

TOWER = "^".join(["sqrt(2)"] * 20)


@pytest.mark.parametrize("op, expr", [
    ("expand", "(x+y+z+w)**999"),
    ("simplify", "binomial(10**999, 10**998)"),
    ("solve", "x**999+x+1=0"),
    ("simplify", TOWER),
])
def test_runaway_reproducers_end_with_one_clear_line(op, expr):
    with pytest.raises(UserError) as caught:
        compute(op, expr, stop=Stop(math_timeout=1.5))
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    assert isinstance(caught.value, TimedOut) or "digits" in message or "too large" in message
    # the shell goes on: the next job gets a working worker
    assert compute("factor", "x**2 - 1").text == "(x - 1)*(x + 1)"


def test_timeout_names_the_setting():
    with pytest.raises(TimedOut, match="math_timeout"):
        compute("expand", "(x+y+z+w)**999", stop=Stop(math_timeout=0.5))


def test_result_over_the_digit_limit_is_refused_by_name():
    with pytest.raises(UserError, match="more than 4,300 digits"):
        compute("expand", "(10**999 + 1)**5")


def test_result_too_long_to_show_is_refused_by_length():
    with pytest.raises(UserError, match="characters long"):
        compute("expand", "(a+b+c+d+e+f)**11", stop=Stop(math_timeout=60))    # 106,125 characters


def test_memory_limit_gives_a_clear_line():
    with pytest.raises(UserError, match="math_memory = 150 MB"):
        compute("expand", "(x+y+z+w)**999", stop=Stop(math_timeout=60), memory_mb=150)
    assert compute("diff", "x^3 wrt x").text == "3*x**2"


def test_cancel_kills_the_running_worker_promptly():
    compute("factor", "x**2 - 1")                 # a warm worker
    busy = math_mod._WORKER[0]
    cancel = threading.Event()
    outcome: list = []

    def job():
        try:
            compute("expand", "(x+y+z+w)**999", stop=Stop(cancel, math_timeout=120))
        except UserError as err:
            outcome.append(err)

    runner = threading.Thread(target=job)
    runner.start()
    cancel.set()
    started = time.monotonic()
    runner.join(5)
    assert not runner.is_alive(), "cancel did not stop /math"
    assert time.monotonic() - started < 5         # a generous bound: not stuck
    assert isinstance(outcome[0], Cancelled)
    assert not busy.is_alive()
    with pytest.raises(ProcessLookupError):
        os.kill(busy.pid, 0)
    assert not cancel.is_set()                    # the next job starts afresh
    assert compute("expand", "(x + 1)**2", stop=Stop(cancel)).text == "x**2 + 2*x + 1"


def test_worker_parses_with_the_grammar_not_eval():
    with pytest.raises(UserError, match="unexpected character"):
        compute("simplify", "__import__('os').system('true')")


def test_a_huge_derivative_order_is_refused_at_once():
    with pytest.raises(UserError, match="derivative order too large"):
        compute("simplify", "diff(sin(x), x, 2222222222222222222222222222222222)")
    assert compute("simplify", "diff(sin(x), x, 2)").text == "-sin(x)"
