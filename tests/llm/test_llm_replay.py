"""Model calls in the session log, and `sym replay --offline` answering them from it."""

from __future__ import annotations

import io
import json
import os
import subprocess

import pytest

from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.replay import replay
from sym.sessions.log import read_session


@pytest.fixture
def recorded(ollama_server, sym_home):
    """Record a session with model calls (one answered from the cache, one failed), then stop
    the server: returns the session file."""
    ollama_server.reply("Bonjour.", when="French")
    ollama_server.reply("Hola.", "¡Hola de nuevo!", when="Spanish")
    shell = open_shell(MemoryOptions(persistent=False), record=True)
    shell.ctx.settings.ollama_host = ollama_server.url
    try:
        for line in ["likes(ann, tea).", "/llm Say hello in French.", "/llm Say hello in French.",
                     "/set temperature 0.7", "/llm Say hello in Spanish.", "/llm Say hello in Spanish."]:
            shell.execute(line)
        ollama_server.fail("context")
        shell.execute("/llm Say hello in German.")
        path = shell.ctx.session.path
    finally:
        shell.close()
    ollama_server.stop()
    return path


def test_every_call_is_an_llm_event_in_the_session(recorded):
    rec = read_session(recorded)
    calls = rec.llm_calls()
    assert [(c["purpose"], c["cached"]) for c in calls] == [("llm", False), ("llm", True), ("llm", False),
                                                            ("llm", False), ("llm", False)]
    assert [c["reply"]["text"] if c["reply"] else c["error"]["reason"] for c in calls] == \
           ["Bonjour.", "Bonjour.", "Hola.", "¡Hola de nuevo!", "context"]
    first = calls[0]
    assert first["model"] == "llama3.1:8b" and len(first["key"]) == 64
    assert first["request"]["messages"] == [{"role": "user", "content": "Say hello in French."}]
    assert first["request"]["options"] == {"temperature": 0.0, "num_predict": 1024}
    assert first["reply"]["completion_tokens"] == 1
    inputs = {e["seq"]: e["text"] for e in rec.inputs()}
    assert inputs[first["input"]] == "/llm Say hello in French."


def test_offline_replay_answers_from_the_recording_and_verifies_equal(recorded, sym_exe, sym_home):
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    proc = subprocess.run([*sym_exe, "replay", str(recorded), "--offline", "--verify"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "replayed 7 commands" in proc.stderr and "equal" in proc.stderr


def test_offline_replay_prints_the_recorded_replies(recorded, sym_exe, sym_home):
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    proc = subprocess.run([*sym_exe, "replay", str(recorded), "--offline"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "Bonjour." in lines and "Hola." in lines and "¡Hola de nuevo!" in lines
    assert any(line.startswith("error: the request is too long for the context window") for line in lines)


def test_a_request_the_recording_lacks_fails_offline_naming_it(recorded, tmp_path):
    lines = recorded.read_text().splitlines()
    kept = [line for line in lines if '"Bonjour."' not in line or json.loads(line)["t"] != "llm"]
    damaged = tmp_path / "no-french.jsonl"
    damaged.write_text("\n".join(kept) + "\n")
    out, err = io.StringIO(), io.StringIO()
    report = replay(read_session(damaged), offline=True, verify=True, out=out, err=err)
    assert any("output differs" in d and "French" in d for d in report.differences)
    out2 = io.StringIO()
    replay(read_session(damaged), offline=True, out=out2, err=io.StringIO(), until=2)
    assert ("error: llm: the recording has no reply for this request to llama3.1:8b — "
            "replay without --offline to ask the model") in out2.getvalue()


def test_offline_replay_never_opens_a_connection(recorded, ollama_server, monkeypatch):
    ollama_server.start()   # listening again, where an online replay's calls would go
    ollama_server.clear()
    monkeypatch.setenv("OLLAMA_HOST", ollama_server.url)
    replay(read_session(recorded), offline=True, out=io.StringIO(), err=io.StringIO())
    assert ollama_server.requests == []
