"""The LLM layer end to end: the facade, the real `ollama` client and the protocol test server."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time

import pytest
from pydantic import BaseModel

from sym.core.events import LLMCall, LLMToken
from sym.core.llm import LLMError
from sym.core.llm.calllog import CallLog, request_key
from sym.core.llm.ollama_backend import DEFAULT_HOST, resolve_host
from sym.repl.dispatcher import Shell
from sym.repl.results import Failure

USER = [{"role": "user", "content": "Is Bob big?"}]


@pytest.fixture
def wired(ollama_server):
    """A shell pointed at the test server, with every event it emits collected."""
    events: list = []
    shell = Shell(emit=events.append)
    shell.ctx.settings.ollama_host = ollama_server.url
    shell.events = events
    return shell


class Person(BaseModel):
    name: str
    age: int


# -- chat and stream ----------------------------------------------------------------------

def test_chat_returns_the_scripted_reply_with_token_counts(wired, ollama_server):
    ollama_server.reply("Yes, Bob is big.", when="Bob")
    reply = wired.ctx.llm.chat(USER, purpose="ask.goal")
    assert (reply.text, reply.model, reply.cached) == ("Yes, Bob is big.", "llama3.1:8b", False)
    assert (reply.prompt_tokens, reply.completion_tokens) == (3, 4)
    sent = ollama_server.last
    assert (sent.path, sent.model, sent.stream, sent.last_user) == ("/api/chat", "llama3.1:8b", False, "Is Bob big?")
    assert sent.options["temperature"] == 0.0
    [call] = [e for e in wired.events if isinstance(e, LLMCall)]
    assert (call.purpose, call.completion_tokens, call.error, call.call_id) == ("ask.goal", 4, None, reply.call_id)


def test_stream_emits_each_chunk_then_returns_the_whole_reply(wired, ollama_server):
    ollama_server.reply("Bob is big.", chunks=["Bob", " is", " big."])
    reply = wired.ctx.llm.stream(USER, purpose="chat", options={"temperature": 0.3})
    assert [e.text for e in wired.events if isinstance(e, LLMToken)] == ["Bob", " is", " big."]
    assert (reply.text, reply.completion_tokens) == ("Bob is big.", 3)
    assert ollama_server.last.stream is True


def test_model_comes_from_settings_and_a_per_call_override(wired, ollama_server):
    ollama_server.models.append("judge:1b")
    wired.execute("/set model nomic-embed-text")
    wired.ctx.llm.chat(USER)
    wired.ctx.llm.chat(USER, model="judge:1b")
    assert [r.model for r in ollama_server.chats] == ["nomic-embed-text", "judge:1b"]


def test_chat_many_answers_in_order_and_in_parallel(wired, ollama_server):
    for n in range(4):
        ollama_server.reply(f"answer {n}", when=f"question {n}")
    ollama_server.fail("slow", delay=0.4, times=None)
    started = time.perf_counter()
    replies = wired.ctx.llm.chat_many([[{"role": "user", "content": f"question {n}"}] for n in range(4)],
                                      purpose="ask.rule")
    assert [r.text for r in replies] == [f"answer {n}" for n in range(4)]
    assert time.perf_counter() - started < 1.2     # four 0.4 s calls, side by side
    calls = [e for e in wired.events if isinstance(e, LLMCall)]
    assert [c.purpose for c in calls] == ["ask.rule"] * 4


def test_embed_returns_one_vector_per_text(wired, ollama_server):
    vectors = wired.ctx.llm.embed(["a cat", "a dog"], model="nomic-embed-text")
    assert len(vectors) == 2 and all(len(v) == 16 for v in vectors) and vectors[0] != vectors[1]
    assert ollama_server.last.path == "/api/embed"


# -- structured output ------------------------------------------------------------------------

@pytest.mark.parametrize("messy", [
    '{"name": "Bob", "age": 42}',
    'Sure! Here is the JSON you asked for:\n{"name": "Bob", "age": 42}\nLet me know if you need more.',
    'Here you go:\n```json\n{"name": "Bob", "age": 42}\n```',
    '```\n{"name": "Bob", "age": 42,}\n```',                      # trailing comma
    '{"Name": "Bob", "AGE": 42}',                                  # wrong key case
    'The person {is} this: {"name": "Bob", "age": 42}',           # a stray brace before the JSON
])
def test_json_is_read_from_messy_replies(wired, ollama_server, messy):
    ollama_server.reply(messy)
    person = wired.ctx.llm.json([{"role": "user", "content": "Who?"}], Person, purpose="tell")
    assert person == Person(name="Bob", age=42)
    assert ollama_server.last.format == Person.model_json_schema()
    assert len(ollama_server.chats) == 1


def test_json_gets_one_repair_round_with_the_validation_error(wired, ollama_server):
    ollama_server.reply('{"name": "Bob", "age": "forty-two"}', '{"name": "Bob", "age": 42}')
    assert wired.ctx.llm.json(USER, Person, purpose="tell") == Person(name="Bob", age=42)
    first, repair = ollama_server.chats
    assert repair.messages[:len(first.messages)] == first.messages
    assert repair.messages[-2] == {"role": "assistant", "content": '{"name": "Bob", "age": "forty-two"}'}
    assert "age" in repair.last_user and "integer" in repair.last_user


def test_json_that_stays_wrong_is_a_clean_bad_output_error(wired, ollama_server):
    ollama_server.reply("I cannot answer that in JSON, sorry.")
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.json(USER, Person, purpose="tell")
    assert err.value.reason == "bad-output"
    assert "Person" in err.value.message and "\n" not in str(err.value)
    assert len(ollama_server.chats) == 2


# -- the call log and cache -------------------------------------------------------------------

def test_identical_temperature_0_requests_are_answered_from_the_call_log(wired, ollama_server):
    ollama_server.reply("first", "second")
    one = wired.ctx.llm.chat(USER)
    two = wired.ctx.llm.chat(USER)
    assert (one.text, one.cached) == ("first", False)
    assert (two.text, two.cached) == ("first", True)
    assert len(ollama_server.chats) == 1
    assert wired.ctx.llm.stats() == {"calls": 2, "cached": 1, "failed": 0, "prompt_tokens": 6,
                                     "completion_tokens": 2}


def test_temperature_above_0_always_asks_the_model(wired, ollama_server):
    ollama_server.reply("first", "second")
    texts = [wired.ctx.llm.chat(USER, options={"temperature": 0.7}).text for _ in range(2)]
    assert texts == ["first", "second"]
    assert len(ollama_server.chats) == 2


def test_the_cache_key_covers_model_messages_format_and_every_option():
    base = request_key("m", USER, None, {"temperature": 0})
    assert base == request_key("m", [dict(USER[0])], None, {"temperature": 0})
    assert len({base, request_key("m2", USER, None, {"temperature": 0}),
                request_key("m", USER + USER, None, {"temperature": 0}),
                request_key("m", USER, {"type": "object"}, {"temperature": 0}),
                request_key("m", USER, None, {"temperature": 0, "seed": 1})}) == 5


def test_cache_can_be_turned_off(wired, ollama_server):
    wired.execute("/set llm_cache off")
    for _ in range(2):
        wired.ctx.llm.chat(USER)
    assert len(ollama_server.chats) == 2


def test_every_call_is_a_row_in_the_call_log(wired, ollama_server, sym_home):
    ollama_server.reply("Yes.")
    wired.ctx.llm.chat(USER, purpose="ask.goal", format={"type": "object"})
    [row] = CallLog(sym_home / "llm" / "calls.sqlite").recent(5)
    assert (row["model"], row["purpose"], row["output"], row["error"], row["cached"]) == \
           ("llama3.1:8b", "ask.goal", "Yes.", None, False)
    assert row["messages"] == USER and row["format"] == {"type": "object"}
    assert row["options"] == {"temperature": 0.0, "num_predict": 1024} and row["prompt_tokens"] == 3 and row["seconds"] > 0


# -- retries ------------------------------------------------------------------------------------

def test_a_server_error_is_retried_then_succeeds(wired, ollama_server):
    ollama_server.reply("Recovered.")
    ollama_server.fail("server", times=1)
    assert wired.ctx.llm.chat(USER).text == "Recovered."
    assert len(ollama_server.chats) == 2


def test_retries_stop_after_the_setting(wired, ollama_server):
    wired.execute("/set llm_retries 1")
    ollama_server.fail("server", times=None)
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.chat(USER)
    assert err.value.reason == "server" and len(ollama_server.chats) == 2


def test_a_bad_request_is_not_retried(wired, ollama_server):
    ollama_server.fail("context", times=None)
    with pytest.raises(LLMError):
        wired.ctx.llm.chat(USER)
    assert len(ollama_server.chats) == 1


# -- hosts and settings ----------------------------------------------------------------------------

def test_host_comes_from_settings_then_the_environment_then_the_default(monkeypatch):
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    assert resolve_host(None) == DEFAULT_HOST
    monkeypatch.setenv("OLLAMA_HOST", "gpu-box")
    assert resolve_host(None) == "http://gpu-box:11434"
    assert resolve_host("http://10.0.0.5:8080") == "http://10.0.0.5:8080"


def test_a_new_model_or_host_builds_a_new_llm_but_keeps_the_counts(wired, ollama_server):
    first = wired.ctx.llm
    first.chat(USER)
    wired.execute("/set model nomic-embed-text")
    second = wired.ctx.llm
    assert second is not first and second.key == ("nomic-embed-text", ollama_server.url)
    assert second.stats()["calls"] == 1


# -- commands ---------------------------------------------------------------------------------------

def test_models_lists_what_the_server_has_and_marks_the_current_one(wired, ollama_server):
    name, result = wired.execute("/models")
    assert result.ok and result.kind == "models"
    data = result.to_dict()
    assert [m["name"] for m in data["models"]] == ["llama3.1:8b", "nomic-embed-text:latest"]
    assert data["current"] == "llama3.1:8b" and data["current_pulled"] is True
    from sym.repl.render import to_text
    assert "* llama3.1:8b" in to_text(result)


def test_models_says_to_pull_the_current_model_when_it_is_missing(wired, ollama_server):
    wired.execute("/set model qwen3:4b")
    from sym.repl.render import to_text
    assert "ollama pull qwen3:4b" in to_text(wired.execute("/models")[1])


def test_models_with_no_server_is_one_clear_error(shell):
    from tests.ollama_server import unused_url

    shell.ctx.settings.ollama_host = unused_url()
    shell.ctx.settings.llm_retries = 0
    result = shell.execute("/models")[1]
    assert isinstance(result, Failure) and result.exit_code == 3
    assert "cannot reach the Ollama server" in result.message and "ollama serve" in result.hint


def test_llm_sends_text_as_it_is(wired, ollama_server):
    ollama_server.reply("Bonjour.", when="French")
    result = wired.execute("/llm Say hello in French.")[1]
    assert (result.text, result.data["model"]) == ("Bonjour.", "llama3.1:8b")


def test_cost_sums_calls_cached_calls_and_tokens(wired, ollama_server):
    ollama_server.reply("Yes it is.")
    wired.execute("/llm Is it?")
    wired.execute("/llm Is it?")
    result = wired.execute("/cost")[1]
    assert result.to_dict() == {"calls": 2, "cached": 1, "failed": 0, "prompt_tokens": 4, "completion_tokens": 6,
                                "tokens": 10}
    from sym.repl.render import to_text
    assert to_text(result) == "2 model calls this session (1 to the model, 1 from the cache); tokens: 4 in, 6 out"


def test_sym_logs_json_shows_the_latest_calls(wired, ollama_server, sym_exe, sym_home):
    ollama_server.reply("One.", when="one")
    ollama_server.reply("Two.", when="two")
    wired.execute("/llm one")
    wired.execute("/llm two")
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    proc = subprocess.run([*sym_exe, "logs", "-n", "1", "--json"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    [row] = [json.loads(line) for line in proc.stdout.splitlines()]
    assert (row["purpose"], row["output"], row["messages"]) == ("llm", "Two.", [{"role": "user", "content": "two"}])
    plain = subprocess.run([*sym_exe, "logs"], capture_output=True, text=True, env=env, timeout=60)
    assert plain.returncode == 0 and len(plain.stdout.splitlines()) == 2 and "One." in plain.stdout


def _batch(sym_exe, sym_home, tmp_path, *options: str) -> subprocess.CompletedProcess:
    script = tmp_path / "s.sym"
    script.write_text("/llm hello\n")
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    env.pop("OLLAMA_HOST", None)
    env.pop("SYM_MODEL", None)
    return subprocess.run([*sym_exe, *options, "--batch", str(script)], capture_output=True, text=True, env=env,
                          timeout=60)


def test_cli_ollama_host_option_reaches_the_shell(ollama_server, sym_exe, sym_home, tmp_path):
    ollama_server.reply("Hello from the test server.")
    proc = _batch(sym_exe, sym_home, tmp_path, "--ollama-host", ollama_server.url)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Hello from the test server."


def test_cli_model_option_reaches_the_shell(ollama_server, sym_exe, sym_home, tmp_path):
    ollama_server.models.append("tiny:1b")
    ollama_server.reply("From tiny.", model="tiny:1b")
    proc = _batch(sym_exe, sym_home, tmp_path, "--model", "tiny:1b", "--ollama-host", ollama_server.url)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "From tiny."
    assert ollama_server.last.model == "tiny:1b"


def test_a_call_from_another_thread_can_be_cancelled(wired, ollama_server):
    ollama_server.fail("slow", delay=10)
    threading.Timer(0.2, wired.ctx.cancel.set).start()
    started = time.perf_counter()
    with pytest.raises(LLMError) as err:
        wired.ctx.llm.chat(USER)
    assert (err.value.reason, err.value.exit_code) == ("cancelled", 130)
    assert time.perf_counter() - started < 3 and not wired.ctx.cancel.is_set()


# -- jsonout directly --------------------------------------------------------------------------

def test_trailing_commas_are_dropped_only_outside_strings():
    from sym.core.llm.jsonout import extract_json

    assert extract_json('{"a": "x,}", "b": [1, 2,],}') == {"a": "x,}", "b": [1, 2]}


def test_keys_are_matched_to_nested_schema_fields_by_case():
    from sym.core.llm.jsonout import parse_model

    class Fact(BaseModel):
        text: str
        source_sentence: str

    class Facts(BaseModel):
        facts: list[Fact]

    got = parse_model('{"Facts": [{"TEXT": "big(bob).", "Source Sentence": "Bob is big."}]}', Facts)
    assert got == Facts(facts=[Fact(text="big(bob).", source_sentence="Bob is big.")])


def test_a_reply_with_no_json_says_so():
    from sym.core.llm.jsonout import BadJSON, extract_json

    with pytest.raises(BadJSON, match="no JSON"):
        extract_json("I think Bob is big.")
    with pytest.raises(BadJSON, match="no complete, valid JSON"):
        extract_json('{"name" "Bob"}')
    with pytest.raises(BadJSON, match="the model's output was cut off"):
        extract_json('{"name": "Bob", "age": ')
