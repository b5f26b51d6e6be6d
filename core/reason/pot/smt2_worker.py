"""`/prove --file X.smt2`: the script runs in a worker process that can really be stopped.

Z3 stops most checks at its own timeout, and the in-process watchdog interrupts most of the
others; some it cannot (bit-blasting a Float64 `fp.rem` ran 130–280 s past a 10 s limit: the loop
never looks at Z3's cancel flag), and a thread cannot be killed. So the script runs in a child
process (smt2_run.py) that reports each check as it starts ("arm") and ends; when a solver call
runs past proof.timeout and a grace, or the user cancels, the parent kills the child. A killed
check is "unknown (timeout)"; a fresh child then reruns the script from the next check (the
declarations and assertions again, the checks before it skipped), so the others still report.
A child serves one script: Z3's global parameters must not carry over to the next.
Messages are JSON, never pickles.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.errors import TimedOut, UserError
from sym.core.reason import child as child_process
from sym.core.reason.pot.interpret import INCONSISTENT, UNKNOWN, OptimizationResult, ProofReport, VerificationResult, Watchdog
from sym.core.reason.pot.smt2_read import Smt2Error, Smt2Program, z3_error
from sym.core.reason.pot.smt2_steps import steps
from sym.core.stop import UNBOUNDED, Stop
from sym.core.text import valid_text

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

_POLL_S = 0.02
_LOCK = threading.Lock()
# [process, connection] while one runs: a process serves one script (Z3's global state, its
# parameters and their caches, must not reach the next: z3test t135 after t136 and t139 was unsat
# where z3 says sat)
_WORKER: list[Any] = []
IDLE_S = 120.0                   # between checks (reading, declaring), the most a child may stay silent


@dataclass
class ScriptReport(ProofReport):
    """A script's report: the verdicts of its claims (ProofReport's), and every check in order with
    Z3's answer there, what the script printed, each optimization."""

    checks: list[dict[str, Any]] = field(default_factory=list)
    output: list[dict[str, Any]] = field(default_factory=list)
    optimizations: list[OptimizationResult] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["checks"] = self.checks
        if self.output:
            out["output"] = self.output
        if len(self.optimizations) > 1:
            out["optimizations"] = [o.to_dict() for o in self.optimizations]
        return out


def run_script(program: Smt2Program, *, stop: Stop = UNBOUNDED) -> ScriptReport:
    """Run a script (reading it first: a refused command fails it before anything runs), each
    check within stop.proof_timeout; the worker is stopped at once when the stop's cancel is set."""
    from sym.core.reason.pot.schema import MAX_PROGRAM_CHARS

    text = valid_text(program.text)   # what Z3 can encode: no lone surrogate or NUL, LF line ends
    try:
        if len(text) > MAX_PROGRAM_CHARS:
            raise Smt2Error(f"larger than {MAX_PROGRAM_CHARS} characters")
        steps(text)
        checks, output = _run(text, stop, program.strict)
        if not checks and any(o.get("error") for o in output):     # nothing answered: the error is the answer
            raise z3_error(" ".join(next(o["text"] for o in output if o.get("error")).split()))   # one line
    except Smt2Error as err:
        raise Smt2Error(f"{program.source}: {err.message}", hint=err.hint or "an SMT-LIB 2 script: declarations, "
                        "(assert F), and a (check-sat-assuming (GOAL)) per claim") from None
    return _report(checks, output, stop.proof_ms)


def run_smt2(program: Smt2Program, *, stop: Stop = UNBOUNDED) -> ScriptReport:
    """Check a script (the name programs.py and the tests know)."""
    return run_script(program, stop=stop)


def entry_texts_smt2(program: Smt2Program) -> dict[str, str]:
    """Core label -> the assertion's text, for every assertion of a script (the Models pane's core)."""
    texts: dict[str, str] = {}
    try:
        for step in steps(valid_text(program.text)):
            if step.kind == "assert":
                label = step.label or f"line {step.line}"
                texts.setdefault(label, " ".join(step.text.split()))
                texts.setdefault(f"{label} (line {step.line})", " ".join(step.text.split()))
    except Smt2Error:
        pass
    return texts


def _run(text: str, stop: Stop, strict: bool = False) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    timeout_ms = stop.proof_ms
    checks: dict[int, dict[str, Any]] = {}
    output: list[dict[str, Any]] = []
    start, cores = 0, True
    kill_after = timeout_ms / 1000 + Watchdog.grace(timeout_ms) + 1.0 + timeout_ms / 5000
    with _LOCK:
        while True:
            conn = _warm_worker(stop)
            conn.send_bytes(json.dumps({"text": text, "timeout_ms": timeout_ms, "start": start, "strict": strict,
                                        "cores": cores}).encode())
            deadline, current = time.monotonic() + IDLE_S, -1
            while True:
                if stop.cancelled:
                    _stop_worker()
                    stop.check()
                if time.monotonic() > deadline:
                    _stop_worker()
                    if current < 0:
                        raise TimedOut(f"Z3 took more than {IDLE_S:g} s reading the script")
                    check = checks.setdefault(current, {"check": current})
                    past = f"ran past proof.timeout ({timeout_ms / 1000:g} s) and was stopped"
                    if "answer" in check:      # Z3 had answered: what stopped was one of sym's own checks after it
                        check["note"] = f"sym's own check after Z3's answer {past}"
                        # a core that ran out of time: the later ones would too (z3test fp-rem-*: 19 checks)
                        cores = cores and check.get("kind") == "claim"
                        if check.get("kind") == "claim":
                            check["verification"] = {"name": check.get("name", ""), "status": UNKNOWN,
                                                     "reason": f"Z3 says {check['answer']} for the claim; "
                                                               f"its negation {past}"}
                    else:
                        check.update(answer=UNKNOWN, timeout=True, reason=past)
                    start = current + 1
                    break
                if not conn.poll(_POLL_S):
                    continue
                try:
                    message = json.loads(conn.recv_bytes())
                except (EOFError, OSError, ValueError):
                    _stop_worker()
                    where = f" at check {current + 1}" if current >= 0 else ""
                    raise UserError(f"Z3 stopped{where} without an answer (it ran out of memory or crashed)",
                                    hint="split the script, or check it with z3 alone") from None
                event = message.pop("event", "")
                if event in ("arm", "answer", "check"):
                    current = message["check"]
                    checks.setdefault(current, {}).update(message)
                    deadline = time.monotonic() + (kill_after if event == "arm" else IDLE_S)
                    if event == "check":
                        current = -1
                elif event == "dropped":          # Z3 refused the check command itself: no answer there, as in z3
                    checks.pop(message["check"], None)
                    current, deadline = -1, time.monotonic() + IDLE_S
                elif event == "output":
                    output.append(message)
                elif event == "error":
                    _stop_worker()
                    raise Smt2Error(message["error"], hint=message.get("hint"))
                elif event == "done":
                    _stop_worker()
                    return [checks[i] for i in sorted(checks)], output


