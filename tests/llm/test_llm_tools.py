"""Native tool calling through the one LLM layer: tools offered to the model, the tool calls it
asks for, the follow-up conversation in each server's wire form, models without tool calling,
the call-log cache, the session log and `replay --offline` — through the real `ollama` client and
real HTTP against the protocol test servers."""

from __future__ import annotations

import json

import pytest

from sym.core.events import LLMExchange
from sym.core.llm import LLMError, ToolCall
from sym.core.llm.calllog import CallLog, request_key
from sym.repl.dispatcher import MemoryOptions, Shell, open_shell
from sym.sessions.log import read_session
from sym.sessions.replay import OfflineBackend, answer_offline
from tests.openai_server import OpenAIServer

USER = [{"role": "user", "content": "Is Bob big?"}]
ASK = {"type": "function", "function": {
    "name": "ask", "description": "Ask the user a question.",
    "parameters": {"type": "object", "properties": {"question": {"type": "string", "description": "what to ask"}},
                   "required": ["question"]}}}
ADD = {"type": "function", "function": {
    "name": "add_fact", "description": "Add a fact to memory.",
    "parameters": {"type": "object", "properties": {"fact": {"type": "string", "description": "a Prolog fact"}},
                   "required": ["fact"]}}}
CALL = {"name": "ask", "arguments": {"question": "How big is Bob?"}}


def wired_shell(settings: dict) -> Shell:
    """A shell with the given settings, every event it emits collected in `shell.events`."""
    events: list = []
    shell = Shell(emit=events.append)
    for name, value in settings.items():
        setattr(shell.ctx.settings, name, value)
    shell.events = events
    return shell


@pytest.fixture
def wired(ollama_server):
    return wired_shell({"ollama_host": ollama_server.url})


@pytest.fixture
def openai_server():
    with OpenAIServer() as server:
        yield server


@pytest.fixture
def owired(openai_server):
    return wired_shell({"backend": "openai", "base_url": openai_server.url})


def exchanges(shell) -> list[LLMExchange]:
    return [e for e in shell.events if isinstance(e, LLMExchange)]


def follow_up(call_id: str = "") -> list[dict]:
    """The conversation after the model asked `CALL` and the tool answered."""
    return USER + [{"role": "assistant", "content": "", "tool_calls": [{"id": call_id, **CALL}]},
                   {"role": "tool", "content": "Very big.", "name": "ask", "tool_call_id": call_id}]


# -- Ollama -----------------------------------------------------------------------------------

def test_ollama_gets_the_tools_and_the_reply_carries_the_parsed_tool_calls(wired, ollama_server):
    ollama_server.reply("no tools offered", when=lambda r: not r.tools)
    ollama_server.reply(tool_calls=[CALL], when=lambda r: bool(r.tools))
    reply = wired.ctx.llm.chat(USER, tools=[ASK, ADD])
    assert reply.tool_calls == (ToolCall("ask", {"question": "How big is Bob?"}),)
    assert reply.text == "" and reply.cached is False
    sent = ollama_server.last
    assert sent.tools == [ASK, ADD] and sent.stream is False
    plain = wired.ctx.llm.chat(USER)
    assert (plain.text, plain.tool_calls) == ("no tools offered", ())
    assert not ollama_server.last.tools


def test_ollama_follow_up_sends_the_tool_calls_and_results_in_ollamas_wire_form(wired, ollama_server):
    ollama_server.reply("Bob is very big.", when=lambda r: any(m.get("role") == "tool" for m in r.messages))
    reply = wired.ctx.llm.chat(follow_up(), tools=[ASK])
    assert (reply.text, reply.tool_calls) == ("Bob is very big.", ())
    assert ollama_server.last.messages == [
        {"role": "user", "content": "Is Bob big?"},
        {"role": "assistant", "tool_calls": [{"function": {"name": "ask", "arguments": CALL["arguments"]}}]},
        {"role": "tool", "content": "Very big.", "tool_name": "ask"}]


def test_an_ollama_model_without_tools_is_no_tools_after_one_request(wired, ollama_server):
    assert wired.ctx.settings.llm_retries > 0
    ollama_server.no_tools_models = {"llama3.1:8b"}
    with pytest.raises(LLMError) as caught:
        wired.ctx.llm.chat(USER, tools=[ASK])
    assert caught.value.reason == "no-tools" and "llama3.1:8b" in caught.value.message
    assert len(ollama_server.chats) == 1
    [failed] = exchanges(wired)
    assert failed.failure["reason"] == "no-tools" and failed.request["tools"] == [ASK]
    assert wired.ctx.llm.chat(USER).text == "ok"   # the same model without tools still answers


def test_the_ollama_server_streams_scripted_tool_calls(ollama_server):
    import ollama

    ollama_server.reply(tool_calls=[CALL])
    chunks = list(ollama.Client(host=ollama_server.url).chat(model="llama3.1:8b", messages=USER, tools=[ASK],
                                                             stream=True))
    calls = [c for chunk in chunks for c in chunk.message.tool_calls or ()]
    assert [(c.function.name, dict(c.function.arguments)) for c in calls] == [("ask", CALL["arguments"])]
    assert chunks[-1].done


