"""The canonical paraphrase says a one-place predicate as the sentence said it (issue 48, part 2): a
noun as a noun ("Bob is an animal." was shown "Bob is animal."), an adjective as an adjective, for a
word that can be either (animal, orange, and every invented word); the paraphrase reads back to the
same clauses."""

from __future__ import annotations

import random

import pytest

from sym.core.reason.swm.english import translate
from sym.core.reason.swm.english.statements import misread
from tests.english_lexicon import Lexicon


def _reads_back(sentence: str, paraphrase: str) -> None:
    found = translate(sentence)
    assert found is not None and found.paraphrase == paraphrase, (sentence, found)
    back = [translate(part if part.endswith(".") else part + ".") for part in found.paraphrase.split(". ")]
    assert all(back) and [c for tr in back if tr for c in tr.clauses] == found.clauses, (found.paraphrase, back)
    assert misread(tuple(found.clauses), found.written) is None


@pytest.mark.parametrize(("sentence", "paraphrase"), [
    ("Bob is an animal.", "Bob is an animal."),
    ("Bob is not an animal.", "Bob is not an animal."),
    ("Every cat is an animal.", "If X is a cat then X is an animal."),
    ("Cats are animals.", "If X is a cat then X is an animal."),
    ("No cat is an animal.", "If X is a cat then X is not an animal."),
    ("Bob is an orange.", "Bob is an orange."),
    ("Bob is orange.", "Bob is orange."),                  # the adjective stays one
    ("Bob is an orange cat.", "Bob is orange. Bob is a cat."),
    ("Every animal is big.", "If X is an animal then X is big."),
])
def test_a_noun_that_is_an_adjective_too_is_said_as_the_sentence_said_it(sentence, paraphrase):
    _reads_back(sentence, paraphrase)


@pytest.mark.parametrize("seed", range(20))
def test_invented_nouns_and_adjectives_are_said_as_written(seed):
    lx = Lexicon(random.Random(f"paraphrase:{seed}"))
    name, n, m, a = lx.name(plain=True), lx.noun(), lx.noun(), lx.adj()
    _reads_back(f"{name.text} is {n.article} {n.sg}.", f"{name.text} is {n.article} {n.sg}.")
    _reads_back(f"{name.text} is {a}.", f"{name.text} is {a}.")
    _reads_back(f"Every {n.sg} is {m.article} {m.sg}.", f"If X is {n.article} {n.sg} then X is {m.article} {m.sg}.")
    _reads_back(f"{n.pl.capitalize()} are {a}.", f"If X is {n.article} {n.sg} then X is {a}.")
