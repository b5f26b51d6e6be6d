"""A model reply is bounded and checked: past `llm_max_reply_bytes` reading stops with "reply too
large" (whole or streamed, Ollama and OpenAI-compatible), llm_timeout covers reading and checking a
structured reply, and the model that answered is recorded, with a warning when it is not the one
asked for ("answered by other-model")."""

from __future__ import annotations

import time

import pytest
from pydantic import BaseModel

from sym.core.events import Warning
from sym.core.llm import LLMError
from sym.core.llm.checks import same_model
from sym.core.llm.jsonout import parse_model, reading_until
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.results import Failure
from sym.sessions.log import read_session
from tests.openai_server import OpenAIServer

USER = [{"role": "user", "content": "Is Bob big?"}]
HUGE = "word " * 200_000          # 1 MB of text


class Goal(BaseModel):
    predicate: str


@pytest.fixture(params=["ollama", "openai"])
def server(request, ollama_server):
    if request.param == "ollama":
        yield "ollama", ollama_server
    else:
        with OpenAIServer() as openai:
            yield "openai", openai


@pytest.fixture
def wired(server, sym_home):
    backend, srv = server
    events: list = []
    shell = open_shell(MemoryOptions(persistent=False), emit=events.append, record=True)
    s = shell.ctx.settings
    s.backend, s.llm_timeout, s.llm_retries, s.llm_max_tokens = backend, 20, 2, 0
    if backend == "openai":
        s.base_url = srv.url
    else:
        s.ollama_host = srv.url
    s.llm_max_reply_bytes = 100_000
    shell.events, shell.server = events, srv
    yield shell
    shell.close()


@pytest.mark.parametrize("way", ["chat", "stream", "structured"])
def test_a_reply_past_the_cap_stops_with_reply_too_large_and_is_not_retried(wired, way):
    wired.server.default = HUGE
    llm = wired.ctx.llm
    with pytest.raises(LLMError) as err:
        if way == "chat":
            llm.chat(USER)
        elif way == "stream":
            llm.stream(USER)
        else:
            llm.chat(USER, format=Goal.model_json_schema())
    assert err.value.reason == "too-large" and "reply too large" in err.value.message
    assert "llm_max_reply_bytes" in err.value.hint and "\n" not in str(err.value)
    assert len(wired.server.chats) == 1     # the same request would run away again
    [call] = read_session(wired.ctx.session.path).llm_calls()
    assert call["reply"] is None and call["error"]["reason"] == "too-large"


def test_a_command_whose_reply_is_too_large_changes_nothing(wired):
    wired.execute("likes(ann, tea).")
    wired.server.default = HUGE
    result = wired.execute("/llm Is Bob big?")[1]
    assert isinstance(result, Failure) and result.message.startswith("reply too large")
    assert [it.text for it in wired.memory.listing()] == ["likes(ann, tea)."]


def test_a_reply_under_the_cap_is_read_whole(wired):
    wired.server.default = "word " * 10_000      # 50 kB
    assert wired.ctx.llm.chat(USER).text.split() == ["word"] * 10_000


def test_the_deadline_covers_checking_the_reply(wired):
    """A check still running when llm_timeout has passed since the call was sent is a timeout (exit 4)."""
    wired.ctx.settings.llm_timeout = 0.5
    wired.server.default = '{"predicate": "big"}'

    def slow_check(goal):
        started = time.monotonic()
        while time.monotonic() - started <= 0.6:   # work that outlasts the call's deadline
            pass
        return []

    with pytest.raises(LLMError) as err:
        wired.ctx.llm.json_with_repair(USER, Goal, check=slow_check, attempts=0)
    assert (err.value.reason, err.value.exit_code) == ("timeout", 4)
    assert "llm_timeout" in err.value.message


def test_reading_a_reply_stops_at_the_deadline():
    big = "[" + ", ".join('{"predicate": "p"}' for _ in range(50_000)) + "]"
    with reading_until(time.monotonic() - 1), pytest.raises(LLMError) as err:
        parse_model(big, Goal)
    assert err.value.reason == "timeout"
    assert parse_model('{"predicate": "p"}', Goal).predicate == "p"     # no deadline outside the block


@pytest.mark.parametrize("way", ["chat", "stream"])
def test_the_model_that_answered_is_recorded_and_another_one_is_said(wired, way):
    llm = wired.ctx.llm
    (llm.chat if way == "chat" else llm.stream)(USER)
    wired.server.answer_model = "other-model:3b"
    reply = (llm.chat if way == "chat" else llm.stream)([{"role": "user", "content": "again"}])
    assert reply.model == "other-model:3b"
    first, second = read_session(wired.ctx.session.path).llm_calls()
    assert first["reply"]["model"] == "llama3.1:8b" and "other_model" not in first["reply"]
    assert second["reply"]["model"] == "other-model:3b" and second["reply"]["other_model"] is True
    said = [e.message for e in wired.events if isinstance(e, Warning)]
    assert said == ["answered by other-model:3b (asked for llama3.1:8b): the server gave the call to another model"]


def test_a_command_answered_by_another_model_says_so(wired):
    wired.server.answer_model = "other-model:3b"
    result = wired.execute("/llm hi")[1]
    assert result.ok
    assert any("answered by other-model:3b" in e.message for e in wired.events if isinstance(e, Warning))


@pytest.mark.parametrize("answered, asked, same", [
    ("llama3.1:8b", "llama3.1:8b", True), ("llama3.1:latest", "llama3.1", True), ("", "x", True),
    ("gpt-4o-2024-08-06", "gpt-4o", True), ("GPT-4o", "gpt-4o", True),
    ("gpt-4o-mini", "gpt-4o", False), ("mistral:7b", "llama3.1:8b", False), ("llama3.1:70b", "llama3.1:8b", False),
])
def test_which_names_are_the_model_asked_for(answered, asked, same):
    assert same_model(answered, asked) is same
