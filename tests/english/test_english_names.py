"""Names as people write them are read by the English grammar without a model: letters of any
script (Zoë, José, Émile), an apostrophe before a capital (O'Brien), digits after a capital
(Person0); each becomes one constant, quoted where SWI-Prolog needs it, and a sentence the
grammar is unsure of (a possessive, a lower-case word with digits) is refused, never misstated."""

from __future__ import annotations

import random
import unicodedata

import pytest

from sym.core.logic.parser import parse_program
from sym.core.logic.terms import format_const
from sym.core.reason.swm.english import translate
from sym.repl.render import to_text
from tests.english_gen import Lexicon, fact

ACCENTED = {"a": "á", "e": "ë", "i": "í", "o": "ö", "u": "ü"}


def written(rng: random.Random, name: str) -> str:
    """An invented name, written the way real names are: accented, O'-prefixed or numbered."""
    form = rng.randrange(4)
    if form == 0:
        at = next((i for i, c in enumerate(name) if c in ACCENTED), None)
        return name if at is None else name[:at] + ACCENTED[name[at]] + name[at + 1:]
    if form == 1:
        return f"{rng.choice(['O', 'D', 'Mc'])}'{name}"
    if form == 2:
        return f"{name}{rng.randint(0, 99)}"
    return name.upper()[0] + name[1:].replace(name[-1], "ñ") if name[-1] in "nm" else name


@pytest.mark.parametrize("sentence, clause", [
    ("Zoë is a teacher.", "teacher(zoë)."),
    ("O'Brien likes José.", "likes('o\\'brien', josé)."),
    ("O’Brien doesn’t like Zoë.", "~likes('o\\'brien', zoë)."),
    ("Person0 is a teacher.", "teacher(person0)."),
    ("Émile is tall.", "tall(émile)."),
    ("José García is the father of Zoë.", "father_of(josé_garcía, zoë)."),
    ("Zoe\u0308 is a teacher.", "teacher(zoë)."),          # a decomposed ë is the same name
])
def test_real_names_are_read_without_a_model(sentence, clause):
    translation = translate(sentence)
    assert translation is not None, sentence
    assert translation.clauses == [clause]
    assert [str(loc.clause) + "." for loc in parse_program(clause)] == [clause]     # reads back as itself


@pytest.mark.parametrize("sentence", ["Bob's cat is big.", "o'brien is tall.", "h2o is wet.", "Zoë is Émile.",
                                      "Rock'n'roll is loud.", "Zoë is naïve."])
def test_what_the_grammar_is_unsure_of_is_refused(sentence):
    assert translate(sentence) is None


def test_invented_names_written_like_real_ones_become_one_constant_each():
    rng = random.Random(33)
    for _ in range(300):
        lx = Lexicon(rng)
        a, b = written(rng, lx.name_word()), written(rng, lx.name_word())
        ca, cb = unicodedata.normalize("NFC", a).lower(), unicodedata.normalize("NFC", b).lower()
        adj, noun, verb = lx.adj(), lx.noun(), lx.verb()
        for sentence, expected in [(f"{a} is {adj}.", fact(adj, ca)),
                                   (f"{a} is {noun.article} {noun.sg}.", fact(noun.sg, ca)),
                                   (f"{a} {verb.s} {b}.", fact(verb.s, ca, cb)),
                                   (f"{a} is not {adj}.", fact(adj, ca, neg=True))]:
            translation = translate(sentence)
            assert translation is not None and translation.clauses == [expected], (sentence, translation)
            assert format_const(ca) in expected


def test_told_names_are_stored_and_answered_in_the_words_they_were_told(sym):
    assert sym("/tell O'Brien likes José.").ok      # no model: the grammar reads it
    assert sym("/tell Zoë is a teacher.").ok
    assert to_text(sym("/ask Who likes José?")).splitlines()[0] == "O'Brien"
    assert to_text(sym("/ask Is Zoë a teacher?")).splitlines()[0] == "true"
    listing = to_text(sym("/listing"))
    assert "likes('o\\'brien', josé).    % O'Brien likes José." in listing
