"""`/set tell.model rewrite`: a sentence the grammar refuses is rewritten by the model in the
controlled language, read by the grammar, checked by an independent yes/no call and approved,
then stored beside the original — through the real `ollama` client against the scripted
Ollama-protocol server. Anything else (an invented word, a rewrite the grammar cannot read, a
check that says different, a failed call) is refused with the reason and changes nothing."""

from __future__ import annotations

import json

import pytest

from sym.repl.render import to_text
from tests.conftest import fails, state, texts
from tests.ollama_server import unused_url

SAID = "Bob's tall, I'd say."          # a hedge: outside the controlled language (test_the_grammar_refuses_them)


def test_the_grammar_refuses_them():
    """What these tests send to the model is refused by the grammar itself."""
    from sym.core.reason.swm import english

    for sentence in (SAID, "Al's short, I'd say.", "Cats that purr are happy, all of them."):
        assert english.translate(sentence) is None, sentence


def rewriting(r) -> bool:
    """A request for a rewrite (or its repair)."""
    return r.system.startswith("You rewrite one English sentence")


def checking(r) -> bool:
    """A request of the independent check."""
    return r.system.startswith("You compare two English sentences")


def script(server, rewrite: str = "Bob is tall.", answer: str = "same", verdict: str = "rewritten") -> None:
    server.reply(json.dumps({"verdict": verdict, "rewrite": rewrite}), when=rewriting)
    server.reply(json.dumps({"answer": answer}), when=checking)


@pytest.fixture
def rw(llm_sym):
    """A shell that rewrites refused sentences, with every model change approved by the setting."""
    assert llm_sym("/set tell.model rewrite").ok
    assert llm_sym("/set agent.approve auto").ok
    return llm_sym


def test_an_accepted_rewrite_is_shown_beside_the_sentence_and_stored(rw):
    script(rw.server)
    r = rw(f"/tell Al is short. {SAID}")
    assert r.ok, to_text(r)
    assert [s.path for s in r.sentences] == ["fast", "rewrite"]
    assert texts(rw.shell.memory) == {"short(al).", "tall(bob)."}
    shown = to_text(r).splitlines()
    assert f"{SAID}  →  Bob is tall.  [the model's rewrite, read by the grammar]" in shown
    assert r.llm_calls == 2 and r.to_dict()["sentences"][1]["rewrite"] == "Bob is tall."
    item = next(it for it in rw.shell.memory.items.values() if it.text == "tall(bob).")
    assert item.nl == SAID and item.source == "llm:tell"
    asked, checked = rw.server.chats
    assert asked.format["properties"]["verdict"]["enum"] == ["rewritten", "no faithful reading"]
    assert asked.last_user.startswith(f"Sentence: {SAID}")
    # the check is a call of its own: the two sentences only, an enum for the answer
    assert checked.format["properties"]["answer"]["enum"] == ["same", "different"]
    assert checked.last_user == f"A: {SAID}\nB: Bob is tall." and len(checked.messages) == 2
    assert rw("/ask Is Bob tall?").outcome.answer == "true"


def test_a_rule_is_checked_in_the_grammars_own_words(rw):
    script(rw.server, "Every cat that purrs is happy.")
    r = rw("/tell Cats that purr are happy, all of them.")
    assert r.ok, to_text(r)
    assert texts(rw.shell.memory) == {"happy(X) :- cat(X), purrs(X)."}
    checked = [c for c in rw.server.chats if checking(c)][0]
    assert checked.last_user.endswith("B: Every cat that purrs is happy.")      # plain English to judge
    assert "  read as: If X is a cat and X purrs then X is happy." in to_text(r).splitlines()


def test_a_rewrite_with_a_word_the_sentence_lacks_is_refused(rw):
    script(rw.server, "Bob is tall and Al is tall.")
    before = state(rw.shell)
    r = rw(f"/tell {SAID}")
    fails(r, "not understood", "'al'", "not in the sentence")
    assert state(rw.shell) == before
    assert all(rewriting(c) for c in rw.server.chats) and len(rw.server.chats) == 2   # one repair, no check
    repair = rw.server.chats[1]
    assert "'al'" in repair.text                      # the model was told exactly why


def test_a_rewrite_the_grammar_cannot_read_is_refused(rw):
    script(rw.server, "Tall Bob is.")
    r = rw(f"/tell {SAID}")
    fails(r, "the grammar cannot read 'Tall Bob is.'")
    assert texts(rw.shell.memory) == set()
    assert not any(checking(c) for c in rw.server.chats)


