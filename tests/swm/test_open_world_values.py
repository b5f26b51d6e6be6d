"""A wh-question that memory has no answer for is "none known" in the open world (undecided,
never a verified "nothing"); in the closed world it is "nothing". A name of a noun and a numeral
("Box 1") names one of that kind, so "Which box …?" finds it."""

from __future__ import annotations


def test_which_box_finds_the_box_a_sentence_names(sym):
    sym("/tell Box 1 contains the pen.")
    asked = sym("/ask Which box contains the pen?").outcome
    assert asked.answer == "Box 1" and asked.verified


def test_no_known_value_is_none_known_in_the_open_world_and_nothing_in_the_closed(sym):
    sym("/tell Box 1 contains the pen.")
    asked = sym("/ask --no-fallback Which box contains the ink?").outcome
    assert asked.answer == "none known" and asked.settle
    assert sym("/ask --no-fallback --closed Which box contains the ink?").outcome.answer == "nothing"


def test_who_with_no_answer_is_none_known(sym):
    sym("/tell Bob is tall.")
    assert sym("/ask --no-fallback Who is short?").outcome.answer == "none known"


def test_how_many_counts_with_an_aggregate_what_memory_knows(sym):
    sym("/tell Tom is a cat. Kit is a cat. Rex is a dog. Tom is black. Kit is black. Rex is black.")
    asked = sym("/ask --no-fallback How many cats are black?").outcome
    assert asked.answer == "2 known" and asked.verified
    assert sym("/ask --no-fallback How many cats are white?").outcome.answer == "0 known"
    assert sym("/ask --no-fallback --closed How many dogs are black?").outcome.answer == "1"


def test_is_any_asks_whether_some_answer_is_known(sym):
    sym("/tell Tom is a cat. Tom is black. Rex is a dog.")
    assert sym("/ask --no-fallback Is any cat black?").outcome.answer == "true"
    assert sym("/ask --no-fallback Are any dogs black?").outcome.answer == "unknown"
    assert sym("/ask --no-fallback --closed Are any dogs black?").outcome.answer == "false"
