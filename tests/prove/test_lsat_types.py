"""AR-LSAT question types from their wording, and how a type turns option statuses into candidates."""

from __future__ import annotations

import pytest

from sym.repl.bench.lsat import (
    COULD_BE_FALSE,
    COULD_BE_TRUE,
    MUST_BE_FALSE,
    MUST_BE_TRUE,
    QuestionType,
    candidates,
    option_letter,
    option_text,
    question_type,
)


@pytest.mark.parametrize("question, kind, except_", [
    ("Which one of the following could be true?", COULD_BE_TRUE, False),
    ("If Rex is walked third, which one of the following could be true?", COULD_BE_TRUE, False),
    ("Which one of the following could be the order of the talks, from first to last?", COULD_BE_TRUE, False),
    ("Which one of the following is an acceptable schedule of the talks?", COULD_BE_TRUE, False),
    ("Which one of the following is an allowable assignment of cooks to shifts?", COULD_BE_TRUE, False),
    ("Which one of the following could be a complete and accurate list of the talks given on Monday?",
     COULD_BE_TRUE, False),
    ("The four talks could be given in which one of the following orders?", COULD_BE_TRUE, False),
    ("Which one of the following must be true?", MUST_BE_TRUE, False),
    ("If Uma is walked first, then which one of the following must be walked second?", MUST_BE_TRUE, False),
    ("Which one of the following must be false?", MUST_BE_FALSE, False),
    ("Which one of the following CANNOT be true?", MUST_BE_FALSE, False),
    ("Which one of the following could not be the dog walked third?", MUST_BE_FALSE, False),
    ("Which one of the following could be false?", COULD_BE_FALSE, False),
    ("Which one of the following need not be true?", COULD_BE_FALSE, False),
    ("Each of the following could be true EXCEPT:", COULD_BE_TRUE, True),
    ("If Sky is walked last, then each of the following must be true EXCEPT:", MUST_BE_TRUE, True),
    ("Each of the following could be false except", COULD_BE_FALSE, True),
    ("Any of the following could be the dog walked second EXCEPT", COULD_BE_TRUE, True),
])
def test_question_types_are_read_from_the_wording(question, kind, except_):
    assert question_type(question) == QuestionType(kind, except_)


def test_a_question_of_no_known_type_is_none():
    assert question_type("Which one of the following, if substituted for the third rule, "
                         "would have the same effect?") is None


def test_except_only_counts_as_a_word():
    assert question_type("Which one of the following exceptional dogs could be walked first?").except_ is False


STATUSES = {"A": "refuted", "B": "unknown", "C": "proved", "D": "refuted", "E": "unknown"}


@pytest.mark.parametrize("qtype, expected", [
    (QuestionType(COULD_BE_TRUE), ["B", "C", "E"]),
    (QuestionType(MUST_BE_TRUE), ["C"]),
    (QuestionType(MUST_BE_FALSE), ["A", "D"]),
    (QuestionType(COULD_BE_FALSE), ["A", "B", "D", "E"]),
    (QuestionType(COULD_BE_TRUE, True), ["A", "D"]),
    (QuestionType(MUST_BE_TRUE, True), ["A", "B", "D", "E"]),
    (QuestionType(MUST_BE_FALSE, True), ["B", "C", "E"]),
    (QuestionType(COULD_BE_FALSE, True), ["C"]),
])
def test_each_type_selects_options_by_their_status(qtype, expected):
    assert candidates(qtype, STATUSES) == expected


def test_an_option_the_solver_gave_up_on_stays_a_candidate():
    assert candidates(QuestionType(MUST_BE_TRUE), STATUSES, frozenset({"B"})) == ["B", "C"]


@pytest.mark.parametrize("name, letter", [("A", "A"), ("(B)", "B"), ("C)", "C"), ("Option D", "D"),
                                          ("option E: Ben sits first", "E"), ("A) Ann, Ben, Cal", "A"),
                                          ("B - Ben first", "B"), ("A dog is walked", None),
                                          ("F", "F"), ("G", "G"), ("H", None), ("", None)])
def test_verifications_are_matched_to_options_by_name(name, letter):
    assert option_letter(name) == letter


def test_option_text_drops_a_letter_prefix_only():
    assert option_text("A) Ann, Ben, Cal") == "Ann, Ben, Cal"
    assert option_text("(C) Cal sits first.") == "Cal sits first."
    assert option_text("Ann sits in seat 2.") == "Ann sits in seat 2."
