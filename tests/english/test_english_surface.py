"""The surface rules of docs/english.md over sentences of invented words: what adds nothing (a final
!, a leading marker, a negative or tag form of a question) changes no reading; what changes the
meaning (only if, if after asks) is never read as a conditional."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.reason.swm.english import question_goal, translate
from tests.english_gen import STATEMENT_CATEGORIES, generate

CI = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
rngs = st.integers(0, 2**32 - 1).map(random.Random)
MARKERS = ["Yes", "Well", "Indeed", "In fact", "Of course", "Moreover"]


def clauses(sentence: str):
    found = translate(sentence)
    return None if found is None else sorted(found.clauses)


@CI
@given(st.sampled_from(STATEMENT_CATEGORIES), rngs, st.sampled_from(MARKERS))
def test_a_marker_or_an_exclamation_mark_changes_no_reading(category, rng, marker):
    item = generate(category, rng)
    if not item.sentence.endswith(".") or item.sentence.startswith(("If ", "When", "Whenever")):
        return
    plain = clauses(item.sentence)
    assert clauses(item.sentence[:-1] + "!") == plain
    assert clauses(f"{marker}, {item.sentence}") == plain


@CI
@given(st.sampled_from(["questions"]), rngs)
def test_a_negative_question_asks_what_the_positive_asks(category, rng):
    item = generate(category, rng)
    q = item.sentence.split(". ")[-1]
    if not q.startswith(("Is ", "Does ")) or "following" in q:
        return
    negative = ("Isn't " if q.startswith("Is ") else "Doesn't ") + q.split(" ", 1)[1]
    positive, asked = question_goal(q), question_goal(negative)
    if positive is None:
        assert asked is None        # refused alike
        return
    assert (positive.kind, positive.query) == (asked.kind, asked.query)


@pytest.mark.parametrize(("tagged", "query"), [
    ("Bob is tall, isn't he?", "tall(bob)"), ("Bob likes Al, doesn't he?", "likes(bob, al)"),
    ("Bob isn't tall, is he?", "~tall(bob)"),
])
def test_a_tag_question_judges_its_statement(tagged, query):
    goal = question_goal(tagged)
    assert goal.kind == "truth" and goal.query == query


@pytest.mark.parametrize(("sentence", "logic"), [
    ("When Bob is tall, Al is short.", ["short(al) :- tall(bob)."]),
    ("Whenever Bob sings, Al dances.", ["dances(al) :- sings(bob)."]),
    ("Bob sings if Al dances.", ["sings(bob) :- dances(al)."]),
    ("The cat purrs whenever Bob sings.", ["purrs(cat) :- sings(bob)."]),
])
def test_when_whenever_and_a_condition_after_its_consequence_are_conditionals(sentence, logic):
    assert clauses(sentence) == logic


@pytest.mark.parametrize("sentence", [
    "Bob asks if Al sings.", "Bob wonders if Al is tall.", "Bob sings only if Al dances.",
    "Bob sings even if Al dances.", "Bob acts as if Al is tall.", "Bob knows if Al is tall.",
])
def test_an_if_that_is_not_a_condition_is_refused(sentence):
    assert translate(sentence) is None


def test_a_report_after_a_comma_is_refused_whole_never_split_into_its_claim(sym):
    from sym.core.reason.swm.english import split_sentences

    assert split_sentences("Al is tall, Bob thinks. Bob went home, Al stayed.") == [
        "Al is tall, Bob thinks.", "Bob went home.", "Al stayed."]
    told = sym("/tell --partial Al is tall, Bob thinks. Bob is big.")
    assert {it.text for s in told.sentences for it in s.items} == {"big(bob)."}
