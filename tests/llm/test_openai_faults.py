"""Every way a call to an OpenAI-compatible server can fail is one clear line with its exit code, through
the real client and the `/v1` test server; retries, deadlines and cancel behave as with Ollama; and the
API key never reaches a log, a session, the call log, an error or the replay."""

from __future__ import annotations

import os
import subprocess
import threading
import time

import pytest

from sym.core.events import LLMToken
from sym.core.llm import LLMError
from sym.core.llm.calllog import CallLog
from sym.core.llm.openai_backend import resolve_base_url
from sym.core.reason.policy.rules import TARGET_ATTRIBUTES
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.results import Failure
from sym.sessions.guard import ReplayGuard, is_host_or_path_setting
from tests.openai_server import OpenAIServer, unused_url

USER = [{"role": "user", "content": "Is Bob big?"}]
KEY = "sk-test-5ecret-key-0123456789"

# fault -> (reason, words the message must contain, words the hint must contain, exit code)
MATRIX = {
    "no-model": ("no-model", 'model "llama3.1:8b" is not served', "/models", 1),
    "server": ("server", "failed (500)", "try again", 1),
    "rate-limit": ("server", "rate-limiting", "wait", 1),
    "garbage": ("server", "not the OpenAI protocol", "/v1", 1),
    "truncated": ("server", "mid-reply", "try again", 1),
    "context": ("context", "too long for the context window", "shorten the input", 1),
    "disconnect": ("server", "closed the connection", "try again", 1),
    "unauthorized": ("auth", "refused the API key (401)", "SYM_API_KEY (or OPENAI_API_KEY)", 2),
    "slow": ("timeout", "did not answer within 0.5 s", "llm_timeout", 4),
}
RETRIED = {"server", "rate-limit", "disconnect", "truncated"}


@pytest.fixture
def openai_server():
    with OpenAIServer() as server:
        yield server


@pytest.fixture
def wired(openai_server, sym_home, monkeypatch):
    """A recording shell (memory in the process) on the test server, with a key, quick to give up."""
    monkeypatch.setenv("SYM_API_KEY", KEY)
    openai_server.api_key = KEY
    events: list = []
    shell = open_shell(MemoryOptions(persistent=False), emit=events.append, record=True)
    s = shell.ctx.settings
    s.backend, s.base_url, s.llm_timeout, s.llm_retries = "openai", openai_server.url, 0.5, 1
    shell.events = events
    yield shell
    shell.close()


def _one_clear_line(err: LLMError) -> None:
    assert "\n" not in str(err) and "Traceback" not in str(err) and len(err.message) < 200


@pytest.mark.parametrize("fault", sorted(MATRIX))
@pytest.mark.parametrize("way", ["chat", "stream"])
def test_each_fault_is_one_specific_error(wired, openai_server, fault, way):
    reason, words, hint, code = MATRIX[fault]
    openai_server.fail(fault, times=None, delay=2.0)
    call = wired.ctx.llm.chat if way == "chat" else wired.ctx.llm.stream
    with pytest.raises(LLMError) as err:
        call(USER, purpose="ask.goal")
    assert (err.value.reason, err.value.exit_code) == (reason, code)
    assert words in err.value.message and hint in (err.value.hint or "")
    _one_clear_line(err.value)
    expected = 2 if fault in RETRIED and not (fault == "truncated" and way == "stream") else 1
    assert len(openai_server.chats) == expected


def test_a_failing_command_is_its_exit_code_and_changes_no_memory(wired, openai_server):
    wired.execute("likes(ann, tea).")
    openai_server.fail("slow", times=None, delay=2.0)
    result = wired.execute("/tell Bob quietly adores the music of the night.")[1]
    assert isinstance(result, Failure) and result.exit_code == 4
    assert [it.text for it in wired.memory.listing()] == ["likes(ann, tea)."]


def test_a_server_that_is_not_running_is_unreachable_with_exit_code_3(wired):
    wired.ctx.settings.base_url = unused_url()
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.chat(USER)
    assert (err.value.reason, err.value.exit_code) == ("unreachable", 3)
    assert "cannot reach the OpenAI-compatible server" in err.value.message and "--base-url" in err.value.hint
    assert wired.ctx.llm.ping() is False


def test_a_reply_that_trickles_ends_at_the_total_deadline(wired, openai_server):
    openai_server.reply("a reply long enough to take a while")
    for way in (wired.ctx.llm.chat, wired.ctx.llm.stream):
        openai_server.fail("trickle", delay=0.05)
        started = time.perf_counter()
        with pytest.raises(LLMError) as err:
            way([{"role": "user", "content": f"trickle {way.__name__}"}])
        assert err.value.reason == "timeout" and time.perf_counter() - started < 2.5


