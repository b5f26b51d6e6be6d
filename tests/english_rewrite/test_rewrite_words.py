"""What a rewrite may say: only the sentence's own words (in any form) and the controlled
language's function words; the same negation; readable by the grammar, sentence by sentence."""

from __future__ import annotations

import pytest

from sym.core.memory.working import WorkingMemory
from sym.core.reason.swm.rewrite import FUNCTION_WORDS, kept_numbers, negated, new_words, read, unrewritable


@pytest.mark.parametrize("rewrite, sentence", [
    ("Bob is tall.", "Bob's tall, I'd say."),
    ("Every cat is an animal.", "Cats, you know, are all animals."),
    ("Bob likes every cat that purrs.", "Bob likes cats that purr."),
    ("Bob is taller than Al.", "Honestly, Bob's taller than Al!"),
    ("Bob is 30 years old.", "Bob is thirty years old, believe me."),
    ("Bob does not like Al.", "Bob doesn't like Al."),
])
def test_the_sentences_own_words_in_any_form_pass(rewrite, sentence):
    assert new_words(rewrite, sentence) == []


@pytest.mark.parametrize("rewrite, sentence, added", [
    ("Bob is tall and Al is tall.", "Bob's tall.", ["al"]),            # a name the sentence never gave
    ("Bob is very tall.", "Bob's tall.", ["very"]),
    ("Bob is a tall man.", "Bob's tall.", ["man"]),
    ("Bob is 31 years old.", "Bob is thirty years old.", ["31"]),
    ("Rex is a dog.", "Rex is a hound.", ["dog"]),                     # a synonym is a word of its own
])
def test_a_word_the_sentence_lacks_is_named(rewrite, sentence, added):
    assert new_words(rewrite, sentence) == added


def test_function_words_are_the_languages_own():
    assert {"is", "not", "every", "that", "if", "then", "of", "than", "in"} <= FUNCTION_WORDS
    assert not {"very", "man", "was", "might", "some", "bob"} & FUNCTION_WORDS


def test_negation_is_seen_in_words_and_contractions():
    assert negated("Bob isn't tall.") and negated("No cat is cold.") and negated("Bob is not tall.")
    assert not negated("Bob's tall, I'd say.") and not negated("Every cat is an animal.")


def test_every_sentence_of_a_rewrite_must_read():
    memory = WorkingMemory()
    readings, problem = read("Bob is tall. Al is short.", memory, [])
    assert problem == "" and [tr.clauses for tr in readings] == [["tall(bob)."], ["short(al)."]]
    readings, problem = read("Bob is tall. Al was short.", memory, [])
    assert readings == [] and problem.startswith("the grammar cannot read 'Al was short.'")
    # a name here and a description in a sentence the grammar read before: never one constant
    _, problem = read("Bill pays Al.", memory, ["The bill is red."])
    assert "would be one thing" in problem


@pytest.mark.parametrize("sentence", ["Bob's tall, I'd say.", "I think Bob is tall.", "I would say Bob is tall.",
                                      "Dogs, as everyone knows, are mammals.", "May is a doctor.", "The answer is Al.",
                                      "Bob is thirty years old."])
def test_hedges_and_words_that_add_nothing_leave_a_sentence_rewritable(sentence):
    assert unrewritable(sentence) == ""


@pytest.mark.parametrize("sentence, word", [
    ("Al is tall, Bob thinks.", "thinks"), ("Bob and I think Al is tall.", "think"), ("I doubt Bob is tall.", "doubt"),
    ("I hope Al is tall.", "hope"), ("Bob was tall.", "was"), ("Bob might be tall.", "might"),
    ("Some dogs bark.", "some"), ("Only dogs bark.", "only"), ("Bob is tall or short.", "or"),
    ("Unless Al sings, Bob dances.", "unless"), ("Bob is a former president.", "former"),
    ("Bob usually sings.", "usually")])
def test_a_word_that_changes_what_is_stated_makes_a_sentence_unrewritable(sentence, word):
    assert unrewritable(sentence).startswith(f"'{word}'")


def test_numbers_are_kept():
    assert kept_numbers("Cats are black.", "Two cats are black.") == ["two"]
    assert kept_numbers("Bob is 30 years old.", "Bob is thirty years old.") == []
    assert kept_numbers("Rex is in Box 1.", "Rex is in box one.") == []


def test_a_rewrite_the_grammar_cannot_read_names_the_words_to_leave_out():
    _, problem = read("Bob really likes Al very much.", WorkingMemory(), [])
    assert problem.endswith("(leave out 'really', 'very', 'much')")
