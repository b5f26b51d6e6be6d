"""Ctrl+C stops real runaway jobs in the line REPLs, and every command's inference is bounded:
a `sym --plain` child on a pipe and the prompt-toolkit REPL end a /math job as "cancelled" and
take the next command, and so do a /consult of 200,000 facts and a /load of a long text, leaving
nothing of themselves in the workspace; /ask inference stops at max_facts and on cancel (the
dispatcher bounds the memory before each command). Time bounds are generous: "not stuck", not a
benchmark (benchmarks/cancel_bench.py measures)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import threading
import time

from sym.core.events import JobStarted
from sym.repl.results import Failure
from tests.ollama_server import unused_url

RUNAWAY = "/math expand (x+y+z+w)**999"          # grows to gigabytes if left alone
# a cancelled /consult or /load is a rollback of the snapshot's transaction (Chroma follows in the background)
WRITE_STOPPED_WITHIN = 20.0   # a bound against hanging, not a speed: benchmarks/cancel_bench.py measures


class Child:
    """A `sym --plain` process fed through a pipe, its output collected line by line."""

    def __init__(self, sym_exe, sym_home):
        env = dict(os.environ, SYM_HOME=str(sym_home))
        self.proc = subprocess.Popen([*sym_exe, "--plain", "--memory", "cancel"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=lambda s=stream, acc=lines: acc.extend(s), daemon=True).start()

    def send(self, *lines: str) -> None:
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def wait_for(self, lines: list[str], text: str, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not any(text in line for line in lines):
            assert self.proc.poll() is None, (self.out, self.err)
            assert time.monotonic() < end, f"no {text!r} within {seconds} s: {self.out} {self.err}"
            time.sleep(0.05)


def test_ctrl_c_stops_math_in_a_plain_child_and_the_next_command_runs(sym_exe, sym_home):
    child = Child(sym_exe, sym_home)
    try:
        child.send("/math expand (x + 1)**2")                  # the worker is warm before the runaway
        child.wait_for(child.out, "x**2 + 2*x + 1", 60)
        child.send("/set math_timeout 600", RUNAWAY)          # only Ctrl+C can end it in time
        child.wait_for(child.out, "math_timeout = 600", 10)
        time.sleep(1.0)                                        # the worker is expanding now
        child.proc.send_signal(signal.SIGINT)
        child.wait_for(child.err, "cancelled", WRITE_STOPPED_WITHIN)
        assert any("cancelling" in line for line in child.err) and "cancelled\n" in child.err   # calm, no "error:"
        child.send("/math expand (x + 1)**3", "/bye")
        child.proc.wait(60)
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
            child.proc.wait()
    assert "x**3 + 3*x**2 + 3*x + 1\n" in child.out          # the next /math got its own answer
    assert child.out[-1] == "bye.\n"
    assert child.proc.returncode == 130                      # piped input: the most severe code, a cancel
    assert not any("Traceback" in line or "interrupted" in line for line in child.err), child.err


def stored(workspace: str = "cancel") -> tuple:
    """Facts, documents and predicates of a workspace, read back after its process has ended."""
    from sym.core.memory import library
    from sym.repl.dispatcher import MemoryOptions, open_shell

    shell = open_shell(MemoryOptions(workspace), record=False)
    try:
        store = shell.memory.store
        return (shell.memory.counts()["fact"], store.count("facts"), store.count("docs"),
                [d.name for d in library.documents(store)], sorted(shell.memory.schema.predicates))
    finally:
        shell.close()


def disk_use(directory) -> int:
    return sum(f.stat().st_size for f in directory.rglob("*") if f.is_file())


def ctrl_c_a_write(sym_exe, sym_home, command: str, then: str, answer: str) -> Child:
    """Run `command` in a plain child, Ctrl+C it while it writes, then run `then` (which prints `answer`)."""
    child = Child(sym_exe, sym_home)
    try:
        child.send("p(a).")
        child.wait_for(child.out, "p(a).", 30)
        wal = sym_home / "workspaces" / "cancel" / "items.sqlite-wal"
        before = wal.stat().st_size if wal.exists() else 0
        child.send(command)
        end = time.monotonic() + 120
        while (wal.stat().st_size if wal.exists() else 0) < before + 2_000_000:   # its transaction is being written
            assert child.proc.poll() is None and time.monotonic() < end, (child.out, child.err)
            time.sleep(0.02)
        assert child.proc.poll() is None and not any("cancelled" in line for line in child.err)
        child.proc.send_signal(signal.SIGINT)
        child.wait_for(child.err, "cancelled", WRITE_STOPPED_WITHIN)
        assert any("cancelling" in line for line in child.err) and "cancelled\n" in child.err   # calm, no "error:"
        child.send(then)
        child.wait_for(child.out, answer, 30)
        child.send("/bye")
        child.proc.wait(60)
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
            child.proc.wait()
    assert child.out[-1] == "bye.\n"
    assert child.proc.returncode == 130
    assert not any("Traceback" in line or "interrupted" in line for line in child.err), child.err
    return child


def test_ctrl_c_stops_a_big_consult_in_a_plain_child_and_keeps_nothing_of_it(sym_exe, sym_home, tmp_path):
    big = tmp_path / "BIG.pl"
    big.write_text("".join(f"edge(n{i}, n{i + 1}).\n" for i in range(200_000)), encoding="utf-8")
    ctrl_c_a_write(sym_exe, sym_home, f"/consult {big}", "q(b).", "q(b).")
    assert stored() == (2, 2, 0, [], ["p/1", "q/1"])          # p(a) and the next command's q(b): no edge/2


def test_ctrl_c_stops_a_big_load_in_a_plain_child_and_keeps_nothing_of_it(sym_exe, sym_home, tmp_path):
    big, small = tmp_path / "BIG.txt", tmp_path / "small.txt"
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
    big.write_text("".join(" ".join(f"{words[(i + j) % 10]}{(i * j) % 89}" for j in range(80)) + f" part {i}.\n\n"
                           for i in range(60_000)), encoding="utf-8")    # ~60,000 chunks: seconds to store
    small.write_text("Anne is kind.\n\nBob is tall.\n", encoding="utf-8")
    ctrl_c_a_write(sym_exe, sym_home, f"/load {big}", f"/load {small}", "loaded small.txt: 1 chunk,")
    assert stored() == (1, 1, 1, ["small.txt"], ["p/1"])


def test_ctrl_c_stops_math_in_the_prompt_toolkit_repl(shell):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from sym.repl.prompt import run_prompt

    shell.ctx.settings.math_timeout = 600
    out, err = io.StringIO(), io.StringIO()
    started_jobs = threading.Event()
    shell.ctx.emit = lambda event: started_jobs.set() if isinstance(event, JobStarted) else None

    def press_ctrl_c_once_running() -> None:
        if started_jobs.wait(30):
            time.sleep(1.5)                                    # the worker is expanding now
            os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=press_ctrl_c_once_running, daemon=True)
    started = time.monotonic()
    with create_pipe_input() as pipe:
        pipe.send_text(f"{RUNAWAY}\n/math expand (x + 1)**2\n\x04")
        timer.start()
        run_prompt(shell=shell, input=pipe, output=DummyOutput(), out=out, err=err)
    assert time.monotonic() - started < 60                     # the runaway did not run on
    assert "cancelling" in err.getvalue() and "cancelled" in err.getvalue().splitlines()   # calm, no "error:"
    assert out.getvalue().strip().splitlines()[-1] == "x**2 + 2*x + 1"


# -- the dispatcher bounds every command's inference -------------------------------------------

def names(prefix: str, n: int) -> list[str]:
    """n names of letters only (English reads "p1" as p_1): paaa, paab, …"""
    return [prefix + "".join(chr(97 + i // 26 ** k % 26) for k in (2, 1, 0)) for i in range(n)]


def cross_product(sym, n: int) -> None:
    sym.shell.ctx.settings.ollama_host = unused_url()     # /ask must answer from memory, not a model
    for pred, prefix in (("a", "p"), ("b", "q")):
        assert sym("/fact " + " ".join(f"{pred}({name})." for name in names(prefix, n))).ok
    assert sym("/rule pair(X, Y) :- a(X), b(Y).").ok
    assert sym("/rule big(X) :- pair(X, Y).").ok


def test_ask_stops_at_max_facts_with_a_message_naming_it(sym):
    cross_product(sym, 500)                                    # 250,000 pairs
    sym("/set max_facts 10000")
    answer = sym("/ask Is pabc big?")                           # goal-directed: pabc's 500 pairs
    assert answer.ok and answer.outcome.answer == "true", answer
    result = sym("/ask What is big?")                           # every pair
    assert isinstance(result, Failure) and "max_facts" in result.message
    sym("/set max_facts 1000000")
    answer = sym("/ask What is big?")
    assert answer.ok and {"X": "pabc"} in answer.outcome.values, answer


def test_ask_stops_on_cancel(sym):
    cross_product(sym, 6000)                                   # 36,000,000 pairs: seconds even set-at-a-time
    sym("/set max_facts 50000000")                             # so that only the cancel stops it in time
    cancel = threading.Event()
    sym.shell.ctx.cancel = cancel
    threading.Timer(0.5, cancel.set).start()                   # Esc / Ctrl+C while it runs
    started = time.monotonic()
    result = sym("/ask What is big?")                           # every pair: a point question needs 6,000
    assert time.monotonic() - started < 30
    assert isinstance(result, Failure) and result.exit_code == 130, result
    assert not cancel.is_set()                                 # cleared for the next job
