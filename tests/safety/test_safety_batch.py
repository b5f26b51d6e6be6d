"""Batch exit codes as documented in every mode, English questions in scripts, and session logs
that stay small when a reply is huge."""

from __future__ import annotations

import os
import socket
import subprocess

import pytest


def run(sym_exe, *args, stdin: str, env: dict):
    return subprocess.run([*sym_exe, *args], input=stdin, capture_output=True, text=True, timeout=120, env=env)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def env(sym_home, ollama_server):
    return {**os.environ, "SYM_HOME": str(sym_home), "OLLAMA_HOST": ollama_server.url}


FAST = "/set llm_retries 0\n/set llm_timeout 0.5\n"


def test_without_bail_a_dead_server_exits_3_after_running_every_command(sym_exe, env):
    env = {**env, "OLLAMA_HOST": f"http://127.0.0.1:{closed_port()}"}
    proc = run(sym_exe, "--batch", "-", stdin=FAST + "/llm hello\n/nope\np(a).\n?- p(a).\n", env=env)
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout.strip().endswith("true.")           # the run went on to the end


def test_without_bail_a_timeout_exits_4(sym_exe, env, ollama_server):
    ollama_server.fail("slow", delay=3)
    ollama_server.reply("late")
    proc = run(sym_exe, "--batch", "-", stdin=FAST + "/llm hello\np(a).\n?- p(a).\n", env=env)
    assert proc.returncode == 4, proc.stderr
    assert proc.stdout.strip().endswith("true.")


def test_the_most_severe_code_wins_whatever_the_order(sym_exe, env, ollama_server):
    ollama_server.fail("slow", delay=3)
    script = FAST + "/nope\n/llm slow one\n" + f"/set ollama_host http://127.0.0.1:{closed_port()}\n/llm dead\n/nope\n"
    proc = run(sym_exe, "--batch", "-", stdin=script, env=env)
    assert proc.returncode == 4, proc.stderr               # 1, 4, 3, 1: the highest is 4


def test_with_bail_the_first_failure_decides(sym_exe, env):
    env = {**env, "OLLAMA_HOST": f"http://127.0.0.1:{closed_port()}"}
    proc = run(sym_exe, "--batch", "-", "--bail", stdin=FAST + "/llm hello\n/nope\n", env=env)
    assert proc.returncode == 3


def test_a_question_in_english_does_not_swallow_the_lines_after_it(sym_exe, env, ollama_server):
    ollama_server.reply("I cannot tell.")
    proc = run(sym_exe, "--batch", "-", "--json", stdin="Is Bob big?\nbig(bob).\n?- big(bob).\n", env=env)
    import json

    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["input"] for o in objects] == ["Is Bob big?", "big(bob).", "?- big(bob)."], proc.stdout
    assert objects[-1]["ok"] is True


def test_a_10_mb_reply_makes_a_small_session_log(sym_exe, env, ollama_server, sym_home):
    from sym.sessions.log import read_session

    huge = "word " * 2_000_000                               # 10 MB
    ollama_server.reply(huge)
    script = "/set llm_max_tokens 0\n/set llm_max_reply_bytes 20000000\n/llm say a lot\n"   # let it be read whole
    proc = run(sym_exe, "--batch", "-", stdin=script, env=env)
    assert proc.returncode == 0, proc.stderr
    (path,) = (sym_home / "sessions").glob("*.jsonl")
    assert path.stat().st_size < 256 * 1024
    rec = read_session(path)
    (call,) = rec.llm_calls()
    text = call["reply"]["text"]
    assert text.startswith("word word") and len(text) < 8192
    assert "characters in all, sha256 " in text


def test_replay_verify_compares_bounded_outputs(sym_home, ollama_server, monkeypatch):
    """A recorded output over the bound still verifies equal when the replay produces the same;
    offline, the bounded copy cannot stand in for the reply, and the replay says so."""
    import io

    from sym.repl.dispatcher import MemoryOptions, open_shell
    from sym.repl.replay import replay
    from sym.sessions.log import read_session

    monkeypatch.setenv("OLLAMA_HOST", ollama_server.url)
    ollama_server.reply("x" * 200_000)
    shell = open_shell(MemoryOptions(persistent=False), record=True)
    try:
        assert shell.execute("/llm long please")[1].ok
        path = shell.ctx.session.path
    finally:
        shell.close()
    assert path.stat().st_size < 64 * 1024
    report = replay(read_session(path), verify=True, out=io.StringIO(), err=io.StringIO())
    assert report.commands == 1 and report.differences == []
    out = io.StringIO()
    replay(read_session(path), offline=True, out=out, err=io.StringIO())
    assert "keeps only the start of this reply" in out.getvalue()
