"""Relations between named things, read pair by pair: the model picks which way round the story
states each relation (an enum of two sentences sym wrote, or "neither"), then names the other
direction; sym builds every fact. Through the protocol server, with the mistakes small models
make (no JSON, a copied word for the converse, a word the memory does not know)."""

from __future__ import annotations

import json

from sym.core.reason.swm import pairs
from tests.conftest import texts
from tests.verifier import verifier, verifying

RULES = ("/tell If B is the son of A, and C is the daughter of B, then C is the granddaughter of A. "
         "If B is the father of A, and C is the son of B, then C is the brother of A.")
STORY = "/tell James took his son Francisco hunting. Francisco's daughter stayed home, as Natasha was too young."
STEP1 = {"1. Francisco, Natasha, daughter": "Natasha is Francisco's daughter"}


def _menu(*words: str) -> list[pairs.Relation]:
    return [pairs.Relation(f"{w}_of", f"is the {w} of") for w in words]


def converse(request) -> bool:
    return ", so " in request.last_user


def test_the_model_picks_a_way_round_and_sym_writes_the_facts(llm_sym):
    llm_sym(RULES)
    verifier(llm_sym.server)
    llm_sym.server.reply(json={"1. Francisco is James's son, so James is Francisco's ___": "father",
                               "2. Natasha is Francisco's daughter, so Francisco is Natasha's ___": "daughter"},
                         when=converse)
    llm_sym.server.reply("I think Francisco is the son.", json.dumps(STEP1), when="Questions:")
    r = llm_sym(STORY)
    assert r.ok and r.llm_calls == 7, r          # step 1, its repair, the converse step, a check per sentence and
                                                 # one of each reading turned round
    stored = texts(llm_sym.shell.memory)
    assert {"son_of(francisco, james).", "daughter_of(natasha, francisco).", "father_of(james, francisco)."} <= stored
    assert "daughter_of(francisco, natasha)." not in stored   # the same word back is a copy, not taken
    first, repair, back = [c for c in llm_sym.server.chats if not verifying(c)][-3:]
    checks = sorted(c.last_user for c in llm_sym.server.chats if verifying(c))   # checks run side by side
    asked = "\nDoes the sentence say or clearly imply what the reading says?"
    hunting, home = "Sentence: James took his son Francisco hunting.", \
        "Sentence: Francisco's daughter stayed home, as Natasha was too young."
    assert checks == sorted([f"{hunting}\nReading: Francisco is the son of James. James is the father of Francisco.{asked}",
                             f"{home}\nReading: Natasha is the daughter of Francisco.{asked}",
                             # each reading turned round, to which a check that reads the sentence says no
                             f"{hunting}\nReading: James is the son of Francisco. Francisco is the father of James.{asked}",
                             f"{home}\nReading: Francisco is the daughter of Natasha.{asked}"])
    (field,) = first.format["properties"].values()           # "his son Francisco" says itself: not asked
    assert field["enum"] == ["Natasha is Francisco's daughter", "Francisco is Natasha's daughter", "neither"]
    assert "Story: James took his son Francisco hunting." in first.last_user
    assert repair.options.get("temperature", 0) > 0
    assert "2. Natasha is Francisco's daughter, so Francisco is Natasha's ___" in back.last_user
    assert llm_sym("/ask How is Natasha related to James?").outcome.answer == \
        "Natasha is the granddaughter of James."


def test_neither_and_unknown_words_store_nothing_for_that_pair(llm_sym):
    llm_sym(RULES)
    verifier(llm_sym.server)
    llm_sym.server.reply(json={"1. Francisco is James's son, so James is Francisco's ___": "great-uncle"},
                         when=converse)
    llm_sym.server.reply(json={"1. Francisco, Natasha, daughter": "neither"}, when="Questions:")
    r = llm_sym(STORY.replace("/tell ", "/tell --partial "))
    assert r.ok, r
    stored = texts(llm_sym.shell.memory)
    assert "son_of(francisco, james)." in stored
    assert not any("natasha" in t for t in stored)             # "neither": nothing about that pair
    assert not any(t.startswith("great") for t in stored)      # a word the memory does not know: nothing