# -- the cache and the exchange -----------------------------------------------------------------

def test_a_repeated_request_with_tools_is_answered_from_the_call_log_with_its_tool_calls(wired, ollama_server):
    ollama_server.reply(tool_calls=[CALL], when=lambda r: bool(r.tools))
    first = wired.ctx.llm.chat(USER, tools=[ASK])
    again = wired.ctx.llm.chat(USER, tools=[ASK])
    assert again.cached and again.tool_calls == first.tool_calls == (ToolCall("ask", CALL["arguments"]),)
    assert len(ollama_server.chats) == 1
    other = wired.ctx.llm.chat(USER, tools=[ASK, ADD])      # other tools: another request
    plain = wired.ctx.llm.chat(USER)                        # no tools: not the tools' reply
    assert not other.cached and not plain.cached and plain.tool_calls == ()
    assert len(ollama_server.chats) == 3
    later = wired_shell({"ollama_host": ollama_server.url})   # a new shell: the answer is in the log on disk
    assert later.ctx.llm.chat(USER, tools=[ASK]).tool_calls == first.tool_calls
    assert len(ollama_server.chats) == 3
    [row] = [r for r in CallLog().recent(20) if r["id"] == first.call_id]
    assert row["tools"] == [ASK] and row["tool_calls"] == [{"id": "", **CALL}]


def test_a_call_log_from_before_tools_is_migrated_and_still_answers(wired, ollama_server):
    import sqlite3

    from sym.core.llm import calllog

    path = calllog.default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:   # the schema as version 1 left it, with one answered call
        db.executescript(calllog._MIGRATIONS[1] + "PRAGMA user_version=1;")
        opts = {"temperature": 0.0, "num_predict": 1024}
        db.execute("INSERT INTO calls (ts, key, model, purpose, options, messages, output) VALUES (0, ?, ?, ?, ?, ?, ?)",
                   (request_key("llama3.1:8b", USER, None, opts), "llama3.1:8b", "chat", calllog.canonical(opts),
                    calllog.canonical(USER), "from the old log"))
    db.close()
    old = wired.ctx.llm.chat(USER)
    assert (old.text, old.cached, old.tool_calls) == ("from the old log", True, ())
    ollama_server.reply(tool_calls=[CALL])
    assert wired.ctx.llm.chat(USER, tools=[ASK]).cached is False
    assert wired.ctx.llm.chat(USER, tools=[ASK]).tool_calls == (ToolCall("ask", CALL["arguments"]),)
    assert len(ollama_server.chats) == 1
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == calllog.SCHEMA_VERSION
    db.close()


def test_the_key_of_a_request_without_tools_is_unchanged_and_tools_change_it(wired, ollama_server):
    opts = {"temperature": 0.0, "num_predict": 1024}
    assert request_key("m", USER, None, opts, None) == request_key("m", USER, None, opts) \
        == request_key("m", USER, None, opts, [])
    keys = {request_key("m", USER, None, opts), request_key("m", USER, None, opts, [ASK]),
            request_key("m", USER, None, opts, [ASK, ADD])}
    assert len(keys) == 3
    wired.ctx.llm.chat(USER)
    wired.ctx.llm.chat(USER, tools=[ASK])
    plain, tooled = exchanges(wired)
    assert plain.key == request_key("llama3.1:8b", USER, None, plain.request["options"])
    assert tooled.key == request_key("llama3.1:8b", USER, None, tooled.request["options"], [ASK])


def test_the_exchange_carries_the_tools_and_the_tool_calls(wired, ollama_server):
    ollama_server.reply(tool_calls=[CALL, {"name": "add_fact", "arguments": {"fact": "big(bob)."}}])
    wired.ctx.llm.chat(USER, tools=[ASK, ADD], purpose="agent.step")
    wired.ctx.llm.chat(USER, tools=[ASK, ADD], purpose="agent.step")
    wired.ctx.llm.chat([{"role": "user", "content": "plain"}])
    live, cached, plain = exchanges(wired)
    assert live.request["tools"] == [ASK, ADD] and live.purpose == "agent.step"
    assert live.reply["tool_calls"] == [{"id": "", **CALL},
                                        {"id": "", "name": "add_fact", "arguments": {"fact": "big(bob)."}}]
    assert cached.cached and cached.reply["tool_calls"] == live.reply["tool_calls"]
    assert "tools" not in plain.request and "tool_calls" not in plain.reply


