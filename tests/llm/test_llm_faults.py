"""Every way a model call can fail ends in one clear line, through the real client and server,
and leaves memory and the session as they were."""

from __future__ import annotations

import threading
import time

import pytest

from sym.core.events import LLMCall, LLMToken
from sym.core.llm import LLMError
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.results import Failure
from sym.sessions.log import read_session
from tests.ollama_server import unused_url

USER = [{"role": "user", "content": "Is Bob big?"}]

# fault -> (reason, words the message must contain, words the hint must contain, exit code)
MATRIX = {
    "no-model": ("no-model", 'model "llama3.1:8b"', "ollama pull llama3.1:8b", 1),
    "server": ("server", "failed", "try again", 1),
    "garbage": ("server", "not Ollama's protocol", "OLLAMA_HOST", 1),
    "truncated": ("server", "closed the connection mid-reply", "try again", 1),
    "context": ("context", "too long for the context window", "shorten the input", 1),
    "disconnect": ("server", "closed the connection", "try again", 1),
    "slow": ("timeout", "did not answer within 0.5 s", "llm_timeout", 4),
}


class _Events(list):
    """The events a shell emits; `hook` (if set) sees each one as it is emitted."""

    hook = None

    def append(self, event) -> None:
        super().append(event)
        if self.hook is not None:
            self.hook(event)


@pytest.fixture
def wired(ollama_server, sym_home):
    """A recording shell (memory in the process) pointed at the test server, quick to give up."""
    events = _Events()
    shell = open_shell(MemoryOptions(persistent=False), emit=events.append, record=True)
    settings = shell.ctx.settings
    settings.ollama_host, settings.llm_timeout, settings.llm_retries = ollama_server.url, 0.5, 1
    shell.events = events
    yield shell
    shell.close()


def _one_clear_line(err: LLMError) -> None:
    assert "\n" not in str(err) and "Traceback" not in str(err) and len(err.message) < 200


@pytest.mark.parametrize("fault", sorted(MATRIX))
@pytest.mark.parametrize("way", ["chat", "stream"])
def test_each_fault_is_one_specific_error(wired, ollama_server, fault, way):
    reason, words, hint, code = MATRIX[fault]
    ollama_server.fail(fault, times=None, delay=2.0)
    call = wired.ctx.llm.chat if way == "chat" else wired.ctx.llm.stream
    with pytest.raises(LLMError) as err:
        call(USER, purpose="ask.goal")
    assert (err.value.reason, err.value.exit_code) == (reason, code)
    assert words in err.value.message and hint in (err.value.hint or "")
    _one_clear_line(err.value)
    failed = [e for e in wired.events if isinstance(e, LLMCall)]
    assert len(failed) == 1 and failed[0].error == err.value.message and failed[0].purpose == "ask.goal"


@pytest.mark.parametrize("fault", sorted(MATRIX))
def test_a_failing_command_changes_neither_memory_nor_the_stats(wired, ollama_server, fault):
    wired.execute("likes(ann, tea).")
    before = [it.text for it in wired.memory.listing()]
    ollama_server.fail(fault, times=None, delay=2.0)
    result = wired.execute("/llm Is Bob big?")[1]
    assert isinstance(result, Failure) and result.exit_code == MATRIX[fault][3]
    assert MATRIX[fault][1] in result.message
    assert [it.text for it in wired.memory.listing()] == before
    assert wired.ctx.llm.stats()["calls"] == 0
    rec = read_session(wired.ctx.session.path)
    assert [e["t"] for e in rec.events if e["t"] == "memory"] == ["memory"]   # only likes(ann, tea)
    [call] = rec.llm_calls()
    assert call["reply"] is None and call["error"]["reason"] == MATRIX[fault][0]


def test_transient_faults_are_retried_but_the_rest_are_not(wired, ollama_server):
    for fault, expected in [("server", 2), ("disconnect", 2), ("no-model", 1), ("context", 1), ("garbage", 1)]:
        ollama_server.clear()
        ollama_server.fail(fault, times=None)
        with pytest.raises(LLMError):
            wired.ctx.llm.chat([{"role": "user", "content": fault}])
        assert len(ollama_server.chats) == expected, fault


def test_a_server_that_is_not_running_is_unreachable_with_exit_code_3(wired):
    wired.ctx.settings.ollama_host = unused_url()
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.chat(USER)
    assert (err.value.reason, err.value.exit_code) == ("unreachable", 3)
    assert "cannot reach the Ollama server" in err.value.message and "ollama serve" in err.value.hint
    _one_clear_line(err.value)


