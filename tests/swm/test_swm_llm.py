"""/tell, /ask and chat: the fast path without a model, and the LLM paths through the real
`ollama` client against the Ollama-protocol test server (messy replies, faults)."""

from __future__ import annotations

import json

import pytest

from sym.repl.results import Failure
from tests.conftest import texts
from tests.ollama_server import unused_url
from tests.verifier import verifier, verifying

# -- fast path: no model at all ----------------------------------------------------------

def test_tell_fast_path_needs_no_model(sym):
    sym.shell.ctx.settings.ollama_host = unused_url()   # any call would fail loudly
    r = sym("/tell Bob is big. If something is big then it is red. The cat does not eat the mouse.")
    assert r.ok, r
    assert [s.path for s in r.sentences] == ["fast", "fast", "fast"]
    assert {"big(bob).", "red(X) :- big(X).", "~eats(cat, mouse)."} <= texts(sym.shell.memory)
    item = next(it for it in sym.shell.memory.items.values() if it.text == "big(bob).")
    assert item.nl == "Bob is big." and item.source == "tell"


def test_ask_three_valued_open_world_with_justification(sym):
    sym("/tell Bob is big. All big things are red. All red things are not green.")
    yes = sym("/ask Bob is red.").outcome
    assert yes.answer == "true" and yes.verified
    assert any("big(bob)" in s and "given" in s for s in yes.steps)
    assert any(s.startswith("red(bob)") for s in yes.steps)
    no = sym("/ask Bob is green.").outcome
    assert no.answer == "false" and any(s.startswith("~green(bob)") for s in no.steps)
    unknown = sym("/ask --no-fallback --open Bob is kind.").outcome
    assert unknown.answer == "unknown"


def test_ask_relation_and_values(sym):
    sym("/tell James is the son of Frances. Natasha is the daughter of James. "
        "If B is the son of A, and C is the daughter of B, then C is the granddaughter of A.")
    r = sym("/ask How is Natasha related to Frances?").outcome
    assert r.answer == "Natasha is the granddaughter of Frances."
    sym("/tell Box 1 contains the apple and the pen. Move the apple from Box 1 to Box 2. Put the cup into Box 1.")
    v = sym("/ask What is contained in Box 1?").outcome
    assert set(v.answer.split(", ")) == {"the pen", "the cup"}


def test_state_updates_replace_facts(sym):
    sym("/tell Box 0 contains the glass. Box 1 contains the key.")
    r = sym("/tell Move the contents of Box 0 to Box 1.")
    assert r.sentences[0].path == "state"
    assert [it.text for it in r.sentences[0].removed] == ["contains(box_0, glass)."]
    assert texts(sym.shell.memory) >= {"contains(box_1, glass).", "contains(box_1, key)."}
    assert "contains(box_0, glass)." not in texts(sym.shell.memory)


def test_bad_ask_options_are_one_line_errors(sym):
    for line in ("/ask --mode fancy Bob is big.", "/ask --max-steps x Bob is big.", "/ask", "/tell"):
        r = sym(line)
        assert isinstance(r, Failure) and "\n" not in r.message


# -- LLM paths ---------------------------------------------------------------------------

def test_tell_unknown_sentence_goes_to_the_llm_with_the_schema(llm_sym):
    llm_sym("/tell Bob is big.")
    reply = ('Sure! Here is the JSON:\n```json\n{"statements": [{"kind": "Fact", "predicate": "other", '
             '"new_predicate": "Plays", "args": ["Bob", "jazz"], "negated": false}]}\n```')
    llm_sym.server.reply(reply, when="jazz")
    verifier(llm_sym.server)
    r = llm_sym("/tell Bob adores jazz and plays it every night.")
    assert r.ok, r
    assert r.sentences[0].path == "llm" and r.llm_calls == 3     # the reading, its check, the reversed one's
    assert "plays(bob, jazz)." in texts(llm_sym.shell.memory)
    sent, check, control = llm_sym.server.chats[-3:]
    assert "Reading: Bob plays jazz." in check.last_user and "Sentence: Bob adores jazz" in check.last_user
    assert "Reading: Jazz plays Bob." in control.last_user          # a yes to this too would say nothing
    assert check.format["properties"]["answer"]["enum"] == ["yes", "no"]
    assert "big(A): A is big" in sent.last_user        # the current schema went into the prompt
    props = sent.format["properties"]["statements"]["items"]["properties"]
    assert props["predicate"]["enum"] == ["big", "other"]          # the model chooses, it does not write
    assert {"bob", "jazz", "X"} <= set(props["args"]["items"]["enum"])
    item = next(it for it in llm_sym.shell.memory.items.values() if it.text == "plays(bob, jazz).")
    assert item.source == "llm:tell" and item.nl.startswith("Bob adores jazz")


