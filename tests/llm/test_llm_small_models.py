"""What small local models do wrong, through the real client and the protocol server: replies that
trickle past the deadline, runaway repetition until the output cap, JSON cut off mid-object,
repairs that come back identical. Each ends in a clear outcome, never a hang."""

from __future__ import annotations

import threading
import time

import pytest
from pydantic import BaseModel

from sym.core.errors import UserError
from sym.core.events import LLMCall, LLMProgress
from sym.core.llm import LLMError
from sym.core.llm.calllog import CallLog
from sym.repl.dispatcher import Shell

USER = [{"role": "user", "content": "Who is in the story?"}]


class Person(BaseModel):
    name: str
    age: int


class Facts(BaseModel):
    facts: list[str]


@pytest.fixture
def wired(ollama_server):
    events: list = []
    shell = Shell(emit=events.append)
    settings = shell.ctx.settings
    settings.ollama_host, settings.llm_retries = ollama_server.url, 0
    shell.events = events
    return shell


def _elapsed(call) -> tuple[object, float]:
    started = time.perf_counter()
    try:
        return call(), time.perf_counter() - started
    except LLMError as err:
        return err, time.perf_counter() - started


# -- a total deadline -------------------------------------------------------------------------

@pytest.mark.parametrize("way", ["chat", "stream", "json"])
def test_a_trickling_server_cannot_hold_a_call_past_llm_timeout(wired, ollama_server, way):
    wired.ctx.settings.llm_timeout = 0.6
    ollama_server.reply('{"name": "Bob", "age": 42}')
    ollama_server.fail("trickle", delay=0.05, times=None)      # ~300 bytes: 15 s if nobody stops it
    llm = wired.ctx.llm
    call = {"chat": lambda: llm.chat(USER), "stream": lambda: llm.stream(USER),
            "json": lambda: llm.json(USER, Person)}[way]
    err, seconds = _elapsed(call)
    assert isinstance(err, LLMError) and (err.reason, err.exit_code) == ("timeout", 4)
    assert "did not answer within 0.6 s" in err.message
    assert seconds < (4.0 if way == "json" else 2.5)     # json: two attempts, each cut at the deadline


def test_a_trickle_that_ends_in_time_is_answered(wired, ollama_server):
    wired.ctx.settings.llm_timeout = 10
    ollama_server.reply("ok then")
    ollama_server.fail("trickle", delay=0.001)
    assert wired.ctx.llm.chat(USER).text == "ok then"
    assert wired.ctx.llm.chat([{"role": "user", "content": "again"}]).text == "ok then"   # the connection still works


def test_a_server_that_stalls_after_some_text_is_cut_at_the_deadline(wired, ollama_server):
    wired.ctx.settings.llm_timeout = 0.8
    ollama_server.reply("one two three", chunks=["one", " two", " three"], chunk_delay=0.3)
    err, seconds = _elapsed(lambda: wired.ctx.llm.chat(USER, format={"type": "object"}))
    assert isinstance(err, LLMError) and err.reason == "timeout" and seconds < 3.0


# -- structured calls stream, with progress ------------------------------------------------------

def test_a_structured_call_streams_and_emits_progress_then_parses_the_whole_reply(wired, ollama_server):
    ollama_server.reply('{"name": "Bob", "age": 42}', chunks=['{"name":', ' "Bob",', ' "age":', ' 42}'],
                        chunk_delay=0.3)
    assert wired.ctx.llm.json(USER, Person, purpose="tell") == Person(name="Bob", age=42)
    assert ollama_server.last.stream is True and ollama_server.last.format == Person.model_json_schema()
    progress = [e for e in wired.events if isinstance(e, LLMProgress)]
    assert len(progress) >= 3 and all(p.purpose == "tell" for p in progress)
    tokens = [p.tokens for p in progress]
    assert tokens == sorted(tokens) and tokens[0] == 1 and progress[-1].done and not any(p.done for p in progress[:-1])
    [call] = [e for e in wired.events if isinstance(e, LLMCall)]
    assert call.error is None and call.completion_tokens == 4


