"""Text no file or database can hold — a lone surrogate ("\\ud800", half an emoji), a NUL, mixed line
ends — in a model's reply, a program file or an SMT-LIB script is made valid before it is stored,
logged or handed to Z3: each command ends as it would with ordinary text (never an internal error),
the replaced characters are counted and said, and the session records every model call."""

from __future__ import annotations

import json

import pytest

from sym.core.events import Warning
from sym.core.llm.calllog import CallLog
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.sessions.log import read_session

LONE = "\ud800"


@pytest.fixture
def wired(ollama_server, sym_home):
    events: list = []
    shell = open_shell(MemoryOptions(persistent=False), emit=events.append, record=True)
    settings = shell.ctx.settings
    settings.ollama_host, settings.llm_timeout, settings.llm_retries = ollama_server.url, 10, 0
    shell.events = events
    yield shell
    shell.close()


def _not_internal(result) -> None:
    message = getattr(result, "message", "") or ""
    assert not message.startswith("internal error"), message


@pytest.mark.parametrize("line", ["/tell Sally reckons the zorbly frim glimmers.", "/ask Is Bob big?",
                                  "/prove Is Bob big?", "/explore Is Bob big?", "/chat hello there", "/llm hi"])
def test_a_reply_holding_a_lone_surrogate_is_stored_with_it_replaced_and_counted(wired, ollama_server, sym_home, line):
    ollama_server.default = f"Bob is big {LONE} and\r\nsmall\rtoo \x00."
    # a structured reply with the raw character in it (the wire carries it as a \ud800 escape) …
    ollama_server.reply(f'{{"statements": [{{"text": "x{LONE}", "logic": "big(bob)."}}], "answer": "{LONE}"}}',
                        when=lambda r: r.format is not None)
    result = wired.execute(line)[1]
    _not_internal(result)
    calls = read_session(wired.ctx.session.path).llm_calls()
    assert calls, "the session records the model's calls"
    assert all(c["reply"] is not None or c["error"] is not None for c in calls)
    replies = [c["reply"] for c in calls if c["reply"] is not None]
    assert replies and all(LONE not in json.dumps(r, ensure_ascii=False) for r in replies if r)
    assert any(r.get("replaced", 0) >= 1 for r in replies)
    said = [e.message for e in wired.events if isinstance(e, Warning)]
    assert any("invalid character" in m and "U+FFFD" in m for m in said), said
    rows = CallLog(sym_home / "llm" / "calls.sqlite").recent(50)
    assert rows and all(r["output"] is None or "\ufffd" in r["output"] or LONE not in r["output"] for r in rows)


def test_a_reply_with_a_json_escape_of_a_lone_surrogate_is_read_as_valid_text(wired, ollama_server):
    escaped = '{"statements": [{"text": "Bob is big", "logic": "big(bob)."}], "note": "\\ud800\\u0000"}'
    ollama_server.reply(escaped, when=lambda r: r.format is not None)
    result = wired.execute("/tell Sally reckons the zorbly frim glimmers.")[1]
    _not_internal(result)


def test_the_cached_answer_to_a_reply_that_held_a_surrogate_is_the_valid_text(wired, ollama_server):
    ollama_server.default = f"one {LONE} two"
    first = wired.ctx.llm.chat([{"role": "user", "content": "q"}])
    again = wired.ctx.llm.chat([{"role": "user", "content": "q"}])
    assert first.text == again.text == "one \ufffd two" and again.cached


def test_a_program_file_holding_a_lone_surrogate_escape_is_read_not_an_internal_error(wired, tmp_path):
    program = json.loads(open("examples/height.json", encoding="utf-8").read())
    program["description"] += "\ud800"
    program["verifications"][0]["name"] += "\udfff\u0000"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(program), encoding="ascii")        # the escapes, as a file holds them
    result = wired.execute(f"/prove --file {path}")[1]
    _not_internal(result)
    assert result.ok, result


def test_an_smt2_script_with_a_lone_surrogate_from_the_model_is_one_clear_line(wired, ollama_server):
    wired.execute("/set proof.format smt2")
    ollama_server.default = f"(declare-const {LONE} Int)\n(assert (! (= {LONE} 1) :named n{LONE}))\n(check-sat)\n"
    result = wired.execute("/prove Is one one?")[1]
    _not_internal(result)
    assert "\n" not in (getattr(result, "message", "") or "")


def test_a_user_message_holding_a_lone_surrogate_is_sent_and_logged(wired, ollama_server):
    reply = wired.ctx.llm.chat([{"role": "user", "content": f"what is {LONE}?"}])
    assert reply.text == "ok"
    assert ollama_server.last.last_user == "what is \ufffd?"