def _report(checks: list[dict[str, Any]], output: list[dict[str, Any]], timeout_ms: int) -> ScriptReport:
    def timed_out(c: dict[str, Any]) -> bool:      # Z3's answer, or the claim's verdict, ran out of time
        return bool(c.get("timeout")) or "proof.timeout" in c.get("verification", {}).get("reason", "")

    if checks and all(timed_out(c) for c in checks):
        lines = ", ".join(str(c.get("line", "?")) for c in checks[:5])
        raise TimedOut(f"Z3 ran past proof.timeout ({timeout_ms / 1000:g} s) on every check (line {lines})",
                       hint="raise it with /set proof.timeout SECONDS")
    verifications, optimizations = [], []
    consistent: bool | None = None
    first_core: list[str] = []
    for c in checks:
        if c.get("kind") == "claim":
            v = c.get("verification")
            if v is None:
                reason = "timeout: ran past proof.timeout" if c.get("timeout") else c.get("note", "")
                v = {"name": c.get("name", ""), "status": UNKNOWN, "reason": reason}
            verifications.append(VerificationResult(v["name"], v["status"], v.get("model"), v.get("counter_model"),
                                                    v.get("reason", "")))
        if "optimization" in c:
            o = c["optimization"]
            optimizations.append(OptimizationResult(o["status"], o["objectives"], o.get("model")))
        clash = "core" in c or (c.get("kind") != "claim" and c.get("answer") == "unsat") or \
            c.get("verification", {}).get("status") == INCONSISTENT
        if clash and consistent is not False:
            consistent, first_core = False, c.get("core", [])
        elif consistent is None and (c.get("answer") == "sat" or
                                     c.get("verification", {}).get("status") in ("proved", "refuted")):
            consistent = True
    return ScriptReport(verifications, consistent, first_core, optimizations[-1] if optimizations else None,
                        checks, output, optimizations)


# -- the worker process ------------------------------------------------------------------

def _warm_worker(stop: Stop) -> Connection:
    if _WORKER and not _WORKER[0].is_alive():
        _stop_worker()
    if not _WORKER:
        mp = multiprocessing.get_context("forkserver")
        mp.set_forkserver_preload(["sym.core.reason.pot.smt2_worker", "z3"])
        parent, child = mp.Pipe()
        proc = mp.Process(target=_serve, args=(child,), daemon=True, name="sym-smt2")
        try:
            child_process.start(proc)
        except (EOFError, OSError):
            child.close()
            raise UserError("the Z3 worker process could not start") from None
        child.close()
        _WORKER[:] = [proc, parent]
        while not parent.poll(_POLL_S):
            if stop.cancelled:
                _stop_worker()
                stop.check()
            if not proc.is_alive():
                _stop_worker()
                raise UserError("the Z3 worker process could not start")
        parent.recv_bytes()
    conn: Connection = _WORKER[1]
    return conn


def _stop_worker() -> None:
    if not _WORKER:
        return
    proc, conn = _WORKER
    _WORKER.clear()
    proc.kill()
    proc.join(2)
    conn.close()


def _serve(conn: Connection) -> None:
    """The child's loop: one script per request, its messages streamed, then {"done"}."""
    from sym.core.reason.pot.smt2_run import Runner

    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl+C is the shell's; it stops us by kill
    null = os.open(os.devnull, os.O_WRONLY)          # Z3's own diagnostics must not land on the screen
    os.dup2(null, 2)
    os.close(null)
    conn.send_bytes(b"ready")

    def send(message: dict[str, Any]) -> None:
        conn.send_bytes(json.dumps(message, default=str).encode())

    while True:
        try:
            request = json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            Runner(int(request["timeout_ms"]), send, int(request["start"]), bool(request.get("strict")),
                   bool(request.get("cores", True))).run(str(request["text"]))
        except UserError as err:
            send({"event": "error", "error": err.message, "hint": err.hint})
            continue
        except RecursionError:
            send({"event": "error", "error": "the script nests too deeply for Z3's reader"})
            continue
        except Exception as err:  # noqa: BLE001 - Z3 raises many kinds; the user gets one line
            send({"event": "error", "error": f"Z3 failed: {type(err).__name__}: {str(err)[:200]}"})
            continue
        send({"event": "done"})
