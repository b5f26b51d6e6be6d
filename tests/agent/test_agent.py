"""A chat turn that reasons: the model calls sym's commands (native tool calls through the Ollama
and /v1 protocol servers, or the menu for a model with no tool calling), memory changes only when
approved, answers keep what sym verified apart from the model's words, and a recorded
conversation replays offline. With no model, a typed line the grammar reads is told and asked."""

from __future__ import annotations

import io

import pytest

from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import to_text
from sym.repl.replay import replay
from sym.sessions.log import read_session
from tests.conftest import texts

TURN = "Penguins are birds. Tweety is a penguin. Is Tweety a bird?"


def tool_results(n: int):
    """A request made after exactly `n` tool results (the turn's step n+1)."""
    return lambda r: sum(1 for m in r.messages if m.get("role") == "tool") == n and bool(r.body.get("tools"))


def script_tweety(server, answer: str = "Yes, Tweety is a bird.") -> None:
    server.reply(tool_calls=[{"name": "tell", "arguments": {"text": "Penguins are birds. Tweety is a penguin."}}],
                 when=tool_results(0))
    server.reply(tool_calls=[{"name": "ask", "arguments": {"question": "Is Tweety a bird?"}}], when=tool_results(1))
    server.reply(answer, when=tool_results(2))


def agent_chats(server) -> list:
    """The requests of chat turns (those that offer tools)."""
    return [c for c in server.chats if c.body.get("tools")]


@pytest.fixture
def asked(llm_sym):
    """The shell's y/n questions, answered yes (as a TUI user would); the lines asked are kept."""
    lines: list[str] = []

    def approve(line: str) -> bool:
        lines.append(line)
        return True
    llm_sym.shell.ctx.approver = approve
    return lines


def test_the_model_tells_after_approval_and_asks_with_proof_steps(llm_sym, asked):
    script_tweety(llm_sym.server)
    r = llm_sym(TURN)
    assert r.ok, to_text(r)
    assert asked == ["/tell Penguins are birds. Tweety is a penguin."]
    assert "bird(X) :- penguin(X)." in texts(llm_sym.shell.memory)
    assert [(c.line, c.status) for c in r.calls] == [("/tell Penguins are birds. Tweety is a penguin.", "approved"),
                                                     ("/ask Is Tweety a bird? --no-fallback", "ran")]
    shown = to_text(r).splitlines()
    assert "→ /ask Is Tweety a bird? --no-fallback — true (2 steps)" in shown
    assert "    1. penguin(tweety).  given (Tweety is a penguin.)" in shown       # the proof, as /ask prints it
    assert shown[-1] == "model (unverified): Yes, Tweety is a bird."
    first, second, third = agent_chats(llm_sym.server)
    offered = {t["function"]["name"] for t in first.body["tools"]}
    assert {"tell", "ask", "prove", "math", "query", "why", "check", "search", "listing", "extract"} <= offered
    told = [m for m in second.messages if m.get("role") == "tool"]
    assert told and "penguin" in told[0]["content"]
    answered = [m for m in third.messages if m.get("role") == "tool"][-1]["content"]
    assert answered.startswith("true") and "because:" in answered
    assert r.to_dict()["calls"][1]["result"]["answer"] == "true"


def test_with_no_one_to_approve_a_change_is_refused_and_memory_stays(llm_sym):
    script_tweety(llm_sym.server, "I could not store that.")
    r = llm_sym(TURN)
    assert texts(llm_sym.shell.memory) == set()
    assert r.calls[0].status == "refused" and "/set agent.approve auto" in r.calls[0].note
    told = [m for m in agent_chats(llm_sym.server)[-1].messages if m.get("role") == "tool"]
    assert "no one is here to approve" in told[0]["content"]      # the model hears why
    assert llm_sym("/set agent.approve auto").ok
    script_tweety(llm_sym.server)
    r = llm_sym(TURN)
    assert r.calls[0].status == "ran" and "bird(X) :- penguin(X)." in texts(llm_sym.shell.memory)


def test_a_declined_change_stores_nothing(llm_sym):
    llm_sym.shell.ctx.approver = lambda line: False
    script_tweety(llm_sym.server, "Unknown.")
    r = llm_sym(TURN)
    assert texts(llm_sym.shell.memory) == set()
    assert r.calls[0].status == "declined"
    assert r.calls[1].verdict == "unknown"


