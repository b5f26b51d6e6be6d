"""Reading model replies into items, and items into atoms (explore)."""

from __future__ import annotations

import pytest

from sym.core.reason.explore.items import (
    atom_of,
    clean_label,
    normalise,
    parse_items,
    read_decision,
    read_pairs,
    read_score,
)


@pytest.mark.parametrize("a, b", [
    ("Rain", "rain."),
    ("  RAIN  ", "rain"),
    ("The rain", "rain"),
    ("greenhouse-effect", "Greenhouse effect!"),
    ("children's health", "Childrens health"),
    ("global_warming", "global warming"),
])
def test_spellings_of_one_phrase_are_one_atom(a, b):
    assert atom_of(a) == atom_of(b)


def test_different_phrases_stay_different_atoms():
    assert atom_of("rain") != atom_of("heavy rain")
    assert normalise("the") == "the"          # an article alone is kept, not emptied


def test_words_that_name_prolog_builtins_are_renamed():
    assert atom_of("Halt") == "halt (item)"
    assert atom_of("true.") == "true (item)"
    assert atom_of("halt the project") == "halt the project"


@pytest.mark.parametrize("line, label", [
    ("1. Rain", "Rain"),
    ("2) Rain", "Rain"),
    ("(3) Rain", "Rain"),
    ("- Rain", "Rain"),
    ("• Rain", "Rain"),
    ("* **Rain**", "Rain"),
    ("iv. Rain", "Rain"),
    ('"Rain."', "Rain"),
    ("Step 4: Rain", "Rain"),
    ("3D printing", "3D printing"),
])
def test_numbering_bullets_and_markdown_are_stripped(line, label):
    assert clean_label(line) == label


def test_a_messy_reply_yields_only_its_items_in_order():
    reply = """Sure! Here are some causes:

1. **Greenhouse gases**
2) Deforestation – fewer trees take up CO2
- the Sun's activity.
* Greenhouse Gases!!
```
???
(4) Ocean currents: they move heat around
I hope this helps.
This line is commentary that runs on and on about many different things and is not an item at all
"""
    parsed = parse_items(reply)
    assert [label for _, label in parsed.items] == [
        "Greenhouse gases", "Deforestation", "the Sun's activity", "Ocean currents"]
    assert parsed.repeats == 1
    assert "Sure! Here are some causes:" in parsed.ignored and "???" in parsed.ignored
    assert len(parsed.ignored) == 5


def test_a_single_line_of_commas_is_a_list():
    assert [a for a, _ in parse_items("rain, wind; snow").items] == ["rain", "wind", "snow"]


def test_limit_keeps_the_first_items():
    parsed = parse_items("a1\nb2\nc3\nd4", limit=2)
    assert [a for a, _ in parsed.items] == ["a1", "b2"]
    assert parsed.ignored == ["c3", "d4"]


def test_an_empty_or_garbage_reply_has_no_items():
    assert parse_items("").items == []
    assert parse_items("\n\n  \n").items == []
    assert parse_items("!!!\n123\n---").items == []


@pytest.mark.parametrize("reply, decision", [
    ("True", True), ("**False.**", False), ("Answer: true", True), ("yes, it is", True),
    ("No.", False), ("\n\nFalse", False), ("maybe", None), ("", None), ("I think it is true", None),
])
def test_oracle_answers(reply, decision):
    assert read_decision(reply) is decision


@pytest.mark.parametrize("reply, score", [
    ("73", (73.0, 73.0)), ("Score: 150", (100.0, 150.0)), ("-20", (0.0, -20.0)), ("about 42.5/100", (42.5, 42.5)),
    ("1e9", (100.0, 1e9)), ("banana", None), ("", None),
])
def test_rater_scores_are_clamped_or_refused(reply, score):
    assert read_score(reply) == score


def test_constraint_pairs_must_name_known_atoms():
    known = {"clouds": "clouds", "sunshine": "Sunshine"}
    assert read_pairs("Clouds ; Sunshine\nclouds ; unicorns\nNone\nsunshine | clouds", known) == [("clouds", "sunshine")]
