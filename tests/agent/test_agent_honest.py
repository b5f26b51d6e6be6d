"""The agent is honest with a small model (issue 53): a /prove it calls decides only when two
readings agree, a proof resting on facts no premise states is reported unverified (and the
closing call is told so), and a /tell keeps what was read, asking approval for exactly that."""

from __future__ import annotations

import json

from sym.repl.render import to_text
from tests.agent.test_agent import tool_results
from tests.conftest import texts
from tests.prove.test_prove_grounded import QUESTION, VACUOUS


def test_a_vacuous_proof_is_unverified_and_the_closing_call_is_told_so(llm_sym):
    llm_sym.server.reply(json.dumps(VACUOUS), when=lambda r: r.format is not None and not r.body.get("tools"))
    llm_sym.server.reply(tool_calls=[{"name": "prove", "arguments": {"question": QUESTION}}], when=tool_results(0))
    llm_sym.server.reply("True: it is proved.", when=tool_results(1))
    r = llm_sym(QUESTION)
    [call] = r.calls
    assert call.line == f"/prove --samples 2 {QUESTION}"          # two readings, or no decision
    programs = [c for c in llm_sym.server.chats if c.format is not None and not c.body.get("tools")]
    assert len(programs) == 2 and programs[0].options["seed"] != programs[1].options["seed"]
    shown = to_text(r)
    assert "✓" not in shown and f"→ {call.line} — unverified: the program assumed is_timeless(max_design)" in shown
    told = [m["content"] for m in llm_sym.server.chats[-1].messages if m.get("role") == "tool"]
    assert told[0].startswith("unverified: the program assumed is_timeless(max_design)")   # the closing call hears it
    assert "model (unverified): True: it is proved." in shown.splitlines()
    assert shown.splitlines()[-1].startswith(f"warning: the model's reply gives an answer, but {call.line} proved "
                                             "nothing: unverified: the program assumed")


def test_a_tell_keeps_what_was_read_and_asks_approval_for_exactly_that(llm_sym):
    """Seen: "My neighbour has a cat called Tom. Every cat is a mammal." — the first sentence could
    not be read, and the approved, readable second one was dropped with it."""
    asked: list[str] = []
    llm_sym.shell.ctx.approver = lambda line: asked.append(line) or True
    llm_sym("/set llm.retries 0")
    story = "My neighbour has a cat called Tom. Every cat is a mammal."
    llm_sym.server.reply(tool_calls=[{"name": "tell", "arguments": {"text": story}}], when=tool_results(0))
    llm_sym.server.reply("Noted.", when=tool_results(1))
    # the model's reading of the first sentence never fits (the server's default reply, "ok")
    r = llm_sym(story)
    assert asked == [f"/tell {story}", "/tell Every cat is a mammal."]
    assert texts(llm_sym.shell.memory) == {"mammal(X) :- cat(X)."}
    first, kept = r.calls
    assert (first.status, kept.status) == ("approved", "approved") and not first.ok and kept.ok
    assert "not read: My neighbour has a cat called Tom." in kept.note
    shown = to_text(r)
    assert "→ /tell Every cat is a mammal. — stored 1 clause (approved)" in shown, shown
    assert "not read: My neighbour has a cat called Tom." in shown
    told = [m["content"] for m in llm_sym.server.chats[-1].messages if m.get("role") == "tool"]
    assert len(told) == 1 and "not read: My neighbour has a cat called Tom." in told[0]


def test_a_declined_part_stores_nothing(llm_sym):
    asked: list[str] = []
    llm_sym.shell.ctx.approver = lambda line: asked.append(line) or len(asked) == 1
    llm_sym("/set llm.retries 0")
    story = "My neighbour has a cat called Tom. Every cat is a mammal."
    llm_sym.server.reply(tool_calls=[{"name": "tell", "arguments": {"text": story}}], when=tool_results(0))
    llm_sym.server.reply("Nothing stored.", when=tool_results(1))
    r = llm_sym(story)
    assert asked == [f"/tell {story}", "/tell Every cat is a mammal."] and texts(llm_sym.shell.memory) == set()
    assert r.calls[-1].status == "declined" and "nothing changed in memory" in r.warnings[0]