def test_a_reply_against_the_verified_answer_is_flagged(llm_sym, asked):
    script_tweety(llm_sym.server)
    llm_sym.server.clear()
    llm_sym.server.reply(tool_calls=[{"name": "ask", "arguments": {"question": "Is Tweety a bird?"}}],
                         when=tool_results(0))
    llm_sym.server.reply("Yes, of course Tweety is a bird.", when=tool_results(1))
    r = llm_sym("Is Tweety a bird?")
    assert r.calls[0].verdict == "unknown"
    assert r.warnings and "sym answered unknown" in r.warnings[0]
    assert to_text(r).splitlines()[-1].startswith("warning: the model's reply says yes")


def test_math_and_a_z3_proof_run_for_real(llm_sym):
    program = "(declare-const x Int) (assert (> x 2)) (assert (< x 1)) (check-sat)"
    llm_sym.server.reply(tool_calls=[{"name": "math", "arguments": {"operation": "factor", "expr": "x**2 - 1"}},
                                     {"name": "prove", "arguments": {"program": program}}], when=tool_results(0))
    llm_sym.server.reply("Done.", when=tool_results(2))
    r = llm_sym("Factor x**2 - 1, and show no integer is above 2 and below 1.")
    math, proof = r.calls
    assert math.line == "/math factor x**2 - 1" and to_text(math.result) == "(x - 1)*(x + 1)"
    assert proof.ok and "unsat" in to_text(proof.result)


def test_a_bad_call_is_told_to_the_model_and_the_turn_goes_on(llm_sym):
    llm_sym.server.reply(tool_calls=[{"name": "shell", "arguments": {"cmd": "rm -rf /"}}], when=tool_results(0))
    llm_sym.server.reply(tool_calls=[{"name": "math", "arguments": {"operation": "factor", "expr": "x", "x": 1}}],
                         when=tool_results(1))
    llm_sym.server.reply("Sorry.", when=tool_results(2))
    r = llm_sym("Do something.")
    assert [c.status for c in r.calls] == ["bad call", "bad call"]
    told = [m["content"] for m in llm_sym.server.chats[-1].messages if m.get("role") == "tool"]
    assert "no tool 'shell'" in told[0] and "'x'" in told[1]


def test_the_step_limit_ends_a_turn_that_never_answers(llm_sym):
    assert llm_sym("/set agent.max_steps 2").ok
    llm_sym.server.reply(tool_calls=[{"name": "listing", "arguments": {}}])
    r = llm_sym("List everything forever.")
    assert len(r.calls) == 2 and r.reply == ""
    assert len([c for c in llm_sym.server.chats if c.body.get("tools")]) == 2


def test_a_model_with_no_tool_calling_sorts_the_sentences_from_the_menu(llm_sym, asked):
    llm_sym.server.no_tools = True
    llm_sym.server.reply('{"1": "tell", "2": "tell", "3": "ask"}', when="Its sentences:")
    llm_sym.server.reply("Tweety is a bird.", when="sym ran:")
    r = llm_sym(TURN)
    assert r.style == "route" and r.invalid == 0
    assert [c.line for c in r.calls] == ["/tell Penguins are birds. Tweety is a penguin.",     # one /tell: "it" reads on
                                         "/ask Is Tweety a bird? --no-fallback"]
    assert r.calls[1].verdict == "true" and r.reply == "Tweety is a bird."
    menu = [c for c in llm_sym.server.chats if c.format][0].format
    assert list(menu["properties"]) == ["1", "2", "3"]         # numbered slots: no sentence is copied back
    assert menu["properties"]["3"]["enum"] == ["tell", "ask", "prove", "math", "search", "none"]
    llm_sym.server.clear()
    llm_sym.server.reply('{"1": "none"}', when="Its sentences:")
    again = llm_sym("Hello there.")
    assert again.calls == [] and again.reply == ""
    assert not any(c.body.get("tools") for c in llm_sym.server.chats)       # remembered: no tools tried


def test_the_menu_writes_math_from_an_operation_enum_and_an_expression(routed):
    routed.server.reply('{"1": "math"}', when="Its sentences:")
    routed.server.reply('{"operation": "factor", "expression": "x**2 - 1"}', when=lambda r: "sympy" in r.system)
    routed.server.reply("It is (x - 1)(x + 1).", when="sym ran:")
    r = routed("Factor x**2 - 1.")
    assert [c.line for c in r.calls] == ["/math factor x**2 - 1"] and to_text(r.calls[0].result) == "(x - 1)*(x + 1)"


