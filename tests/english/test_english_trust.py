"""Trust in the controlled-English bridge (issue 27), as properties over generated sentences of
invented words around real closed-class words (tests/english_gen.py, TRUST_CATEGORIES): no
sentence of a class whose meaning is not the plain reading yields a clause other than its
documented form — refusing is fine where the class allows it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.reason.swm.english import question_goal, split_sentences, translate
from tests.english_gen import generate
from tests.english_trust_gen import TRUST_STATEMENT_CATEGORIES, breach

CI = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
rngs = st.integers(0, 2**32 - 1).map(random.Random)


@pytest.mark.parametrize("category", TRUST_STATEMENT_CATEGORIES)
@CI
@given(rng=rngs)
def test_no_sentence_of_a_trust_class_yields_a_clause_other_than_its_documented_form(category, rng):
    item = generate(category, rng)
    problem = breach(item, translate(item.sentence))
    assert problem is None, f"{category}: {item.sentence!r} ({item.tags[0]}) {problem}"


@CI
@given(rngs)
def test_a_question_whose_statement_form_is_refused_is_refused(rng):
    item = generate("refused_questions", rng)
    problem = breach(item, question_goal(item.sentence))
    assert problem is None, f"{item.sentence!r} {problem}"


@CI
@given(rngs)
def test_the_splitter_never_breaks_a_sentence_at_an_abbreviation(rng):
    item = generate("abbreviations", rng)
    problem = breach(item, split_sentences(item.sentence))
    assert problem is None, f"{item.sentence!r} ({item.tags[1]}) {problem}"
