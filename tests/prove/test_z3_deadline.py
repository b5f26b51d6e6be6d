"""A Z3 deadline is a deadline whether or not Z3 keeps it: a watchdog interrupts the solver's
context once a check runs past proof.timeout (and a grace), and the command is a timeout, exit 4 —
with the machine kept busy by CPU-bound processes, and with Z3's own timer taken away."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from sym.core.errors import TimedOut
from sym.core.stop import Stop
from tests.prove.test_prove_smt2_commands import HARD

# HARD as a JSON program: the in-process watchdog is the JSON interpreter's (a script's checks run
# in a worker process the parent kills: tests/prove/test_smt2_semantics.py)
HARD_JSON = {"sorts": [{"name": "Int", "type": "IntSort"}],
             "functions": [{"name": n, "domain": [], "range": "IntSort"} for n in ("x", "y", "z")],
             "knowledge_base": ["x > 1", "y > 1", "z > 1", "x*x*x + y*y*y == z*z*z"],
             "verifications": [{"name": "big", "constraint": "x > 1000"}]}
SONS_JSON = "sons.json"


def built_json(source):
    from pathlib import Path

    from sym.core.reason.pot.build import build
    from sym.core.reason.pot.schema import load_program

    if isinstance(source, str):
        source = (Path(__file__).resolve().parents[2] / "examples" / source).read_text()
        return build(load_program(source))
    return build(load_program(json.dumps(source)))


@contextmanager
def busy_cpu(processes: int = 2):
    """CPU-bound processes beside the test, for its duration."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)]
    try:
        yield
    finally:
        for proc in spinners:
            proc.kill()
            proc.wait(timeout=30)


def test_a_z3_timeout_in_a_script_exits_4_on_a_busy_machine(sym_exe, tmp_path):
    (tmp_path / "hard.smt2").write_text(HARD)
    script = tmp_path / "run.sym"
    script.write_text("/set proof.timeout 0.001\n/prove --file hard.smt2\n/set proof.timeout 0.3\n"
                      "/prove --file hard.smt2\n")
    with busy_cpu():
        started = time.monotonic()
        proc = subprocess.run([*sym_exe, "--batch", str(script), "--json"], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)
        took = time.monotonic() - started
    assert proc.returncode == 4, proc.stderr
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    proofs = [r for r in results if r["command"] == "/prove"]
    assert len(proofs) == 2
    for proof in proofs:
        assert not proof["ok"] and "proof.timeout" in proof["error"] and "cancel" not in proof["error"].lower()
    assert took < 60, took       # generous: start-up on a loaded machine; it overran 120 s before


def test_the_watchdog_stops_a_check_z3_would_not_stop(monkeypatch):
    from sym.core.reason.pot import interpret

    def solver_without_a_timer(self, cls=None):
        import z3

        return (cls or z3.Solver)(ctx=self.env.ctx)      # Z3's own timeout never set: only the watchdog is left

    monkeypatch.setattr(interpret.Checker, "solver", solver_without_a_timer)
    built = built_json(HARD_JSON)
    with busy_cpu():
        started = time.monotonic()
        with pytest.raises(TimedOut) as err:
            interpret.check_built(built, stop=Stop(proof_timeout=0.2))
        took = time.monotonic() - started
    assert "proof.timeout (0.2 s)" in err.value.message
    assert took < 0.2 + interpret.Watchdog.grace(200) + 5, took     # the grace, and the machine's load


def test_a_cancel_is_still_a_cancel_and_a_quick_check_is_untouched():
    import threading

    from sym.core.errors import Cancelled
    from sym.core.reason.pot import interpret

    report = interpret.check_built(built_json(SONS_JSON), stop=Stop(proof_timeout=10))
    assert report.verifications and all(v.status == "proved" for v in report.verifications)

    cancel = threading.Event()
    built = built_json(HARD_JSON)
    threading.Timer(0.2, cancel.set).start()
    with pytest.raises(Cancelled):
        interpret.check_built(built, stop=Stop(cancel, proof_timeout=60))


def test_the_memory_check_arms_the_watchdog_with_its_timeout(sym, monkeypatch):
    from sym.core.reason.pot import check_memory, interpret

    armed: list[int] = []

    class Recording(interpret.Watchdog):
        def armed(self, timeout_ms):
            armed.append(timeout_ms)
            return super().armed(timeout_ms)

    @contextmanager
    def interruptible(zctx, cancel):
        dog = Recording(zctx, cancel)
        dog.start()
        try:
            yield dog
        finally:
            dog.stop()

    monkeypatch.setattr(check_memory, "interruptible", interruptible)
    sym("p(a). q(X) :- p(X). ~q(b).")
    result = check_memory.check_classical(list(sym.shell.memory.items.values()), stop=Stop(proof_timeout=0.05))
    assert armed == [50] and result.consistent is True
