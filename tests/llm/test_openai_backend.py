"""The OpenAI-compatible backend end to end: /tell, /ask, chat, /prove and /explore through the real
httpx client against the `/v1` protocol test server (tests/openai_server.py), streaming, structured
output and its fallbacks, model listing, embeddings, and choosing the backend (flags, /set, config)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from sym.core.events import LLMCall, LLMToken, TraceNode
from sym.plugins.prompters import add_pack
from sym.repl.dispatcher import Shell
from tests.conftest import texts
from tests.openai_server import OpenAIServer
from tests.verifier import verifier

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
USER = [{"role": "user", "content": "Is Bob big?"}]


@pytest.fixture
def openai_server():
    with OpenAIServer() as server:
        yield server


@pytest.fixture
def osym(openai_server):
    """Type one input into a shell whose model calls go to the /v1 test server (`osym.server`)."""
    events: list = []
    shell = Shell(emit=events.append)
    shell.ctx.settings.backend, shell.ctx.settings.base_url = "openai", openai_server.url

    def run(text: str):
        return shell.execute(text)[1]
    run.shell, run.server, run.events = shell, openai_server, events
    return run


# -- the reasoners through the backend ------------------------------------------------------

def test_tell_asks_the_model_with_a_json_schema_for_a_sentence_the_grammar_cannot_read(osym):
    osym("/tell Bob is big.")
    osym.server.reply('{"statements": [{"kind": "fact", "predicate": "other", "new_predicate": "plays", '
                      '"args": ["Bob", "jazz"], "negated": false}]}', when="jazz")
    verifier(osym.server)
    r = osym("/tell Bob adores jazz and plays it every night.")
    assert r.ok, r
    assert r.sentences[0].path == "llm" and "plays(bob, jazz)." in texts(osym.shell.memory)
    sent, check, _control = osym.server.chats[-3:]           # the reading, its check, the reversed one's
    assert check.format["json_schema"]["schema"]["properties"]["answer"]["enum"] == ["yes", "no"]
    assert sent.path == "/v1/chat/completions" and "big(A): A is big" in sent.last_user
    assert sent.format["type"] == "json_schema"
    schema = sent.format["json_schema"]["schema"]
    assert schema["properties"]["statements"]["items"]["properties"]["predicate"]["enum"] == ["big", "other"]


def test_ask_parses_the_question_with_the_model_and_answers_by_logic(osym):
    osym("/tell Bob is big. If something is big then it is heavy.")
    osym.server.reply('{"kind": "truth", "predicate": "heavy", "args": ["Bob"], "negated": false}', when="weigh")
    out = osym("/ask Does Bob weigh a lot, would you say?").outcome
    assert (out.goal, out.answer, out.verified) == ("heavy(bob)", "true", True)


def test_chat_streams_the_reply_and_cites_memory(osym):
    fid = osym("/fact likes(bob, jazz).").items[0].id
    osym.server.reply(f"Bob likes jazz [{fid}].", when="Bob", chunks=["Bob likes ", "jazz ", f"[{fid}]."])
    osym.shell.ctx.streams = True
    osym.shell.ctx.settings.agent_style = "plain"     # the model alone, streamed, citing memory
    out = osym("What does Bob like?")
    assert out.text == f"Bob likes jazz [{fid}]." and out.cited == [fid]
    assert [e.text for e in osym.events if isinstance(e, LLMToken)] == ["Bob likes ", "jazz ", f"[{fid}]."]
    sent = osym.server.chats[-1]
    assert sent.stream and sent.body["stream_options"] == {"include_usage": True}
    assert f"[{fid}]" in sent.system


def test_a_server_that_answers_a_streamed_call_whole_still_gives_the_reply(osym):
    # the stream used to end in "not the OpenAI protocol": closing the one-event iterator failed
    osym.server.streams = False
    osym.server.reply("Bob likes jazz.", when="Bob")
    osym.shell.ctx.streams = True
    osym.shell.ctx.settings.agent_style = "plain"
    assert osym("What does Bob like?").text == "Bob likes jazz."
    assert osym.server.chats[-1].stream


def test_prove_a_question_the_model_writes_the_program_for(osym):
    good = (EXAMPLES / "height.json").read_text()
    broken = json.dumps({**json.loads(good), "knowledge_base": ["jump_height(javier) == 2.45"]})
    osym.server.reply(broken, good)
    r = osym("/prove Could Sotomayor jump over a giraffe?")
    assert r.ok, r
    assert [v["status"] for v in r.to_dict()["verifications"]] == ["refuted"] and r.attempts == 2
    assert "undefined symbol javier" in osym.server.chats[1].last_user
    assert osym.server.chats[0].format["type"] == "json_schema"


def test_explore_builds_a_horn_program_from_the_models_items(osym):
    add_pack(osym.shell.registry, {"name": "t", "description": "test pack", "or_items": 3, "and_items": 4,
                                   "prompts": {"or": "OR <$g> path <$context> topic <$topic> n <$n>",
                                               "and": "AND <$g> path <$context>", "oracle": "ORACLE <$g>",
                                               "rater": "RATE <$g>", "constraint": "CONFLICTS $items"}},
             origin="openai tests")
    osym.server.default = ""
    for step, goal, reply in (("OR", "wet grass", "1. Rain\n2. Sprinkler"), ("AND", "Rain", "- clouds"),
                              ("AND", "Sprinkler", "- timer set")):
        osym.server.reply(reply, when=lambda r, head=f"{step} <{goal}>": r.last_user.startswith(head))
    e = osym("/explore wet grass --prompter t --depth 1").exploration
    assert e.program.text().splitlines() == ["'wet grass' :- 'rain'.", "'wet grass' :- 'sprinkler'.",
                                             "'rain' :- 'clouds'.", "'clouds'.", "'sprinkler' :- 'timer set'.",
                                             "'timer set'."]
    assert e.top_holds and any(isinstance(ev, TraceNode) for ev in osym.events)


# -- the protocol ------------------------------------------------------------------------------

def test_chat_maps_options_and_reports_tokens(osym):
    osym.server.reply("Yes, Bob is big.", when="Bob")
    reply = osym.shell.ctx.llm.chat(USER, purpose="ask.goal", options={"seed": 7, "num_ctx": 8192})
    assert (reply.text, reply.model, reply.prompt_tokens, reply.completion_tokens) == (
        "Yes, Bob is big.", "llama3.1:8b", 3, 4)
    body = osym.server.last.body
    assert (body["model"], body["stream"], body["temperature"], body["max_tokens"], body["seed"]) == (
        "llama3.1:8b", False, 0.0, 1024, 7)
    assert "num_ctx" not in body and "response_format" not in body
    [call] = [e for e in osym.events if isinstance(e, LLMCall)]
    assert call.purpose == "ask.goal" and call.error is None
    assert osym.shell.ctx.llm.host == osym.server.url


def test_the_output_cap_marks_a_reply_truncated(osym):
    osym.shell.ctx.settings.llm_max_tokens = 3
    osym.server.reply("one two three four five")
    assert osym.shell.ctx.llm.chat(USER).truncated
    assert osym.shell.ctx.llm.stream([{"role": "user", "content": "again"}]).text == "one two three "


def test_a_server_that_refuses_json_schema_gets_json_mode_then_the_prompt_alone(osym):
    from pydantic import BaseModel

    class Person(BaseModel):
        name: str
        age: int

    osym.server.json_schema = False
    osym.server.reply('{"name": "Ann", "age": 7}')
    llm = osym.shell.ctx.llm
    assert llm.json(USER, Person) == Person(name="Ann", age=7)
    assert [c.format["type"] for c in osym.server.chats] == ["json_schema", "json_object"]
    assert osym.server.chats[0].last_user == "Is Bob big?"           # the server enforced the schema
    assert '"required":["name","age"]' in osym.server.chats[1].last_user   # now the model is told it
    llm.json([{"role": "user", "content": "again"}], Person)       # remembered: straight to json mode
    assert osym.server.chats[-1].format == {"type": "json_object"}
    osym.server.json_object = False
    assert llm.json([{"role": "user", "content": "third"}], Person).name == "Ann"
    assert osym.server.chats[-1].format is None


def test_a_refusal_sent_as_a_500_naming_response_format_also_falls_back(osym):
    osym.server.json_schema, osym.server.refusal_status = False, 500     # what llama-cpp-python 0.3 does
    osym.server.reply('{"name": "Ann"}')
    assert osym.shell.ctx.llm.chat(USER, format={"type": "object"}).text == '{"name": "Ann"}'
    assert [c.format["type"] for c in osym.server.chats] == ["json_schema", "json_object"]


def test_models_and_embeddings(osym):
    assert [m.name for m in osym.shell.ctx.llm.models()] == ["llama3.1:8b", "text-embedding-3-small"]
    vectors = osym.shell.ctx.llm.embed(["a b", "c"], model="text-embedding-3-small")
    assert len(vectors) == 2 and len(vectors[0]) == 16 and vectors[0] != vectors[1]
    assert osym.shell.ctx.llm.ping()


def test_identical_temperature_zero_calls_come_from_the_call_log(osym):
    osym.server.reply("Cached.")
    first = osym.shell.ctx.llm.chat(USER)
    second = osym.shell.ctx.llm.chat(USER)
    assert (first.cached, second.cached, second.text) == (False, True, "Cached.")
    assert len(osym.server.chats) == 1


# -- choosing the backend -------------------------------------------------------------------

def test_set_backend_and_base_url_switch_a_running_shell(openai_server, sym):
    openai_server.reply("From /v1.")
    assert sym(f"/set base_url {openai_server.url}").ok
    assert sym("/set backend openai").ok
    assert sym("/llm hello").text == "From /v1."
    bad = sym("/set backend vllm")
    assert not bad.ok and "ollama" in bad.message and "openai" in bad.message


def _run(sym_exe, sym_home, tmp_path, *options: str, env: dict | None = None,
         line: str = "/llm hello") -> subprocess.CompletedProcess:
    script = tmp_path / "s.sym"
    script.write_text(line + "\n")
    base = {k: v for k, v in os.environ.items()
            if k not in ("OLLAMA_HOST", "SYM_MODEL", "SYM_BACKEND", "SYM_BASE_URL", "OPENAI_BASE_URL")}
    return subprocess.run([*sym_exe, *options, "--batch", str(script)], capture_output=True, text=True,
                          env={**base, "SYM_HOME": str(sym_home), **(env or {})}, timeout=60)


def test_cli_backend_and_base_url_reach_the_shell(openai_server, sym_exe, sym_home, tmp_path):
    openai_server.reply("Hello from /v1.")
    proc = _run(sym_exe, sym_home, tmp_path, "--backend", "openai", "--base-url", openai_server.url)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Hello from /v1."
    bad = _run(sym_exe, sym_home, tmp_path, "--backend", "vllm")
    assert bad.returncode == 2 and bad.stderr.strip() == "sym: unknown backend 'vllm': use ollama or openai"


def test_config_file_chooses_the_backend_and_flags_win(openai_server, sym_exe, sym_home, tmp_path):
    openai_server.reply("Configured.")
    (sym_home / "config.toml").write_text(f'[settings]\nbackend = "openai"\nbase_url = "{openai_server.url}"\n')
    proc = _run(sym_exe, sym_home, tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "Configured.", proc.stderr
    # (another question: the call log would answer the same one, whichever server asked it first)
    proc = _run(sym_exe, sym_home, tmp_path, "--backend", "ollama", env={"OLLAMA_HOST": "http://127.0.0.1:9"},
                line="/llm hello again")
    assert proc.returncode == 3 and "cannot reach the Ollama server" in proc.stderr
    assert len(openai_server.chats) == 1
