"""The model chooses, sym writes: /tell and /ask through enum choices, with the mistakes small
models make (capitalised names, copied examples, replies outside the choices, repetition,
truncated JSON, the same wrong reply twice), honest failures, and the world setting."""

from __future__ import annotations

import json

from sym.repl.results import Failure
from tests.conftest import texts
from tests.ollama_server import unused_url
from tests.verifier import verifier


def fact(pred: str, *args: str, new: bool = True, negated: bool = False, kind: str = "fact", **more) -> dict:
    entry = {"kind": kind, "predicate": "other" if new else pred, "args": list(args), "negated": negated, **more}
    if new:
        entry["new_predicate"] = pred
    return entry


def said(*statements: dict) -> str:
    return json.dumps({"statements": list(statements)})


def test_capitalised_names_and_the_phrases_become_the_sentences_constants(llm_sym):
    verifier(llm_sym.server)
    llm_sym.server.reply(said(fact("Repaints", "Zorn", "The red barn")))
    r = llm_sym("/tell Zorn quietly repaints the red barn every spring.")
    assert r.ok, r
    assert "repaints(zorn, 'red barn')." in texts(llm_sym.shell.memory)
    offered = llm_sym.server.chats[-3].format["properties"]["statements"]["items"]["properties"]["args"]
    assert offered["items"]["enum"][:2] == ["zorn", "red barn"]


def test_copied_examples_are_refused_with_the_reason_and_repaired(llm_sym):
    copied_args = said(fact("mib_of", "quiv", "plon", new=False))
    copied_name = said(fact("blorks", "mira", "goats"))
    good = said(fact("feeds", "mira", "goats"))
    verifier(llm_sym.server)
    llm_sym.server.reply(copied_args, copied_name, good)
    r = llm_sym("/tell Every single morning, Mira feeds the goats by hand.")
    assert r.ok and r.llm_calls == 5                       # three replies, the check, the reversed reading's check
    assert texts(llm_sym.shell.memory) == {"feeds(mira, goats)."}
    repairs = [c.last_user for c in llm_sym.server.chats[1:3]]
    assert "'quiv' is not one of the things you may choose" in repairs[0]
    assert "'blorks' comes from the examples" in repairs[1]
    assert "plon" not in llm_sym.shell.memory.schema.objects


def test_a_reply_outside_the_enums_is_caught_by_sym_not_the_server(llm_sym):
    llm_sym("/tell Mira is tall.")
    llm_sym.server.reply(said(fact("tall", "mira", new=False, kind="opinion")),
                         said(fact("tall", "mira", "mira", new=False)),
                         said(fact("tall", "mira", new=False, negated=True)))
    verifier(llm_sym.server)
    r = llm_sym("/tell Honestly, nobody would call Mira tall.")        # general: the statement menu
    assert r.ok and r.llm_calls == 4
    assert "~tall(mira)." in texts(llm_sym.shell.memory)
    problems = [c.last_user for c in llm_sym.server.chats[-3:-1]]
    assert "kind 'opinion' is not one of fact, rule, soft" in problems[0]
    assert "tall takes 1 argument(s), not 2" in problems[1]


def test_rules_are_assembled_by_sym_from_chosen_atoms(llm_sym):
    rule = fact("warm", "X", kind="rule", **{"if": [fact("furry", "X")]})
    loose = fact("warm", "Y", kind="rule", **{"if": [fact("furry", "X")]})
    llm_sym.server.reply(said(loose), said(rule))
    verifier(llm_sym.server)
    r = llm_sym("/tell Anything furry tends to stay warm, always.")   # "with fur" would not give the word furry
    assert r.ok, r
    assert "warm(X) :- furry(X)." in texts(llm_sym.shell.memory)
    assert "the conclusion uses Y, which no condition" in llm_sym.server.chats[-2].last_user


def test_a_repeating_model_adds_each_statement_once(llm_sym):
    llm_sym.server.reply(said(*[fact("feeds", "mira", "goats")] * 6))
    verifier(llm_sym.server)
    r = llm_sym("/tell Every single morning, Mira feeds the goats by hand.")
    assert r.ok and len(r.sentences[0].items) == 1 and r.llm_calls == 3     # one reading, its check and control


def test_truncated_json_is_reported_as_cut_off_not_half_read(llm_sym):
    whole = said(fact("feeds", "mira", "goats"), fact("milks", "mira", "goats"))
    llm_sym.server.reply(whole[:-20], said(fact("feeds", "mira", "goats")))
    verifier(llm_sym.server)
    r = llm_sym("/tell Every single morning, Mira feeds the goats by hand.")
    assert r.ok and r.llm_calls == 4                                   # two replies, the check, its control
    assert texts(llm_sym.shell.memory) == {"feeds(mira, goats)."}
    assert "cut off" in llm_sym.server.chats[-3].last_user


