"""Sentences in capitals (docs/english.md, surface): a sentence wholly in capitals reads as its
sentence-case form, or is refused — never as something else; a sentence with some words in
capitals is as written."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.reason.swm.english import question_goal, translate
from tests.english_gen import STATEMENT_CATEGORIES, generate

CI = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
rngs = st.integers(0, 2**32 - 1).map(random.Random)


@CI
@given(st.sampled_from(STATEMENT_CATEGORIES), rngs)
def test_a_sentence_in_capitals_reads_as_written_in_sentence_case_or_is_refused(category, rng):
    item = generate(category, rng)
    shouted = translate(item.sentence.upper())
    if shouted is None:
        return
    plain = translate(item.sentence)
    assert plain is not None and sorted(shouted.clauses) == sorted(plain.clauses), (item.sentence, shouted.clauses)


def test_capitals_read_only_when_every_letter_is_one():
    assert translate("BOB IS TALL.").clauses == ["tall(bob)."]
    assert translate("BOB IS TALL!").clauses == ["tall(bob)."]
    assert translate("BOB IS Tall.") is None
    assert translate("WILL IS TALL.") is None                 # Will or will?
    assert translate("IF B IS THE SON OF A THEN A IS THE PARENT OF B.") is None    # letters or the article?
    assert question_goal("IS BOB TALL?").query == "tall(bob)"