def test_a_stream_cut_after_some_text_is_not_retried(wired, openai_server):
    openai_server.fail("truncated", times=None)
    with pytest.raises(LLMError):
        wired.ctx.llm.stream(USER)
    assert [e.text for e in wired.events if isinstance(e, LLMToken)] == ["Half ", "a reply"]
    assert len(openai_server.chats) == 1


def test_a_slow_call_can_be_cancelled(wired, openai_server):
    openai_server.fail("slow", delay=10)
    threading.Timer(0.2, wired.ctx.cancel.set).start()
    wired.ctx.settings.llm_timeout = 30
    started = time.perf_counter()
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.chat(USER)
    assert (err.value.reason, err.value.exit_code) == ("cancelled", 130)
    assert time.perf_counter() - started < 3


def test_a_model_the_server_lacks_says_so(wired, openai_server):
    wired.execute("/set model gpt-nothing")
    result = wired.execute("/llm hello")[1]
    assert isinstance(result, Failure)
    assert result.message.startswith('model "gpt-nothing" is not served at') and "/models" in result.hint


def test_the_base_url_gets_v1_when_it_has_no_path(monkeypatch):
    monkeypatch.delenv("SYM_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert resolve_base_url("gpu:8000") == "http://gpu:8000/v1"
    assert resolve_base_url("https://api.example.com/v1/") == "https://api.example.com/v1"
    assert resolve_base_url(None) == "http://127.0.0.1:8000/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://lm:1234/v1")
    assert resolve_base_url(None) == "http://lm:1234/v1"


# -- the key ------------------------------------------------------------------------------------

def test_the_key_is_sent_but_never_recorded(wired, openai_server, sym_home):
    openai_server.reply("Hello.")
    assert wired.execute("/llm hello")[1].ok
    assert openai_server.last.authorization == f"Bearer {KEY}"
    openai_server.api_key = "sk-another-key-the-client-lacks"     # its 401 quotes the key it was given
    refused = wired.execute("/llm hello again")[1]
    assert isinstance(refused, Failure) and refused.exit_code == 2 and KEY not in refused.message
    assert "SYM_API_KEY" in refused.hint and "OPENAI_API_KEY" in refused.hint
    wired.close()
    stored = [p for p in sym_home.rglob("*") if p.is_file()]
    assert any(p.suffix == ".jsonl" for p in stored) and CallLog().path in stored
    for path in stored:
        assert KEY.encode() not in path.read_bytes(), path
        assert KEY[10:].encode() not in path.read_bytes(), path


def test_the_key_never_reaches_the_cli_output_or_the_logs(openai_server, sym_exe, sym_home, tmp_path):
    openai_server.api_key = KEY
    script = tmp_path / "s.sym"
    script.write_text("/llm hello\n/set llm_retries 0\n/llm again\n")
    env = {**os.environ, "SYM_HOME": str(sym_home), "OPENAI_API_KEY": KEY}
    env.pop("SYM_API_KEY", None)
    run = [*sym_exe, "--backend", "openai", "--base-url", openai_server.url, "--batch", str(script), "--json"]
    proc = subprocess.run(run, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    openai_server.api_key = "sk-rotated"
    script.write_text("/llm something not asked before\n")    # (the call log would answer a repeat)
    failed = subprocess.run(run, capture_output=True, text=True, env=env, timeout=60)
    assert failed.returncode == 2 and "refused the API key (401)" in failed.stdout + failed.stderr
    logs = subprocess.run([*sym_exe, "logs", "--json"], capture_output=True, text=True, env=env, timeout=60)
    for out in (proc, failed, logs):
        assert KEY not in out.stdout + out.stderr


def test_a_replay_keeps_this_machines_base_url_and_policies_cannot_set_it(tmp_path):
    assert is_host_or_path_setting("base_url") and is_host_or_path_setting("base-url")
    from sym.repl.dispatcher import Shell

    guard = ReplayGuard(tmp_path, Shell().registry)
    assert "base_url not changed" in guard.check("/set base_url http://elsewhere:8000/v1")
    assert "backend not changed" in guard.check("/set backend openai")   # a log never picks the server (#35)
    assert guard.check("/reindex static") is None
    assert not any({"base_url", "backend"} & names for names in TARGET_ATTRIBUTES.values())