def test_a_rewrite_that_adds_a_negation_is_refused(rw):
    script(rw.server, "Bob is not tall.")
    fails(rw(f"/tell {SAID}"), "says not")
    assert texts(rw.shell.memory) == set()


def test_a_check_that_says_different_refuses_the_rewrite(rw):
    script(rw.server, answer="different")
    before = state(rw.shell)
    r = rw(f"/tell {SAID}")
    fails(r, "does not say the same")
    assert state(rw.shell) == before
    assert "✗ Bob's tall, I'd say.  (the check says 'Bob is tall.' does not say the same" in to_text(r)


def test_no_faithful_reading_is_a_refusal_with_that_reason(rw):
    script(rw.server, "", verdict="no faithful reading")
    fails(rw(f"/tell {SAID}"), "no faithful reading")
    assert texts(rw.shell.memory) == set() and len(rw.server.chats) == 1


@pytest.mark.parametrize("sentence, word", [("Al is tall, Bob thinks.", "'thinks' reports"),
                                            ("Bob was tall.", "'was' changes"), ("Some dogs bark.", "'some'")])
def test_what_a_rewrite_would_have_to_drop_is_refused_without_a_call(rw, sentence, word):
    script(rw.server, "Al is tall.")        # what a model would say, and a weak check agree to
    fails(rw(f"/tell {sentence}"), word)
    assert texts(rw.shell.memory) == set() and rw.server.chats == []


def test_malformed_replies_leave_memory_as_it_was(rw):
    rw.server.reply("Sure! Bob is tall.", when=rewriting)
    before = state(rw.shell)
    r = rw(f"/tell Al is short. {SAID}")
    fails(r, "rewrite was refused", "no JSON")
    assert state(rw.shell) == before


def test_a_timed_out_model_leaves_memory_as_it_was(rw):
    rw.shell.ctx.settings.llm_timeout = 0.3
    rw.shell.ctx.settings.llm_retries = 0
    rw.server.fail("slow", delay=2, times=None)
    before = state(rw.shell)
    r = rw(f"/tell {SAID} Al's short, I'd say.")
    message = fails(r, "could not rewrite")
    assert "did not answer" in message
    assert state(rw.shell) == before
    assert len(rw.server.chats) == 2        # the timed-out try and its retry; the next sentence is not tried
    assert [s.problem.startswith("the model could not rewrite it") for s in r.sentences] == [True, True]


def test_with_no_model_the_refusal_is_todays_and_one_line_more(sym):
    sym.shell.ctx.settings.ollama_host = unused_url()
    today = sym(f"/tell {SAID}")
    assert sym("/set tell.model rewrite").ok
    r = sym(f"/tell {SAID}")
    assert (r.message, r.hint, r.exit_code) == (today.message, today.hint, today.exit_code) == (
        today.message, today.hint, 3)
    assert to_text(r).splitlines()[:-1] == to_text(today).splitlines()
    assert to_text(r).splitlines()[-1].startswith("  note: a model could rewrite it in the controlled language")
    assert r.to_dict()["note"] and texts(sym.shell.memory) == set()


def test_partial_keeps_what_was_read(rw):
    script(rw.server, answer="different")
    r = rw(f"/tell --partial Al is short. {SAID}")
    assert r.ok and texts(rw.shell.memory) == {"short(al)."}
    assert r.sentences[1].problem.startswith("the check says")


# -- approval: the same as any change a model proposes (agent.approve) ---------------------------

def test_the_user_approves_the_rewrite_as_the_line_it_stands_for(llm_sym):
    asked: list[str] = []
    llm_sym.shell.ctx.approver = lambda line: asked.append(line) or True
    assert llm_sym("/set tell.model rewrite").ok
    script(llm_sym.server)
    assert llm_sym(f"/tell Al is short. {SAID}").ok
    assert asked == ["/tell Bob is tall."]               # only the model's part is asked about
    assert texts(llm_sym.shell.memory) == {"short(al).", "tall(bob)."}


def test_a_declined_rewrite_stores_nothing(llm_sym):
    llm_sym.shell.ctx.approver = lambda line: False
    assert llm_sym("/set tell.model rewrite").ok
    script(llm_sym.server)
    fails(llm_sym(f"/tell Al is short. {SAID}"), "declined")
    assert texts(llm_sym.shell.memory) == set()


