"""A replay keeps your keys home: without --trust the model server (backend, base URL, Ollama
host) comes from this machine's settings and the API key from its environment, whatever the log's
header or its /set lines say; with --trust, /set --save still never writes your config.toml."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.openai_server import OpenAIServer
from tests.safety.test_safety_replay import Listener, write_log

KEY = "sk-this-machine-only"


@pytest.fixture
def listener():
    lst = Listener()
    yield lst
    lst.close()


def replay(sym_exe, *args, env):
    return subprocess.run([*sym_exe, "replay", *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def env(sym_home, ollama_server, listener):
    """This machine: Ollama at the test server; an OpenAI-compatible URL and key in the environment
    (what a crafted `backend: openai` would reach) that lead to the listener."""
    clean = {k: v for k, v in os.environ.items() if k not in ("SYM_BACKEND", "SYM_CONFIG", "OPENAI_BASE_URL")}
    return {**clean, "SYM_HOME": str(sym_home), "OLLAMA_HOST": ollama_server.url,
            "SYM_BASE_URL": listener.url, "SYM_API_KEY": KEY}


def test_a_header_naming_another_backend_is_skipped_and_the_call_goes_to_this_machines_server(
        sym_exe, tmp_path, env, listener, ollama_server):
    ollama_server.reply("Hello from this machine's Ollama.")
    log = write_log(tmp_path / "crafted.jsonl", ["/llm hi"],
                    settings={"backend": "openai", "base_url": None, "model": "llama3.1:8b"})
    proc = replay(sym_exe, str(log), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Hello from this machine's Ollama." in proc.stdout
    assert listener.received == []                      # neither the URL nor the key went anywhere
    assert any(line.startswith("skipped header setting backend") for line in proc.stderr.splitlines()), proc.stderr


@pytest.mark.parametrize("line", ["/set backend openai", "/set base_url http://127.0.0.1:9/v1", "/set api_key sk-x"])
def test_a_set_line_that_changes_the_model_server_is_skipped(sym_exe, tmp_path, env, listener, ollama_server, line):
    ollama_server.reply("Still this machine's Ollama.")
    log = write_log(tmp_path / "crafted.jsonl", [line, "/llm hi"])
    proc = replay(sym_exe, str(log), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Still this machine's Ollama." in proc.stdout and listener.received == []
    assert any(s.startswith("skipped input 1") and "not changed" in s for s in proc.stderr.splitlines()), proc.stderr


def test_this_machines_configured_backend_is_used_whatever_the_log_says(sym_exe, tmp_path, env, sym_home, listener):
    with OpenAIServer() as openai:
        openai.api_key = KEY
        openai.reply("Hello from this machine's OpenAI-compatible server.")
        (sym_home / "config.toml").write_text(f'[settings]\nbackend = "openai"\nbase_url = "{openai.url}"\n')
        log = write_log(tmp_path / "crafted.jsonl", ["/llm hi"],
                        settings={"backend": "ollama", "ollama_host": listener.url, "base_url": listener.url})
        proc = replay(sym_exe, str(log), env={**env, "SYM_BASE_URL": ""})
        assert proc.returncode == 0, proc.stderr
        assert "Hello from this machine's OpenAI-compatible server." in proc.stdout
        assert [r.headers.get("authorization") for r in openai.chats] == [f"Bearer {KEY}"]
    assert listener.received == []


def test_a_header_that_matches_this_machine_skips_nothing(sym_exe, tmp_path, env, ollama_server):
    log = write_log(tmp_path / "mine.jsonl", ["p(a)."], settings={"backend": "ollama", "ollama_host": None})
    proc = replay(sym_exe, str(log), "--verify", env=env)
    assert "skipped" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("explicit", [True, False])
def test_a_trusted_replay_never_writes_the_users_config(sym_exe, tmp_path, env, sym_home, explicit):
    config = (tmp_path / "mine.toml") if explicit else (sym_home / "config.toml")
    config.write_text('[settings]\nworld = "closed"\n')
    before = config.read_bytes()
    log = write_log(tmp_path / "trusted.jsonl", ["/set --save ollama_host http://evil.example:11434",
                                                 "/set --save world open", "/set world"])
    proc = replay(sym_exe, str(log), "--trust", env={**env, **({"SYM_CONFIG": str(config)} if explicit else {})})
    assert proc.returncode == 0, proc.stderr
    assert config.read_bytes() == before
    assert "open" in proc.stdout          # the replay's own settings did change, in its scratch directory