def test_the_same_wrong_reply_is_not_argued_with_again(llm_sym):
    wrong = said(fact("mib_of", "quiv", "plon", new=False))
    llm_sym.server.reply(wrong)                              # every call gets the same reply
    r = llm_sym("/tell Mira is tall. Every single morning, Mira feeds the goats by hand.")
    assert isinstance(r, Failure) and r.exit_code == 1 and "\n" not in r.message
    assert r.message.startswith("1 of 2 sentences understood; not understood: 'Every single morning, Mira")
    assert len(llm_sym.server.chats) == 2                    # the first reply, one repair, then a stop
    assert llm_sym.server.chats[-1].options["temperature"] > 0
    assert "same reply again" in r.sentences[1].problem
    assert not llm_sym.shell.memory.items                    # nothing stored: the sentence that was read waits too
    outcomes = [s["outcome"] for s in r.to_dict()["sentences"]]
    assert outcomes == ["held", "failed"] and r.to_dict()["error"] == r.message


def test_with_no_model_tell_names_what_needs_one_and_stores_nothing(sym):
    sym.shell.ctx.settings.ollama_host = unused_url()
    sym.shell.ctx.settings.llm_retries = 0
    line = "Bob is big. If something is big then it is red. The sky seems rather blue today."
    r = sym(f"/tell {line}")
    assert isinstance(r, Failure) and r.exit_code == 3
    assert r.message == "2 of 3 sentences understood; needs a model: 'The sky seems rather blue today.'"
    assert "--partial" in r.hint
    assert not sym.shell.memory.items
    kept = sym(f"/tell --partial {line}")
    assert kept.ok, kept
    assert texts(sym.shell.memory) == {"big(bob).", "red(X) :- big(X)."}
    assert [s.outcome for s in kept.sentences] == ["stored", "stored", "failed"]
    assert "needs a model" in kept.sentences[2].problem


def test_ask_honours_the_world_setting_and_the_flags_override_it(sym):
    sym("/tell Bob is big. Ann is kind.")
    assert sym("/ask --no-fallback Bob is kind.").outcome.answer == "unknown"     # auto: open for /ask
    assert sym("/ask --no-fallback --closed Bob is kind.").outcome.answer == "false"
    assert sym("/set world closed").ok
    assert sym("/ask --no-fallback Bob is kind.").outcome.answer == "false"
    assert sym("/ask --no-fallback --open Bob is kind.").outcome.answer == "unknown"
    assert sym("/set world open").ok
    assert sym("/ask --no-fallback Bob is kind.").outcome.answer == "unknown"
    assert sym("/ask --no-fallback --closed Bob is kind.").outcome.answer == "false"


def test_value_answers_come_with_their_proof_steps(sym):
    sym("/tell Bela is the father of Kadw. Orsa is the mother of Bela. "
        "If B is the father of A, and C is the mother of B, then C is the grandmother of A.")
    out = sym("/ask Who is the grandmother of Kadw?").outcome
    assert out.answer == "Orsa" and out.verified
    assert any(s.startswith("grandmother_of(orsa, kadw)") for s in out.steps)
    assert any(s.startswith("father_of(bela, kadw)") and "given" in s for s in out.steps)


def test_a_truth_goal_with_a_variable_is_read_existentially(llm_sym):
    llm_sym("/tell Bob is big.")
    llm_sym.server.reply(json={"kind": "truth", "predicate": "big", "args": ["X"], "negated": False},
                         when="anything")
    out = llm_sym("/ask Is anything at all big, as far as you know?").outcome
    assert out.answer == "true" and out.verified and out.goal == "big(X)"
    llm_sym.server.reply("Probably not.", when=lambda r: r.format is None)
    llm_sym.server.reply(json={"kind": "truth", "predicate": "big", "args": ["X"], "negated": True},
                         when="nothing")
    assert llm_sym("/ask --no-fallback --closed Is there nothing big, would you say?").outcome.answer == "false"
    out = llm_sym("/ask --open Is there nothing big, would you say?").outcome
    assert out.answer == "Probably not." and not out.verified        # undecided: the labelled fallback


def test_goal_choices_come_from_the_question_and_the_schema(llm_sym):
    llm_sym("/tell Bela is the father of Kadw.")
    llm_sym.server.reply(json={"kind": "values", "predicate": "Father_Of", "args": ["X", "Kadw"],
                               "negated": False})
    out = llm_sym("/ask Who might Kadw's dad be?").outcome
    assert out.answer == "Bela" and out.goal == "father_of(X, kadw)"
    sent = llm_sym.server.chats[-1]
    assert sent.format["properties"]["predicate"]["enum"] == ["father_of", "other"]
    assert "father_of(A, B): A is the father of B" in sent.last_user