def test_tell_near_miss_predicate_names_map_onto_known_ones(llm_sym):
    llm_sym("/fact located_in(paris, france).")
    verifier(llm_sym.server)
    llm_sym.server.reply(json={"statements": [{"kind": "fact", "predicate": "Located_In", "args": ["Rome", "Italy"],
                                               "negated": False}]})
    llm_sym("/tell Rome is located within Italy, as everyone knows.")
    assert "located_in(rome, italy)." in texts(llm_sym.shell.memory)


def test_tell_repairs_a_reply_outside_the_choices(llm_sym):
    bad = {"statements": [{"kind": "fact", "predicate": "owns", "args": ["alice", "car"], "negated": False}]}
    good = {"statements": [{"kind": "fact", "predicate": "other", "new_predicate": "owns", "args": ["alice", "car"],
                            "negated": False}]}
    llm_sym.server.reply(json.dumps(bad), json.dumps(good))
    verifier(llm_sym.server)
    r = llm_sym("/tell Every morning, Alice happens to own a car.")      # general: the statement menu
    assert r.ok and r.llm_calls == 4                                      # reply, repair, check, control
    assert "owns(alice, car)." in texts(llm_sym.shell.memory)
    repair = llm_sym.server.chats[-3]
    assert "predicate 'owns' is not in the list" in repair.last_user     # the checker's own words go back
    assert repair.options.get("temperature", 0) > 0


def test_a_story_is_restated_in_the_controlled_language_and_read_back_by_the_grammar(llm_sym):
    # no two-place relations in memory yet: the model restates, the grammar reads (pairs need a menu)
    llm_sym.server.reply("Here you go:\nZed is the son of Bob.\nthe moon is made of cheese\n",      # nothing usable
                         "1. Francisco is the son of James.\n2. Natasha is the daughter of Francisco.\n"
                         "3. Natasha is the daughter of Zed.\n4. James drives.")
    verifier(llm_sym.server)
    r = llm_sym("/tell James took his son Francisco hunting. Natasha, Francisco's daughter, stayed home.")
    assert r.ok and r.llm_calls == 6, r      # the restatement, its repair, a check per sentence and its control
    stored = texts(llm_sym.shell.memory)
    assert {"son_of(francisco, james).", "daughter_of(natasha, francisco)."} <= stored
    assert not any("zed" in t for t in stored) and "drives(james)." in stored   # names from the story only
    first, repair = [c for c in llm_sym.server.chats if not verifying(c)][-2:]
    assert "Relations: (any)" in first.last_user and "Story: James took" in first.last_user
    assert "no line is a fact" in repair.last_user and repair.options.get("temperature", 0) > 0


def test_tell_reports_a_sentence_the_model_cannot_translate(llm_sym):
    llm_sym.server.reply('{"statements": [{"kind": "fact", "predicate": "(((", "args": [], "negated": false}]}')
    r = llm_sym("/tell Something vague happened once.")
    assert isinstance(r, Failure) and r.exit_code == 1
    assert r.sentences[0].path == "none" and r.sentences[0].problem
    assert not llm_sym.shell.memory.items


@pytest.mark.parametrize("fault", ["server", "no-model", "garbage", "context", "truncated"])
def test_a_failed_call_leaves_memory_and_session_unchanged(llm_sym, fault):
    llm_sym("/tell Bob is big.")
    before = texts(llm_sym.shell.memory)
    llm_sym.server.fail(fault, times=None)
    r = llm_sym("/tell Bob is big. Bob quietly adores jazz music.")
    assert isinstance(r, Failure) and "\n" not in r.message
    assert texts(llm_sym.shell.memory) == before          # the fast-path sentence was not written either