def test_with_no_one_to_approve_the_rewrite_is_refused(llm_sym):
    assert llm_sym("/set tell.model rewrite").ok
    script(llm_sym.server)
    fails(llm_sym(f"/tell {SAID}"), "no one is here", "/set agent.approve auto")
    assert llm_sym("/set agent.approve refuse").ok
    fails(llm_sym(f"/tell {SAID}"), "agent.approve is refuse")
    assert texts(llm_sym.shell.memory) == set()


def test_grammar_read_sentences_need_no_model_and_no_approval(llm_sym):
    assert llm_sym("/set tell.model rewrite").ok
    llm_sym.shell.ctx.settings.ollama_host = unused_url()
    assert llm_sym("/tell Bob is tall. Every cat is an animal.").ok
    assert texts(llm_sym.shell.memory) == {"tall(bob).", "animal(X) :- cat(X)."}


# -- what the front-ends print -----------------------------------------------------------------

def batch(tmp_path, server, lines: list[str], *, json_lines: bool = False) -> tuple[int, str, str]:
    import io

    from sym.repl.batch import run_batch

    script_file = tmp_path / "rewrite.sym"
    script_file.write_text("\n".join([f"/set ollama_host {server.url}", "/set tell.model rewrite", *lines]) + "\n")
    out, err = io.StringIO(), io.StringIO()
    code = run_batch(str(script_file), json_lines=json_lines, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_batch_prints_the_rewrite_beside_the_sentence(ollama_server, tmp_path):
    script(ollama_server)
    code, out, err = batch(tmp_path, ollama_server, ["/set agent.approve auto", f"/tell {SAID}"])
    assert code == 0, err
    assert f"{SAID}  →  Bob is tall.  [the model's rewrite, read by the grammar]" in out.splitlines()
    assert "  + fact" in out and "tall(bob)." in out


def test_batch_json_carries_the_rewrite_and_a_refusal_exits_1(ollama_server, tmp_path):
    script(ollama_server)
    code, out, _ = batch(tmp_path, ollama_server, ["/set agent.approve auto", f"/tell {SAID}"], json_lines=True)
    told = [json.loads(line) for line in out.splitlines() if '"told"' in line][-1]
    assert code == 0 and told["sentences"][0]["rewrite"] == "Bob is tall."
    assert told["sentences"][0]["path"] == "rewrite"
    code, out, _ = batch(tmp_path, ollama_server, [f"/tell {SAID}"], json_lines=True)    # nobody to approve
    assert code == 1 and "no one is here to give it" in out


def test_plain_asks_y_or_n_and_shows_the_rewrite(shell, ollama_server):
    import io

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from sym.repl.prompt import run_prompt

    shell.ctx.settings.ollama_host = ollama_server.url
    shell.ctx.settings.tell_model = "rewrite"
    ollama_server.reply(json.dumps({"verdict": "rewritten", "rewrite": "Al is short."}),
                        when=lambda r: rewriting(r) and "Al's short" in r.text)
    script(ollama_server)
    out, err = io.StringIO(), io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(f"/tell {SAID}\ny\n/tell Al's short, I'd say.\nn\n\x04")
        code = run_prompt(shell=shell, input=pipe, output=DummyOutput(), out=out, err=err)
    shown = out.getvalue()
    assert code == 0, err.getvalue()
    assert "the model wants to change memory; it would run:\n  /tell Bob is tall.\n" in shown
    assert f"{SAID}  →  Bob is tall.  [the model's rewrite, read by the grammar]" in shown
    assert "the rewrite was declined" in shown + err.getvalue()
    assert texts(shell.memory) == {"tall(bob)."}


def test_the_chat_agents_tell_is_rewritten_and_approved_again(llm_sym):
    asked: list[str] = []
    llm_sym.shell.ctx.approver = lambda line: asked.append(line) or True
    assert llm_sym("/set tell.model rewrite").ok
    script(llm_sym.server)
    agent = lambda r: bool(r.body.get("tools"))      # noqa: E731
    told = lambda n: lambda r: agent(r) and sum(m.get("role") == "tool" for m in r.messages) == n  # noqa: E731
    llm_sym.server.reply(tool_calls=[{"name": "tell", "arguments": {"text": SAID}}], when=told(0))
    llm_sym.server.reply("Stored.", when=told(1))
    r = llm_sym(SAID)
    assert asked == [f"/tell {SAID}", "/tell Bob is tall."]       # the agent's call, then the rewrite
    assert texts(llm_sym.shell.memory) == {"tall(bob)."}
    assert r.calls[0].result.sentences[0].rewrite == "Bob is tall."