def test_a_cached_structured_call_emits_no_progress(wired, ollama_server):
    ollama_server.reply('{"name": "Bob", "age": 42}')
    wired.ctx.llm.json(USER, Person)
    before = len([e for e in wired.events if isinstance(e, LLMProgress)])
    wired.ctx.llm.json(USER, Person)
    assert len([e for e in wired.events if isinstance(e, LLMProgress)]) == before
    assert len(ollama_server.chats) == 1


def test_a_plain_chat_is_not_streamed(wired, ollama_server):
    wired.ctx.llm.chat(USER)
    assert ollama_server.last.stream is False


def test_cancelling_a_structured_call_stops_at_once(wired, ollama_server):
    wired.ctx.settings.llm_timeout = 30
    ollama_server.reply('{"facts": ["a", "b", "c", "d", "e", "f"]}', chunk_delay=0.2)
    threading.Timer(0.3, wired.ctx.cancel.set).start()
    err, seconds = _elapsed(lambda: wired.ctx.llm.json(USER, Facts))
    assert isinstance(err, LLMError) and err.reason == "cancelled" and seconds < 2.5


# -- the output cap ---------------------------------------------------------------------------------

def test_every_call_carries_the_output_cap(wired, ollama_server):
    wired.ctx.llm.chat(USER)
    wired.ctx.llm.stream([{"role": "user", "content": "stream"}])
    wired.execute("/set llm_max_tokens 64")
    wired.ctx.llm.chat([{"role": "user", "content": "capped"}], options={"temperature": 0.2})
    assert [r.options.get("num_predict") for r in ollama_server.chats] == [1024, 1024, 64]
    wired.execute("/set llm_max_tokens 0")
    wired.ctx.llm.chat([{"role": "user", "content": "uncapped"}])
    assert "num_predict" not in ollama_server.last.options


def test_runaway_repetition_ends_at_the_cap_and_is_reported_as_cut_off(wired, ollama_server):
    wired.execute("/set llm_max_tokens 40")
    ollama_server.reply('{"facts": [' + '"sister_of(ann, bob)", ' * 500)     # a small model looping
    err, seconds = _elapsed(lambda: wired.ctx.llm.json(USER, Facts, purpose="tell"))
    assert isinstance(err, LLMError) and err.reason == "bad-output"
    assert "the model's output was cut off" in err.message
    assert "\n" not in str(err) and seconds < 5
    first, repair = ollama_server.chats
    assert all(r.options["num_predict"] == 40 for r in (first, repair))
    # the runaway reply is not sent back; the repair asks for a shorter answer instead
    assert all(m["role"] != "assistant" for m in repair.messages) and "shorter" in repair.last_user


def test_json_cut_off_mid_object_never_validates_an_object_inside_it(wired, ollama_server):
    class Step(BaseModel):
        name: str

    ollama_server.reply('{"name": "outer", "steps": [{"name": "inner"}, {"name": "cut')
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.json(USER, Step)
    assert "cut off" in err.value.message


# -- repair that can succeed -------------------------------------------------------------------------

def test_a_repair_is_sampled_above_zero_with_a_seed_per_attempt(wired, ollama_server):
    ollama_server.reply('{"name": "Bob"}', '{"name": "Bob", "age": "old"}', '{"name": "Bob", "age": 42}')
    got = wired.ctx.llm.json_with_repair(USER, Person, attempts=2, purpose="tell")
    assert got == Person(name="Bob", age=42)
    first, second, third = ollama_server.chats
    assert first.options["temperature"] == 0.0 and "seed" not in first.options
    assert second.options["temperature"] == third.options["temperature"] == 0.4
    assert second.options["seed"] != third.options["seed"]
    assert "age: Field required" in second.last_user and "valid integer" in third.last_user
    assert third.messages[-2] == {"role": "assistant", "content": '{"name": "Bob", "age": "old"}'}
    purposes = [e.purpose for e in wired.events if isinstance(e, LLMCall)]
    assert purposes == ["tell", "tell.repair", "tell.repair"]


