"""After a change the model proposed is declined, refused or fails, the turn says that nothing
changed (the model's "Forgotten." is not what happened), each call's status is said once; a call
repeated word for word in one turn is not run again and the turn ends there."""

from __future__ import annotations

from sym.repl.render import to_text
from tests.agent.test_agent import agent_chats, tool_results
from tests.conftest import texts


def script_forget(server) -> None:
    server.reply(tool_calls=[{"name": "forget", "arguments": {"items": "dog(rex)."}}], when=tool_results(0))
    server.reply("Forgotten.", when=tool_results(1))


def test_a_declined_change_says_nothing_changed_and_declined_once(llm_sym):
    assert llm_sym("dog(rex).").ok
    llm_sym.shell.ctx.approver = lambda line: False
    script_forget(llm_sym.server)
    r = llm_sym("Forget that Rex is a dog.")
    assert texts(llm_sym.shell.memory) == {"dog(rex)."}
    shown = to_text(r).splitlines()
    assert "→ /forget dog(rex). — declined" in shown                 # was "declined (declined)"
    assert "model (unverified): Forgotten." in shown
    assert "warning: nothing changed in memory: /forget dog(rex). was declined" in shown
    assert r.warnings == ["nothing changed in memory: /forget dog(rex). was declined"]


def test_a_change_that_fails_says_nothing_changed(llm_sym):
    llm_sym.shell.ctx.approver = lambda line: True
    script_forget(llm_sym.server)                     # nothing to forget: /forget fails
    r = llm_sym("Forget that Rex is a dog.")
    assert r.calls[0].status == "approved" and not r.calls[0].ok
    assert r.warnings == ["nothing changed in memory: /forget dog(rex). failed"]
    assert to_text(r).splitlines()[-1] == "warning: nothing changed in memory: /forget dog(rex). failed"


def test_a_refused_change_with_no_one_to_ask_says_nothing_changed(llm_sym):
    script_forget(llm_sym.server)
    r = llm_sym("Forget that Rex is a dog.")
    assert r.calls[0].status == "refused"
    assert r.warnings == ["nothing changed in memory: /forget dog(rex). was refused"]


def test_a_call_repeated_word_for_word_is_not_run_again_and_the_turn_ends(llm_sym):
    llm_sym.shell.ctx.approver = lambda line: True
    ask = {"name": "ask", "arguments": {"question": "Is Rex a dog?"}}
    llm_sym.server.reply(tool_calls=[{"name": "fact", "arguments": {"fact": "dog(rex)."}}], when=tool_results(0))
    llm_sym.server.reply(tool_calls=[ask], when=tool_results(1))
    llm_sym.server.reply(tool_calls=[ask], when=tool_results(2))
    llm_sym.server.reply("Yes.", when=tool_results(3))
    r = llm_sym("Rex is a dog. Is Rex a dog?")
    assert [c.status for c in r.calls] == ["approved", "ran", "repeated"]
    assert r.calls[2].result is None and r.reply == ""
    assert len(agent_chats(llm_sym.server)) == 3              # no fourth model call after the repeat
    shown = to_text(r).splitlines()
    assert "→ /ask Is Rex a dog? --no-fallback — repeated word for word: not run again, and the turn ends here" in shown
    assert r.warnings == []