def test_messages_keep_only_the_tool_keys_where_they_belong(wired, ollama_server):
    wired.ctx.llm.chat(follow_up("c1") + [{"role": "user", "content": "and?", "name": "x", "extra": 1}], tools=[ASK])
    [sent] = [e.request["messages"] for e in exchanges(wired)]
    assert sent == [USER[0], {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", **CALL}]},
                    {"role": "tool", "content": "Very big.", "name": "ask", "tool_call_id": "c1"},
                    {"role": "user", "content": "and?"}]
    for bad in ([{"role": "assistant", "content": "", "tool_calls": [{"name": "ask", "arguments": "{}"}]}],
                [{"role": "assistant", "content": "", "tool_calls": {"name": "ask"}}],
                [{"role": "tool", "content": "r", "tool_call_id": 3}],
                [{"role": "user", "content": None}]):
        with pytest.raises(TypeError):
            wired.ctx.llm.chat(bad, tools=[ASK])
    with pytest.raises(TypeError):
        wired.ctx.llm.chat(USER, tools=[{"type": "function"}])
    assert len(ollama_server.chats) == 1


# -- OpenAI-compatible --------------------------------------------------------------------------

def test_openai_gets_the_tools_and_its_json_arguments_are_parsed(owired, openai_server):
    openai_server.reply(tool_calls=[{"id": "call_abc", **CALL}], when=lambda r: bool(r.tools))
    reply = owired.ctx.llm.chat(USER, tools=[ASK, ADD])
    assert reply.tool_calls == (ToolCall("ask", {"question": "How big is Bob?"}, "call_abc"),)
    assert reply.done_reason == "tool_calls" and reply.text == ""
    sent = openai_server.last
    assert sent.tools == [ASK, ADD] and sent.stream is False
    owired.ctx.llm.chat([{"role": "user", "content": "plain"}])
    assert "tools" not in openai_server.last.body


def test_openai_follow_up_sends_the_tool_calls_and_results_in_the_chat_completions_form(owired, openai_server):
    owired.ctx.llm.chat(follow_up("call_abc"), tools=[ASK])
    assert openai_server.last.messages == [
        {"role": "user", "content": "Is Bob big?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_abc", "type": "function",
             "function": {"name": "ask", "arguments": json.dumps(CALL["arguments"])}}]},
        {"role": "tool", "tool_call_id": "call_abc", "content": "Very big."}]


@pytest.mark.parametrize("status", [400, 422])
def test_an_openai_server_without_tools_is_no_tools_after_one_request(owired, openai_server, status):
    openai_server.no_tools, openai_server.tools_refusal_status = True, status
    with pytest.raises(LLMError) as caught:
        owired.ctx.llm.chat(USER, tools=[ASK])
    assert caught.value.reason == "no-tools" and "tool" in caught.value.message
    assert len(openai_server.chats) == 1
    assert owired.ctx.llm.chat(USER).text == "ok"


def test_a_server_failure_naming_a_function_is_not_no_tools(owired, openai_server):
    openai_server.fail("server", message="function call failed", times=None)   # a 500: transient, retried
    with pytest.raises(LLMError) as caught:
        owired.ctx.llm.chat(USER, tools=[ASK])
    assert caught.value.reason == "server"
    assert len(openai_server.chats) == 1 + owired.ctx.settings.llm_retries


def test_openai_arguments_that_are_not_json_are_bad_output(owired, openai_server):
    openai_server.reply(tool_calls=[{"name": "ask", "arguments": '{"question": "How big'}])
    with pytest.raises(LLMError) as caught:
        owired.ctx.llm.chat(USER, tools=[ASK])
    assert caught.value.reason == "bad-output" and "ask" in caught.value.message
    assert len(openai_server.chats) == 1


# -- the session log and replay --offline -------------------------------------------------------

def test_offline_replay_returns_the_recorded_tool_calls(ollama_server, sym_home, tmp_path, monkeypatch):
    ollama_server.reply(tool_calls=[CALL], when=lambda r: bool(r.tools) and len(r.messages) == 1)
    ollama_server.reply("Bob is very big.", when=lambda r: len(r.messages) == 3)
    shell = open_shell(MemoryOptions(persistent=False), record=True)
    shell.ctx.settings.ollama_host = ollama_server.url
    try:
        asked = shell.ctx.llm.chat(USER, tools=[ASK])
        answered = shell.ctx.llm.chat(follow_up(), tools=[ASK])
        path = shell.ctx.session.path
    finally:
        shell.close()
    ollama_server.stop()
    calls = read_session(path).llm_calls()
    assert [c["reply"]["tool_calls"] for c in calls] == [[{"id": "", **CALL}], []]
    assert calls[0]["request"]["tools"] == [ASK]

    monkeypatch.setenv("SYM_HOME", str(tmp_path / "elsewhere"))   # no call log to answer from
    replayed = Shell()
    answer_offline(read_session(path), replayed.ctx)
    again = replayed.ctx.llm.chat(USER, tools=[ASK])
    assert again.tool_calls == asked.tool_calls == (ToolCall("ask", CALL["arguments"]),) and not again.cached
    assert replayed.ctx.llm.chat(follow_up(), tools=[ASK]).text == answered.text
    with pytest.raises(LLMError) as caught:
        replayed.ctx.llm.chat(USER, tools=[ASK, ADD])
    assert caught.value.reason == "offline"
    backend = OfflineBackend(read_session(path).llm_calls())
    with pytest.raises(LLMError):   # the same request without its tools is another request
        backend.chat(calls[0]["request"]["messages"], model="llama3.1:8b", options=calls[0]["request"]["options"])
