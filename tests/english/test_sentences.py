"""The sentence splitter on text it was not written around: abbreviations, run-on stories, and
the commas it must leave alone (name lists, Boxes lists, subordinate clauses, reported speech)."""

from __future__ import annotations

import re
import time

import pytest

from sym.core.reason.swm.english import split_sentences

KEEP_TOGETHER = [
    # titles and other abbreviations inside a sentence
    "Dr. Watson met Mrs. Hudson at noon.",
    "Prof. Moriarty sent a letter to Ms. Adler.",
    "Mr. and Mrs. Smith own the house.",
    "Martin Luther King Jr. gave a speech.",
    "Tom Sr. is older than Tom Jr. by thirty years.",
    "The U.S. Navy and the U.K. Navy sail together.",
    "They visited St. Louis and St. Paul.",
    "Bob likes fruit, e.g. apples and pears.",
    "Bob is a vet, i.e. he treats animals.",
    "Bob bought pens, pencils, etc. for school.",
    "The meeting is at 5 p.m. on Monday.",
    "Apples vs. oranges is an old debate.",
    # commas that do not join two whole clauses
    "Bob, Al and Sue are big.",
    "Bob, Al, Sue and Tim are friends.",
    "Yesterday, Bob went home.",
    "When Bob left, Al stayed.",
    "When Bob is tall, Al is short.",                          # was cut as a list of two 'is' clauses
    "Although Bob was tired, Mary cooked dinner.",
    "If Bob is big, Al is small.",
    "Because it rained, Tom stayed inside.",
    "Bob said, Al is tall.",
    "Natasha, Francisco's daughter, wanted to come, but they thought she was too young.",
    "Instead, James's wife Frances stayed home with her.",
    "If B is the son of A, and C is the son of B, then C is the grandson of A.",
    "Bob called his sister, Mary had a cold.",                 # Mary may be the sister: not cut
    "Bob, who is tall, likes Al.",
    "The cat, the dog and the bird are pets.",
    "Box 0 contains the glass, Box 1 contains the key, Box 2 is empty.",
]

SPLITS = {
    "Dr. Smith is kind. Mr. Jones is rude.": ["Dr. Smith is kind.", "Mr. Jones is rude."],
    "I met Al Jr. He is tall.": ["I met Al Jr.", "He is tall."],
    "He moved to Elm St. Then he left.": ["He moved to Elm St.", "Then he left."],
    "We bought apples, pears, etc. Then we left.": ["We bought apples, pears, etc.", "Then we left."],
    "Bob lives in the U.S. He likes it.": ["Bob lives in the U.S.", "He likes it."],
    "Bob went home, Al stayed.": ["Bob went home.", "Al stayed."],
    "Bob is tall, Al is short.": ["Bob is tall.", "Al is short."],
    "Bob went home, Mary Smith left early.": ["Bob went home.", "Mary Smith left early."],
    "Jack went to see his sister, Mary Madonna had a daughter named Mary.":
        ["Jack went to see his sister, Mary.", "Madonna had a daughter named Mary."],
    "Kim drove her mother-in-law, Ann Lee took the bus.":
        ["Kim drove her mother-in-law, Ann.", "Lee took the bus."],
    "James took his son Francisco hunting, Natasha stayed home. Frances cooked.":
        ["James took his son Francisco hunting.", "Natasha stayed home.", "Frances cooked."],
    "Bob likes Al, Sue likes Tim.": ["Bob likes Al.", "Sue likes Tim."],
    "Box 0 contains the glass, Box 1 contains the key.": ["Box 0 contains the glass.", "Box 1 contains the key."],
    "Tom ate an apple, Sue had tea, Ann slept.": ["Tom ate an apple.", "Sue had tea.", "Ann slept."],
    "Is Bob big? Al is tall!": ["Is Bob big?", "Al is tall!"],
    "Everyone knows Bob, Al likes him.": ["Everyone knows Bob.", "Al likes him."],
}


@pytest.mark.parametrize("text", KEEP_TOGETHER)
def test_one_sentence_stays_one(text):
    assert split_sentences(text) == [text]


@pytest.mark.parametrize("text", SPLITS)
def test_sentences_come_apart_where_the_words_leave_no_doubt(text):
    assert split_sentences(text) == SPLITS[text]


def _words(texts: list[str]) -> list[str]:
    return [w for t in texts for w in re.findall(r"[A-Za-z0-9'-]+", t)]


@pytest.mark.parametrize("text", [*KEEP_TOGETHER, *SPLITS])
def test_splitting_keeps_every_word_in_order(text):
    assert _words(split_sentences(text)) == _words([text])


def test_a_long_run_on_story_splits_in_linear_time():
    unit = "Bob went to see his sister, Mary Madonna had a daughter named Mary, Al stayed home. "
    short, long = unit * 200, unit * 2000
    start = time.process_time()
    few = split_sentences(short)
    mid = time.process_time()
    many = split_sentences(long)
    end = time.process_time()
    assert len(few) == 600 and len(many) == 6000
    assert few[:3] == ["Bob went to see his sister, Mary.", "Madonna had a daughter named Mary.", "Al stayed home."]
    assert end - mid < 40 * max(mid - start, 0.005)            # 10x the text: far from quadratic
