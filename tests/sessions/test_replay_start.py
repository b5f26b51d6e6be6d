"""`sym replay --verify` starts where the session started: the workspace's items as the session
opened it (a session on a non-empty workspace verifies equal); an input cancelled when recorded
is told as such and neither run nor compared; `--offline` needs no model server, so a session
recorded with `--ollama-host` verifies without skipping anything."""

from __future__ import annotations

import json
import os
import subprocess


def run(sym_exe, sym_home, *args, stdin: str = ""):
    return subprocess.run([*sym_exe, *args], input=stdin, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "SYM_HOME": str(sym_home)})


def newest(sym_home):
    return max((sym_home / "sessions").glob("*.jsonl"), key=lambda p: p.stat().st_mtime_ns)


def test_a_session_that_began_on_a_non_empty_workspace_replays_equal(sym_exe, sym_home):
    filled = run(sym_exe, sym_home, "--memory", "kb", "--batch", "-", stdin="p(a).\nq(b) :- p(b).\n")
    assert filled.returncode == 0, filled.stderr
    later = run(sym_exe, sym_home, "--memory", "kb", "--batch", "-", stdin="/listing\n/memory\nr(c).\n/listing\n")
    assert later.returncode == 0 and "p(a)." in later.stdout, later.stderr
    log = newest(sym_home)
    proc = run(sym_exe, sym_home, "replay", str(log), "--verify")
    assert proc.returncode == 0, proc.stderr
    assert "replayed 4 commands" in proc.stderr and proc.stderr.rstrip().endswith("equal"), proc.stderr
    opened = [json.loads(line) for line in log.read_text().splitlines() if '"opened"' in line]
    assert [e["text"] for e in opened[0]["items"]] == ["p(a).", "q(b) :- p(b)."]   # what it started from


def test_an_input_cancelled_when_recorded_is_told_and_not_compared(shells, sym_exe, sym_home):
    shell = shells("stopped", record=True)
    shell.execute("e(1, 2).")
    shell.execute("r(X, Y) :- e(X, Y).")
    shell.ctx.cancel.set()                    # Esc / Ctrl+C as the job starts
    assert shell.execute("/infer")[1].cancelled
    shell.execute("/listing")
    log = shell.ctx.session.path
    shell.close()
    proc = run(sym_exe, sym_home, "replay", str(log), "--verify")
    assert proc.returncode == 0, proc.stderr
    assert "input 3 ('/infer') was cancelled when recorded: not replayed" in proc.stderr
    assert "1 cancelled when recorded (not compared)" in proc.stderr and "differ" not in proc.stderr, proc.stderr


def test_a_session_recorded_with_an_ollama_host_replays_offline_without_skipping(sym_exe, sym_home):
    recorded = run(sym_exe, sym_home, "--ollama-host", "http://127.0.0.1:9", "--batch", "-", stdin="p(a).\n/listing\n")
    assert recorded.returncode == 0, recorded.stderr
    proc = run(sym_exe, sym_home, "replay", str(newest(sym_home)), "--offline", "--verify")
    assert proc.returncode == 0, proc.stderr
    assert "skipped" not in proc.stderr and proc.stderr.rstrip().endswith("equal"), proc.stderr