def test_a_story_the_model_cannot_answer_is_refused_whole(llm_sym):
    llm_sym(RULES)
    llm_sym.server.reply("no idea")
    r = llm_sym(STORY)
    assert not r.ok and "not understood" in r.message
    assert not any("francisco" in t for t in texts(llm_sym.shell.memory))


def test_relation_nouns_are_found_after_possessives_and_among_the_memorys_words():
    menu = _menu("son", "wife")
    assert pairs.relation_words("James took his son Francisco out.", menu) == [("son", 3)]
    words = [w for w, _ in pairs.relation_words("Nicole's grandfather, Harold, met her younger brother Bo.", menu)]
    assert words == ["grandfather", "brother"]
    assert pairs.relation_words("Ann went to the park with her.", menu) == []          # no noun after "her"
    assert [w for w, _ in pairs.relation_words("Tom and Ann are sons of Bob.", menu)] == ["son"]


def test_statements_pair_a_noun_with_its_possessor_and_the_name_it_names():
    menu = _menu("son", "daughter", "wife")
    got = [(s.key(), s.sentences()) for s in pairs.statements(
        ["James took his son Francisco out.", "Natasha, Francisco's daughter, stayed.",
         "Instead, James's wife Frances cooked."], menu)]
    assert got == [("James, Francisco, son", ["Francisco is James's son", "James is Francisco's son"]),
                   ("Francisco, Natasha, daughter", ["Natasha is Francisco's daughter",
                                                     "Francisco is Natasha's daughter"]),
                   ("James, Frances, wife", ["Frances is James's wife", "James is Frances's wife"])]


def test_the_words_alone_settle_the_way_round_only_where_english_leaves_no_doubt():
    menu = _menu("son", "daughter", "wife", "husband", "mother", "brother", "friend", "grandfather")

    def settled(*sentences: str) -> dict[str, str | None]:
        return {s.key(): (s.sentences()[s.known] if s.known is not None else None)
                for s in pairs.statements(list(sentences), menu)}

    assert settled("James took his son Francisco out.", "Natasha, Francisco's daughter, stayed.",
                   "Irvin's grandfather, James, went out.", "Then Irvin's younger brother Carl sang.") == {
        "James, Francisco, son": "Francisco is James's son",
        "Francisco, Natasha, daughter": "Natasha is Francisco's daughter",
        "Irvin, James, grandfather": "James is Irvin's grandfather",
        "Irvin, Carl, brother": "Carl is Irvin's brother"}
    # the words leave it open: the model is asked
    assert set(settled("Natasha met Francisco's daughter.").values()) == {None}
    assert set(settled("Tom told Bob about his son Sam.").values()) == {None}      # whose son?
    assert settled("Lena cooked for her husband Wesley and her son Charles.")["Lena, Wesley, husband"] == \
        "Wesley is Lena's husband"
    assert settled("Lena cooked for her husband Wesley and her son Charles.")["Lena, Charles, son"] is None


def test_a_sentence_with_one_name_and_a_pronoun_reaches_back_one_sentence():
    qs = pairs.questions(["Hugh is proud of his girl.", "Her name is Vanetta."], neighbours=False)
    assert {(q.first, q.second) for q in qs} == {("hugh", "vanetta"), ("vanetta", "hugh")}
    assert pairs.questions(["Hugh sang.", "Vanetta danced."], neighbours=False) == []


def test_a_capitalised_opening_word_the_lexicon_knows_is_not_a_name():
    qs = pairs.questions(["Put the cup next to Ann and Bob."], neighbours=False)
    assert {q.first for q in qs} == {"ann", "bob"}


def test_only_unambiguous_two_place_templates_become_relations():
    menu = pairs.relations({"son_of": (2,), "likes": (2,), "big": (1,), "near": (2,), "close_to": (2,)},
                           {"likes/2": "{0} likes {1}", "near/2": "{0} is near {1}", "close_to/2": "{0} is near {1}"})
    assert [(r.pred, r.phrase, r.word) for r in menu] == [("likes", "likes", ""), ("son_of", "is the son of", "son")]
    assert not pairs.possessive(menu) and pairs.possessive(_menu("son"))
