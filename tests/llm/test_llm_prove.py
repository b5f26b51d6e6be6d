"""/prove and the model's and the solver's time limits: a model timeout moves on to the next
attempt, so does a Z3 deadline (a timeout, exit 4, when it was the last), and only the user's cancel is "cancelled" (130)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from sym.core.events import TraceNode
from sym.repl.results import Failure

GOOD = json.loads((Path(__file__).resolve().parents[2] / "examples" / "height.json").read_text())
# easy to satisfy, hard to prove: Z3 gives up on the verification (a check with assumptions),
# which it reports as "canceled" when its own timer stops it
FERMAT = {"sorts": [], "functions": [{"name": n, "domain": [], "range": "IntSort"} for n in "xyz"],
          "knowledge_base": ["x > 1", "y > 1", "z > 1"],
          "verifications": [{"name": "fermat", "constraint": "x*x*x + y*y*y != z*z*z"}]}
QUESTION = "/prove Could Sotomayor jump over a giraffe?"


def wired(shell, server, **settings):
    shell.ctx.settings.ollama_host = server.url
    for key, value in settings.items():
        setattr(shell.ctx.settings, key, value)
    events: list = []
    shell.ctx.emit = events.append
    return events


def attempts(events):
    return [e for e in events if isinstance(e, TraceNode) and e.kind == "prove.attempt"]


def test_a_model_timeout_moves_on_to_the_next_attempt(ollama_server, shell):
    events = wired(shell, ollama_server, llm_timeout=0.5, llm_retries=0)
    ollama_server.fail("slow", delay=3)
    ollama_server.reply(json.dumps(GOOD))
    result = shell.execute(QUESTION)[1]
    assert result.ok, result
    assert result.attempts == 2
    assert [a.status for a in attempts(events)] == ["failed", "ok"]
    assert "did not answer within 0.5 s" in attempts(events)[0].detail


def test_a_model_that_times_out_on_every_attempt_is_a_timeout(ollama_server, shell):
    wired(shell, ollama_server, llm_timeout=0.3, llm_retries=0, proof_attempts=2)
    ollama_server.fail("slow", delay=3, times=None)
    result = shell.execute(QUESTION)[1]
    assert isinstance(result, Failure) and result.exit_code == 4
    assert "did not answer within 0.3 s" in result.message
    assert len(ollama_server.chats) == 2


def test_a_z3_deadline_on_a_file_is_a_timeout_not_a_cancel(shell, tmp_path):
    (tmp_path / "fermat.json").write_text(json.dumps(FERMAT))
    shell.ctx.settings.proof_timeout = 0.2
    result = shell.execute(f"/prove --file {tmp_path / 'fermat.json'}")[1]
    assert isinstance(result, Failure) and result.exit_code == 4
    assert "proof.timeout" in result.message and "cancel" not in result.message


def test_a_z3_deadline_on_a_model_written_program_is_a_timeout(ollama_server, shell):
    wired(shell, ollama_server, proof_timeout=0.2)
    ollama_server.reply(json.dumps(FERMAT))
    result = shell.execute(QUESTION)[1]
    assert isinstance(result, Failure) and result.exit_code == 4     # the last attempt timed out: exit 4
    assert "proof.timeout" in result.message and "cancel" not in result.message
    assert len(ollama_server.chats) == 3      # each timeout moved on to the next attempt (proof.attempts 3)
    told = ollama_server.chats[1].body["messages"][-1]["content"]
    assert "proof.timeout" in told and "simpler" in told    # the model was told why


def test_a_timeout_then_a_program_that_settles_is_proved(ollama_server, shell):
    wired(shell, ollama_server, proof_timeout=0.5)
    ollama_server.reply(json.dumps(FERMAT), json.dumps(GOOD))
    result = shell.execute(QUESTION)[1]
    assert result.ok and result.attempts == 2
    assert [v["status"] for v in result.to_dict()["verifications"]] == ["refuted"]


def test_the_users_cancel_during_z3_is_still_a_cancel(shell, tmp_path):
    (tmp_path / "fermat.json").write_text(json.dumps(FERMAT))
    shell.ctx.settings.proof_timeout = 60
    threading.Timer(0.3, shell.ctx.cancel.set).start()
    result = shell.execute(f"/prove --file {tmp_path / 'fermat.json'}")[1]
    assert isinstance(result, Failure) and result.exit_code == 130


def test_the_program_schema_sent_to_the_model_has_small_list_bounds(ollama_server, shell):
    wired(shell, ollama_server)
    ollama_server.reply(json.dumps(GOOD))
    assert shell.execute(QUESTION)[1].ok
    bounds = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "array":
                bounds.append(node.get("maxItems"))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(ollama_server.last.format)
    assert bounds and all(isinstance(b, int) and b <= 64 for b in bounds)