def test_unreachable_server_is_one_clear_line(sym):
    sym.shell.ctx.settings.ollama_host = unused_url()
    sym.shell.ctx.settings.llm_retries = 0
    r = sym("/tell The weather seems rather gloomy today.")
    assert isinstance(r, Failure) and r.exit_code == 3
    assert not sym.shell.memory.items


def test_ask_soft_rule_implemented_by_the_llm_with_provenance(llm_sym):
    extraction = {"statements": [{"kind": "soft", "predicate": "other", "new_predicate": "happy", "args": ["X"],
                                  "negated": False, "if": [{"predicate": "other", "new_predicate": "kind",
                                                            "args": ["X"], "negated": False}]}]}
    llm_sym.server.reply(json=extraction, when="usually", times=1)
    verifier(llm_sym.server)
    r = llm_sym("/tell Kind people are usually happy.")
    assert r.sentences[0].path == "soft"
    rule = r.sentences[0].items[0]
    assert rule.soft and "happy(X) :- kind(X)." == rule.text
    llm_sym("/tell Anne is kind. Fiona is kind.")
    llm_sym.server.reply(json={"applies": True, "facts": ["Happy(anne)"]}, when="anne")
    llm_sym.server.reply('no JSON here, {"applies": false}', when="fiona")
    out = llm_sym("/ask Anne is happy.").outcome
    assert out.answer == "true" and out.verified and out.rounds == 1
    assert out.llm_calls == 2                       # one per soft-rule instance, none for the formal parts
    fact = next(it for it in llm_sym.shell.memory.items.values() if it.text == "happy(anne).")
    assert fact.source.startswith("llm:ask")
    assert "happy(fiona)." not in texts(llm_sym.shell.memory)
    # the engine never fires a soft rule on its own
    assert llm_sym("?- happy(fiona).").answer.truth == "false"


def test_formal_rules_make_zero_llm_calls(llm_sym):
    llm_sym("/tell Dave is big. If something is big then it is strong.")
    out = llm_sym("/ask Dave is strong.").outcome
    assert out.answer == "true" and out.llm_calls == 0
    assert not llm_sym.server.chats


def test_ask_question_parsed_by_the_llm(llm_sym):
    llm_sym("/tell Bob is big. If something is big then it is heavy.")
    llm_sym.server.reply('```\n{"kind": "Truth", "predicate": "Heavy", "args": ["Bob"], "negated": false}\n```',
                         when="weigh")
    out = llm_sym("/ask Does Bob weigh a lot, would you say?").outcome
    assert out.goal == "heavy(bob)" and out.answer == "true"


def test_unsolved_question_falls_back_to_an_unverified_answer(llm_sym):
    llm_sym.server.reply("Paris, most likely.", when=lambda r: r.format is None)
    llm_sym.server.reply(json={"kind": "values", "predicate": "other", "new_predicate": "capital_of",
                               "args": ["X", "france"], "negated": False}, when="capital")
    out = llm_sym("/ask What is the capital of France?").outcome
    assert not out.verified and out.answer == "Paris, most likely."
    from sym.repl.render import to_text

    assert "unverified" in to_text(llm_sym("/ask What is the capital of France?"))


def test_paper_mode_lets_the_llm_implement_every_rule_and_leaves_memory_alone(llm_sym):
    llm_sym("/tell Dave is big. If something is big then it is strong.")
    before = texts(llm_sym.shell.memory)
    llm_sym.server.reply(json={"applies": True, "facts": ["strong(dave)"]}, when="dave")
    out = llm_sym("/ask --mode paper Dave is strong.").outcome
    assert out.answer == "true" and out.mode == "paper" and out.llm_calls == 1
    assert texts(llm_sym.shell.memory) == before


def test_chat_cites_memory_items(llm_sym):
    r = llm_sym("/fact likes(bob, jazz).")
    fid = r.items[0].id
    llm_sym.server.reply(f"Bob likes jazz [{fid}], and nothing else is known [fzzzzzzzzzzzz].", when="Bob")
    llm_sym("/set agent.style plain")        # the model alone, memory items in its prompt
    out = llm_sym("What does Bob like?")
    assert out.text.startswith("Bob likes jazz") and out.cited == [fid]
    assert f"[{fid}]" in llm_sym.server.chats[-1].system     # retrieved items went into the prompt
    assert llm_sym.server.chats[-1].stream


