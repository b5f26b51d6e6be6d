"""What a model writes is its reading of the text (issue 53): a reply that uses a name only the
prompt's example uses ("tom" in a FOLIO program) is refused, everywhere a structured reply is
read; and a repair whose request would be answered as before is drawn differently — 6 of 12
repairs came back identical to the reply they repaired."""

from __future__ import annotations

import json

from sym.core.llm import examples
from sym.core.llm.calllog import canonical
from sym.core.reason.pot.tasks import Encoding, decide_claim
from tests.bench.test_bench_logic import CAT_PROGRAM
from tests.prove.test_steps_llm import llm_of

WHALES = "All whales are mammals. Willy is a whale."

def whales(name: str) -> dict:
    return {**CAT_PROGRAM, "functions": [{"name": "whale", "domain": ["Thing"], "range": "BoolSort"},
                                         {"name": "mammal", "domain": ["Thing"], "range": "BoolSort"}],
            "constants": {"things": {"sort": "Thing", "members": [name]}},
            "knowledge_base": ["ForAll([x], Implies(whale(x), mammal(x)))", f"whale({name})"],
            "verifications": [{"name": "claim", "constraint": f"mammal({name})"}]}


WHALE_PROGRAM = whales("willy")
COPIED = whales("tom")       # the example's name, as the model wrote it


def program_calls(server) -> list:
    return [c for c in server.chats if c.format is not None]


def test_a_program_that_copies_the_examples_name_goes_back_and_the_repair_is_checked(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    ollama_server.reply(json.dumps(WHALE_PROGRAM), when="is a name from the prompt's example")
    ollama_server.reply(json.dumps(COPIED), when=lambda r: r.format is not None)
    status, detail = decide_claim(WHALES, "Willy is a mammal.", llm, encoding=Encoding("json", "whole"))
    assert status == "proved" and detail["attempts"] == 2, detail
    first, repair = program_calls(ollama_server)
    assert "'tom' is a name from the prompt's example, not from the text" in repair.last_user
    assert "Tom is a cat." in json.dumps(first.messages)        # the example the name came from


def test_a_name_the_text_itself_uses_is_the_texts(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    ollama_server.reply(json.dumps(CAT_PROGRAM), when=lambda r: r.format is not None)
    status, detail = decide_claim("Every cat is an animal. Tom is a cat.", "Tom is an animal.", llm)
    assert status == "proved" and detail["attempts"] == 1


def test_the_texts_words_are_the_user_messages_less_the_registered_examples():
    asked = [{"role": "system", "content": "Zell is the wug of Tarn."},
             {"role": "user", "content": "Premises:\nAll cats are mammals. No mammal is a reptile. Tom is a cat.\n\n"
                                         "Statement: Tom is a reptile."},
             {"role": "assistant", "content": "cat(tom)"},
             {"role": "user", "content": "Premises:\nAnn took her son Bob to the fair.\n\nStatement: Bob is tall."}]
    assert examples.copied('{"facts": ["son_of(tom, ann)", "wug(zell)"]}', asked) == ["tom", "wug", "zell"]
    assert examples.copied('{"facts": ["son_of(bob, ann)"]}', asked) == []
    assert examples.copied("tomCat and tom_cat", [{"role": "user", "content": "tom"}]) == []


def test_a_repeated_reply_is_drawn_hotter_and_no_request_is_sent_twice(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    ollama_server.reply(json.dumps({**WHALE_PROGRAM, "verifications": [{"name": "claim", "constraint": "mammal(x)"}]}),
                        when=lambda r: r.format is not None)        # the same wrong reply, every time
    status, detail = decide_claim(WHALES, "Willy is a mammal.", llm, attempts=3)
    assert status is None and detail["error"].startswith("no valid program after 3 attempts"), detail
    calls = program_calls(ollama_server)
    assert len(calls) == 3
    temperatures = [c.options.get("temperature") for c in calls]
    repair = shell.ctx.settings.repair_temperature
    assert temperatures[1] == repair and temperatures[2] > repair      # after the repeat: drawn hotter
    sent = [canonical([c.messages, c.options]) for c in calls]
    assert len(set(sent)) == len(sent)
