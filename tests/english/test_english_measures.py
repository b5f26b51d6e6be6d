"""Measures (docs/english.md): "N years old" and "N UNIT tall/heavy/…" are attribute facts with
their comparatives' meaning, so questions of age and size are answered from the numbers; a
number in any other shape stays outside the language."""

from __future__ import annotations

import random

import pytest

from sym.core.reason.swm.english import question_goal, translate
from tests.english_lexicon import Lexicon


@pytest.mark.parametrize(("sentence", "fact"), [
    ("Bob is 30 years old.", "age(bob, 30)."), ("The bald eagle is 7 years old.", "age('bald eagle', 7)."),
    ("Rex is 60 cm tall.", "height_in_cm(rex, 60)."), ("Bob is 80.5 kg heavy.", "weight_in_kg(bob, 80.5)."),
    ("Bob is 2 months old.", "age_in_month(bob, 2)."),
])
def test_a_measure_is_its_attribute_and_the_meaning_of_its_comparatives(sentence, fact):
    clauses = translate(sentence).clauses
    assert clauses[0] == fact and len(clauses) in (3, 5)
    assert all(c.endswith("A > B.") or c.endswith("A < B.") or "=<" in c or ">=" in c for c in clauses[1:])


@pytest.mark.parametrize("sentence", ["Bob is 30 cm old.", "Bob is 3 apples heavy.", "Bob and Al are 30 years old.",
                                      "Bob is 30.", "Bob has 30 years.", "Bob is 30 years."])
def test_a_number_in_any_other_shape_is_refused(sentence):
    assert translate(sentence) is None


def test_measures_of_invented_names_read_as_names():
    lx = Lexicon(random.Random(3))
    for _ in range(30):
        x = lx.name(plain=True)
        assert translate(f"{x.text} is 12 years old.").clauses[0] == f"age({x.const}, 12)."


def test_ages_answer_comparisons_both_ways_and_how_old(sym):
    sym("/tell Bob is 30 years old. Al is 25 years old.")
    assert sym("/ask --no-fallback Is Bob older than Al?").outcome.answer == "true"
    assert sym("/ask --no-fallback Is Al older than Bob?").outcome.answer == "false"
    assert sym("/ask --no-fallback Who is younger than Bob?").outcome.answer == "Al"
    assert sym("/ask --no-fallback How old is Bob?").outcome.answer == "30"
    assert question_goal("How old is the bald eagle?").query == "age('bald eagle', X)"