def test_tell_from_a_file_and_from_a_loaded_document(sym, tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# Animals\n\nThe cat is young. The dog is big.\n\nIf something is big then it is strong.\n")
    r = sym(f"/tell --from {notes}")
    assert r.ok, r
    assert {"young(cat).", "big(dog).", "strong(X) :- big(X)."} <= texts(sym.shell.memory)
    assert {it.source for it in sym.shell.memory.items.values()} == {"tell:notes.md"}
    assert isinstance(sym("/tell --from nowhere.txt"), Failure)


def test_tell_from_a_loaded_document_in_a_workspace(tmp_path):
    from sym.repl.dispatcher import MemoryOptions, open_shell

    doc = tmp_path / "story.txt"
    doc.write_text("Anne is kind. Anne is smart.\n")
    shell = open_shell(MemoryOptions("docs"), record=False)
    try:
        assert shell.execute(f"/load {doc}")[1].ok
        r = shell.execute("/tell --from story.txt")[1]
        assert r.ok, r
        assert {"kind(anne).", "smart(anne)."} <= texts(shell.memory)
    finally:
        shell.close()


def test_a_policy_can_pick_the_ask_mode(llm_sym):
    llm_sym("/tell Dave is big. If something is big then it is strong.")
    r = llm_sym("/policy add {name: paper-asks, target: reasoner, filter: {command: /ask}, attributes: {mode: paper}}")
    assert r.ok, r
    llm_sym.server.reply(json={"applies": True, "facts": ["strong(dave)"]}, when="dave")
    out = llm_sym("/ask Dave is strong.").outcome
    assert out.mode == "paper" and out.llm_calls == 1
    assert llm_sym("/ask --mode hybrid Dave is strong.").outcome.mode == "hybrid"   # the user's flag wins


def test_chat_history_belongs_to_its_shell(llm_sym):
    llm_sym.server.reply("Hello.")
    llm_sym("/chat hi there")
    assert len(llm_sym.shell.ctx.chat_history) == 2
    from sym.repl.dispatcher import Shell

    assert Shell(plugins=False).ctx.chat_history == []


def test_tell_from_needs_the_flag_spelt_out(sym):
    sym.shell.ctx.settings.ollama_host = unused_url()
    r = sym("/tell --fromage is tasty")      # a sentence (for the model), not --from "age is tasty"
    assert isinstance(r, Failure) and "document" not in r.message and r.exit_code == 3


def test_a_session_with_tell_ask_and_chat_replays_offline_equal(ollama_server, sym_home, sym_exe):
    """The reasoner's model calls (extraction, parallel soft-rule instances, chat) are recorded
    and `sym replay --offline --verify` reproduces the session with no server."""
    import os
    import subprocess

    from sym.repl.dispatcher import MemoryOptions, open_shell

    ollama_server.reply(json={"statements": [{"kind": "soft", "predicate": "other", "new_predicate": "happy",
                                              "args": ["X"], "negated": False,
                                              "if": [{"predicate": "other", "new_predicate": "kind", "args": ["X"],
                                                      "negated": False}]}]}, when="usually", times=1)
    verifier(ollama_server)
    ollama_server.reply(json={"applies": True, "facts": ["happy(anne)"]}, when="anne")
    ollama_server.reply(json={"applies": False, "facts": []}, when="fiona")
    ollama_server.reply("Anne is happy.", when="Who")
    shell = open_shell(MemoryOptions("replayed"), record=True)
    shell.ctx.settings.ollama_host = ollama_server.url
    try:
        for line in ["/tell Kind people are usually happy.", "/tell Anne is kind. Fiona is kind.",
                     "/ask Anne is happy.", "/ask Fiona is happy.", "Who is happy?"]:
            assert shell.execute(line)[1].ok, line
        path = shell.ctx.session.path
    finally:
        shell.close()
    ollama_server.stop()
    proc = subprocess.run([*sym_exe, "replay", str(path), "--offline", "--verify"], capture_output=True, text=True,
                          env={**os.environ, "SYM_HOME": str(sym_home)}, timeout=180)
    assert proc.returncode == 0, proc.stderr
    assert "replayed 5 commands" in proc.stderr and "equal" in proc.stderr