def test_a_menu_pick_outside_the_enum_is_repaired_never_run(routed_auto):
    routed_auto.server.reply('{"1": "none"}', when="must be one of")
    routed_auto.server.reply('{"1": "delete everything"}', when="Its sentences:")
    r = routed_auto("Bob is kind.")
    assert texts(routed_auto.shell.memory) == set() and r.calls == [] and r.invalid == 1


def test_with_no_model_a_statement_and_a_question_are_read_offline(sym):
    sym.shell.ctx.settings.ollama_host = "http://127.0.0.1:9"        # nothing listens there
    sym.shell.ctx.settings.llm_retries = 0
    r = sym(TURN)
    shown = to_text(r)
    assert r.ok and r.style == "offline" and shown.startswith("offline: no model answers")
    assert "bird(X) :- penguin(X)." in texts(sym.shell.memory)       # typed by the user: no approval
    assert r.calls[-1].line == "/ask --no-fallback Is Tweety a bird?" and r.calls[-1].verdict == "true"
    r = sym("Bob sits between Al and Sue.")
    assert not r.ok and "cannot reach the Ollama server" in shown_of(r)


def shown_of(r) -> str:
    return to_text(r)


def test_a_recorded_conversation_replays_offline(ollama_server, sym_home):
    shell = open_shell(MemoryOptions(persistent=False), record=True)
    shell.ctx.settings.ollama_host = ollama_server.url
    shell.ctx.approver = lambda line: True
    script_tweety(ollama_server)
    try:
        r = shell.execute(TURN)[1]
        assert r.ok and len(r.calls) == 2
        path = shell.ctx.session.path
    finally:
        shell.close()
    ollama_server.stop()
    rec = read_session(path)
    notes = [e for e in rec.events if e["t"] == "note" and e.get("kind") == "approval"]
    assert [(n["line"], n["allowed"], n["by"]) for n in notes] == \
        [("/tell Penguins are birds. Tweety is a penguin.", True, "user")]
    out, err = io.StringIO(), io.StringIO()
    report = replay(rec, offline=True, verify=True, out=out, err=err)
    assert report.commands == 1 and report.differences == [], report.differences


def test_the_same_conversation_through_an_openai_server(openai_server, sym):
    sym.shell.ctx.settings.backend, sym.shell.ctx.settings.base_url = "openai", openai_server.url
    sym.shell.ctx.approver = lambda line: True
    script_tweety(openai_server)
    r = sym(TURN)
    assert [c.status for c in r.calls] == ["approved", "ran"] and r.calls[1].verdict == "true"
    assert r.reply == "Yes, Tweety is a bird."
    last = openai_server.chats[-1].body["messages"]
    assert any(m.get("role") == "tool" and m.get("tool_call_id") for m in last)


@pytest.fixture
def openai_server():
    from tests.openai_server import OpenAIServer

    with OpenAIServer() as server:
        yield server


def test_a_call_written_as_json_text_runs_and_its_result_comes_back_as_text(llm_sym):
    """A server that ignores `tools` (or a model without a tool template) may write the call."""
    assert llm_sym("/tell Penguins are birds. Tweety is a penguin.").ok
    llm_sym.server.reply("It is.", when="sym ran:")
    llm_sym.server.reply('<tool_call>\n{"name": "ask", "arguments": {"question": "Is Tweety a bird?"}}\n</tool_call>',
                         when="Is Tweety a bird?")
    r = llm_sym("Is Tweety a bird?")
    assert [c.line for c in r.calls] == ["/ask Is Tweety a bird? --no-fallback"] and r.reply == "It is."
    assert "sym ran:\n/ask Is Tweety a bird? --no-fallback\n→ " in llm_sym.server.chats[-1].last_user


@pytest.mark.parametrize("text", ["Yes.", '{"name": "rm", "arguments": {}}', 'Sure: {"name": "ask"}',
                                  '{"name": "ask", "arguments": "Is it?"}', "[1, 2]"])
def test_text_that_is_not_wholly_a_call_of_an_offered_tool_is_an_answer(text):
    from sym.repl.agent.loop import written_calls

    assert written_calls(text, {"ask": None, "tell": None}) == []


@pytest.mark.parametrize("question", ["Is it true that Rock is a turtle?", "is it the case that rock is a turtle ?"])
def test_is_it_true_that_asks_the_statement_itself(sym, question):
    assert sym("/tell Rock is a turtle.").ok
    assert sym(f"/ask --no-fallback {question}").status == "true"