def test_the_checkers_exact_message_and_hint_go_back_to_the_model(wired, ollama_server):
    ollama_server.reply(json={"name": "Bob", "age": -3})
    ollama_server.reply(json={"name": "Bob", "age": 30}, when="age must be")

    def check(person: Person) -> list:
        return [UserError("age must be 0 or more", hint="ages count years")] if person.age < 0 else []

    assert wired.ctx.llm.json_with_repair(USER, Person, check=check) == Person(name="Bob", age=30)
    assert "- age must be 0 or more — ages count years" in ollama_server.chats[1].last_user


def test_an_identical_repair_is_not_argued_with_again(wired, ollama_server):
    same = '{"name": "Bob", "age": "forty"}'
    ollama_server.reply(same)        # a model at its favourite answer, whatever it is told
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.json_with_repair(USER, Person, attempts=4)
    assert err.value.reason == "bad-output" and "same wrong reply" in err.value.hint
    assert err.value.calls == 3 and len(ollama_server.chats) == 3
    first, argued, changed = ollama_server.chats
    assert argued.messages[-2]["content"] == same
    # the third call is a changed prompt: the original request, the rejected answer quoted in it
    assert len(changed.messages) == len(first.messages) and "different answer" in changed.last_user
    assert changed.options["seed"] != argued.options["seed"]


def test_a_changed_prompt_can_still_succeed(wired, ollama_server):
    ollama_server.reply('{"name": "Bob", "age": "forty"}')
    ollama_server.reply(json={"name": "Bob", "age": 40}, when="different answer")
    assert wired.ctx.llm.json_with_repair(USER, Person, attempts=2) == Person(name="Bob", age=40)
    assert len(ollama_server.chats) == 3


def test_a_timeout_moves_on_to_the_next_attempt(wired, ollama_server):
    wired.ctx.settings.llm_timeout = 0.5
    ollama_server.fail("slow", delay=3)
    ollama_server.reply(json={"name": "Bob", "age": 42})
    assert wired.ctx.llm.json_with_repair(USER, Person, attempts=1) == Person(name="Bob", age=42)
    assert "too long" in ollama_server.chats[1].last_user
    assert wired.ctx.llm.stats()["failed"] == 1


def test_a_timeout_on_the_last_attempt_is_the_timeout_error(wired, ollama_server):
    wired.ctx.settings.llm_timeout = 0.5
    ollama_server.fail("slow", delay=3, times=None)
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.json_with_repair(USER, Person, attempts=1)
    assert (err.value.reason, err.value.exit_code) == ("timeout", 4)
    assert len(ollama_server.chats) == 2


# -- failed and cached calls, counted apart ----------------------------------------------------------

def test_cost_counts_failed_calls_apart_from_answered_and_cached_ones(wired, ollama_server, sym_home):
    ollama_server.reply("Yes.")
    wired.execute("/llm one")
    wired.execute("/llm one")
    ollama_server.fail("context")
    wired.execute("/llm two")
    result = wired.execute("/cost")[1]
    assert (result.to_dict()["calls"], result.to_dict()["cached"], result.to_dict()["failed"]) == (2, 1, 1)
    from sym.repl.render import to_text
    assert "1 failed" in to_text(result)
    log = CallLog(sym_home / "llm" / "calls.sqlite")
    totals = log.totals()
    assert (totals["calls"], totals["cached"], totals["failed"]) == (2, 1, 1)
    assert log.summary() == "2 calls answered (1 by the model, 1 from the cache), 1 failed; tokens: 2 in, 2 out"


def test_a_call_read_until_complete_shows_progress_and_ends_it_as_done(wired, ollama_server):
    ollama_server.reply("abc END and more", chunks=["abc", " END", " and", " more"], chunk_delay=0.3)
    reply = wired.ctx.llm.chat(USER, purpose="prove.sample", until=lambda text: "END" in text)
    assert (reply.text, reply.done_reason, reply.completion_tokens) == ("abc END", "complete", 2)
    progress = [e for e in wired.events if isinstance(e, LLMProgress)]
    assert [p.tokens for p in progress] == [1, 2] and [p.done for p in progress] == [False, True]
    assert all(p.purpose == "prove.sample" for p in progress)
