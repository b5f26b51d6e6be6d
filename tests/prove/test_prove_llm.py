"""/prove QUESTION against the Ollama-protocol test server: the model writes the program,
interpreter errors go back to it, and a model that never gets it right fails cleanly."""

from __future__ import annotations

import json
from pathlib import Path

from sym.core.events import TraceNode

GOOD = json.loads((Path(__file__).resolve().parents[2] / "examples" / "height.json").read_text())
BROKEN = {**GOOD, "knowledge_base": ["jump_height(javier) == 2.45"]}   # javier is not declared


def wired(shell, server):
    shell.ctx.settings.ollama_host = server.url
    events = []
    shell.ctx.emit = events.append
    return events


def attempts(events):
    return [e for e in events if isinstance(e, TraceNode) and e.kind == "prove.attempt"]


def test_an_interpreter_error_goes_back_and_the_second_program_is_checked(ollama_server, shell):
    events = wired(shell, ollama_server)
    ollama_server.reply(json.dumps(BROKEN), json.dumps(GOOD))
    _, result = shell.execute("/prove Could Sotomayor jump over a giraffe?")
    assert result.ok, result
    assert result.to_dict()["verifications"] == [
        {"name": "Sotomayor jumps over the giraffe", "status": "refuted",
         "counter_model": {"jump_height(javier_sotomayor)": 2.45, "height(average_giraffe)": 5.5}}]
    assert result.attempts == 2
    tried = attempts(events)
    assert [t.status for t in tried] == ["failed", "ok"]
    assert "undefined symbol javier" in tried[0].detail
    chats = ollama_server.requests_to("/api/chat")
    assert len(chats) == 2
    assert "undefined symbol javier" in chats[1].last_user
    assert chats[0].format is not None          # schema-constrained output
    assert shell.execute("/program")[1].to_dict()["source"].startswith("llm: ")


def test_a_model_that_never_gets_it_right_fails_cleanly_and_changes_nothing(ollama_server, shell):
    events = wired(shell, ollama_server)
    shell.execute("bird(tweety).")
    before = dict(shell.memory.items)
    ollama_server.reply(json.dumps(BROKEN))
    _, result = shell.execute("/prove Could Sotomayor jump over a giraffe?")
    assert not result.ok
    assert "after 3 attempts" in result.message and "undefined symbol javier" in result.message
    assert len(attempts(events)) == 3 and all(t.status == "failed" for t in attempts(events))
    assert shell.memory.items == before
    assert not shell.execute("/program")[1].ok


def test_the_question_carries_the_relevant_memory(ollama_server, shell):
    wired(shell, ollama_server)
    shell.execute("jump_height(sotomayor, 2.45).")
    ollama_server.reply(json.dumps(GOOD))
    shell.execute("/prove How high can sotomayor jump?")
    assert "jump_height(sotomayor, 2.45)" in ollama_server.requests_to("/api/chat")[0].last_user