def test_a_server_that_stops_mid_session_is_unreachable(wired, ollama_server):
    assert wired.ctx.llm.chat(USER).text == "ok"
    ollama_server.fail("refused")
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.chat([{"role": "user", "content": "again"}])
    assert err.value.reason == "unreachable"
    assert wired.ctx.llm.ping() is False


def test_a_model_not_pulled_says_how_to_pull_it(wired, ollama_server):
    wired.execute("/set model mistral:7b")
    result = wired.execute("/llm hello")[1]
    assert isinstance(result, Failure)
    assert result.message.startswith('model "mistral:7b" is not on the Ollama server')
    assert "ollama pull mistral:7b" in result.hint


def test_a_stream_cut_after_some_text_is_not_retried(wired, ollama_server):
    ollama_server.fail("truncated", times=None)
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.stream(USER)
    assert err.value.reason == "server"
    assert [e.text for e in wired.events if isinstance(e, LLMToken)] == ["Half ", "a reply"]
    assert len(ollama_server.chats) == 1


def test_cancelling_a_stream_stops_between_chunks(wired, ollama_server):
    wired.ctx.settings.llm_timeout = 30
    ollama_server.reply("one two three four five six seven eight nine ten", chunk_delay=0.1)
    # Ctrl+C as the first chunk arrives, however slow the machine: the rest must not be read
    wired.events.hook = lambda event: isinstance(event, LLMToken) and wired.ctx.cancel.set()
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.stream(USER)
    assert (err.value.reason, err.value.exit_code) == ("cancelled", 130)
    assert 1 <= len([e for e in wired.events if isinstance(e, LLMToken)]) < 10
    assert not wired.ctx.cancel.is_set()   # the next job starts afresh


def test_cancelling_during_retry_backoff_stops_at_once(wired, ollama_server):
    wired.ctx.settings.llm_retries = 5
    ollama_server.fail("server", times=None)
    threading.Timer(0.1, wired.ctx.cancel.set).start()
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.chat(USER)
    assert err.value.reason == "cancelled"
    assert len(ollama_server.chats) <= 2


def test_a_json_reply_that_never_fits_the_schema_is_bad_output(wired, ollama_server):
    from pydantic import BaseModel

    class Goal(BaseModel):
        predicate: str
        args: list[str]

    ollama_server.reply('```json\n{"predicate": "big"}\n```')
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.json(USER, Goal, purpose="ask.goal")
    assert err.value.reason == "bad-output" and "args: Field required" in err.value.message
    _one_clear_line(err.value)


def test_a_failed_call_is_logged_with_its_error(wired, ollama_server, sym_home):
    from sym.core.llm.calllog import CallLog

    ollama_server.fail("context")
    with pytest.raises(LLMError):
        wired.ctx.llm.chat(USER, purpose="tell")
    [row] = CallLog(sym_home / "llm" / "calls.sqlite").recent(5)
    assert row["output"] is None and row["reason"] == "context" and "context window" in row["error"]
    assert row["session"] == wired.ctx.session.path.stem
    # a failure is never served from the cache: the next identical call asks the server again
    assert wired.ctx.llm.chat(USER, purpose="tell").text == "ok"


def test_cancelling_a_stream_before_its_first_chunk_stops_at_once(wired, ollama_server):
    wired.ctx.settings.llm_timeout = 30
    ollama_server.fail("slow", delay=10)
    threading.Timer(0.2, wired.ctx.cancel.set).start()
    started = time.perf_counter()
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.stream(USER)
    assert err.value.reason == "cancelled" and time.perf_counter() - started < 8   # the server waits 10 s


def test_calls_sent_abreast_each_wait_as_long_as_all_of_them_may_take(wired, ollama_server):
    """A server with one slot answers chat_many's calls one after another, so the last waits for
    all the others (seen: the fifth of five samples timed out at the reference server while the
    first four were written). Each call sent abreast waits llm_timeout times their number; a call
    alone still times out at llm_timeout."""
    wired.ctx.settings.llm_timeout = 2
    ollama_server.fail("slow", delay=3, times=None)
    replies = wired.ctx.llm.chat_many([[{"role": "user", "content": f"question {i}"}] for i in range(4)],
                                      purpose="tell")
    assert [r.text for r in replies] == ["ok"] * 4
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.chat([{"role": "user", "content": "question 9"}], purpose="tell")
    assert err.value.reason == "timeout" and "within 2 s" in err.value.message, err.value.message
