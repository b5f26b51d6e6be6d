"""The controlled-English grammar, category by category, on sentences of invented words (see
tests/english_gen.py): each must translate to exactly the clauses the naming scheme gives,
up to variable names and body order; sentences outside the fragment must not translate."""

from __future__ import annotations

import pytest

from sym.core.reason.swm.english import question_goal, split_sentences, translate
from tests.english_gen import CATEGORIES, items, normal_clauses, normal_query

PER_CATEGORY = 30
SEED = 13


def translated(sentence: str) -> list[str] | None:
    found = translate(sentence)
    return None if found is None else normal_clauses(found.clauses)


def _cases(category: str):
    return [pytest.param(item, id=f"{category}-{i:02d}") for i, item in enumerate(items(category, PER_CATEGORY, SEED))]


STATEMENTS = [case for c in CATEGORIES if c not in ("questions", "outside", "counts") for case in _cases(c)]


@pytest.mark.parametrize("item", _cases("counts"))
def test_an_at_most_count_is_a_constraint_that_reads_back_through_its_canonical_form(item):
    found = translate(item.sentence)
    assert found is not None and found.clauses == item.clauses, (item.sentence, found)
    again = translate(found.paraphrase)
    assert again is not None and again.clauses == item.clauses


@pytest.mark.parametrize("item", STATEMENTS)
def test_statement_translates_to_the_clauses_of_the_naming_scheme(item):
    found = translate(item.sentence)
    assert found is not None, f"not understood: {item.sentence!r} (expected {item.clauses})"
    assert normal_clauses(found.clauses) == normal_clauses(item.clauses), \
        f"{item.sentence!r} gave {found.clauses}, expected {item.clauses}"


@pytest.mark.parametrize("item", _cases("questions"))
def test_question_gives_the_goal_of_the_naming_scheme(item):
    goal = question_goal(item.sentence)
    kind, query = item.goal
    assert goal is not None, f"not understood: {item.sentence!r} (expected {kind} {query})"
    assert (goal.kind, normal_query(goal.query)) == (kind, normal_query(query)), \
        f"{item.sentence!r} gave {goal.kind} {goal.query}, expected {kind} {query}"


@pytest.mark.parametrize("item", _cases("outside"))
def test_sentence_outside_the_fragment_is_not_translated(item):
    found = translate(item.sentence)
    assert found is None, f"{item.sentence!r} ({item.tags[0]}) gave {found.clauses}"


# -- the wrong translations of issue 13, and the plain sentences it could not read ---------

@pytest.mark.parametrize("sentence, expected", [
    ("Dogs are mammals.", ["mammal(X) :- dog(X)."]),
    ("Jompuses are not shy.", ["~shy(X) :- jompus(X)."]),
    ("Every dog is a mammal.", ["mammal(X) :- dog(X)."]),
    ("Each cat is furry.", ["furry(X) :- cat(X)."]),
    ("Alice and Bob are big.", ["big(alice).", "big(bob)."]),
    ("bob is big.", ["big(bob)."]),
    ("Rex is an umber.", ["umber(rex)."]),
    ("No cats are cold.", ["~cold(X) :- cat(X)."]),
    ("Furry cats are red.", ["red(X) :- furry(X), cat(X)."]),
    ("Wolves are afraid of mice.", ["afraid_of(X, mice) :- wolf(X)."]),
    ("Every mammal that lives in water is a swimmer.", ["swimmer(X) :- mammal(X), lives_in(X, water)."]),
    ("People who are kind are nice.", ["nice(X) :- kind(X)."]),
    ("Bob is big but not red.", ["big(bob).", "~red(bob)."]),
    ("Bob doesn't like Alice.", ["~likes(bob, alice)."]),
    ("Cats chase the dog.", ["chases(X, dog) :- cat(X)."]),
    ("Jay is the great grandson of John.", ["great_grandson_of(jay, john)."]),
    ("The triangle is to the left of the red square.", ["left_of(triangle, 'red square')."]),
    ("Box 0 is north of Box 1.", ["north_of(box_0, box_1)."]),
    ("If Bob is big then Alice is small.", ["small(alice) :- big(bob)."]),
    ("If B is the son of A, and C is the daughter of B, then C is the granddaughter of A.",
     ["granddaughter_of(C, A) :- son_of(B, A), daughter_of(C, B)."]),
])
def test_plain_sentences_from_the_issue_translate_by_the_naming_scheme(sentence, expected):
    assert translated(sentence) == normal_clauses(expected)


def test_a_bare_plural_is_a_kind_never_an_individual():
    for sentence in ("Dogs are mammals.", "Jompuses are not shy."):
        clauses = translate(sentence).clauses
        assert not any(c in ("mammals(dogs).", "~shy(jompuses).") for c in clauses), clauses


@pytest.mark.parametrize("sentence", [
    "The sky seems rather blue today.", "Most cats are lazy.", "Some dogs bark.", "Bob was big.",
    "Bob might be big.", "Bob likes a cat.", "Dogs is big.", "Bob usually runs.", "Big Bob is.",
])
def test_sentences_named_outside_by_the_naming_scheme_are_not_translated(sentence):
    assert translate(sentence) is None


@pytest.mark.parametrize("question, kind, query", [
    ("Is Rex sour?", "truth", "sour(rex)"),
    ("Is the following statement true or false? Rex is sour.", "truth", "sour(rex)"),
    ("Is the following statement true, false, or unknown? Rex is sour.", "truth", "sour(rex)"),
    ("Based on the above, is the following statement true or false? Rex is not sour.", "truth", "~sour(rex)"),
    ("Given the text, is the following claim true, false, or uncertain? Rex is sour.", "truth", "sour(rex)"),
    ("True or false: Rex is not sour.", "truth", "~sour(rex)"),
    ("True or false? Rex is sour.", "truth", "sour(rex)"),
    ("Does Bob like Alice?", "truth", "likes(bob, alice)"),
    ("Who is big?", "values", "big(X)"),
    ("What is Emily afraid of?", "values", "afraid_of(emily, X)"),
    ("Who is the grandparent of Kadw?", "values", "grandparent_of(X, kadw)"),
    ("Which box contains the pen?", "values", "contains(X, pen), box(X)"),
])
def test_questions_from_the_issue(question, kind, query):
    goal = question_goal(question)
    assert goal is not None and (goal.kind, normal_query(goal.query)) == (kind, normal_query(query))


@pytest.mark.parametrize("question", [
    "True or false: If Bob is tall, Alice is short.",      # split at its comma, it once judged "Alice is short."
    "Is the following statement true or false? If Bob is tall, Alice is short.",
    "True or false: Bob might be tall.", "True or false: Most cats are lazy.", "True or false: Bob was tall.",
])
def test_a_judged_statement_the_grammar_cannot_read_whole_is_not_judged_in_part(question):
    assert question_goal(question) is None


def test_the_normaliser_ignores_variable_names_and_body_order_but_nothing_else():
    assert normal_clauses(["p(Y) :- q(Y), r(Y, Z)."]) == normal_clauses(["p(A) :- r(A, B), q(A)."])
    assert normal_clauses(["p(X) :- q(X), r(X, Y)."]) != normal_clauses(["p(X) :- q(Y), r(X, Y)."])
    assert normal_clauses(["~p(X) :- q(X)."]) != normal_clauses(["p(X) :- q(X)."])
    assert normal_clauses(["p('a b')."]) != normal_clauses(["p(a_b)."])
    assert normal_query("contains(X, pen), box(X)") == normal_query("box(Y), contains(Y, pen)")


def test_tell_records_the_template_the_grammar_reads_a_new_predicate_by(sym):
    sym("/tell Wolves are afraid of mice. Emily is a mouse. Mice are afraid of wolves.")
    templates = {p.key: p.template for p in sym.shell.memory.schema.predicates.values()}
    assert templates["afraid_of/2"] == "{0} is afraid of {1}" and templates["mouse/1"] == "{0} is a mouse"
    answer = sym("/ask What is Emily afraid of?").outcome
    assert answer.answer == "wolves" and answer.steps[-1].startswith("afraid_of(emily, wolves).")


def test_sentences_split_after_a_stop_whatever_case_follows_but_not_after_a_title():
    assert split_sentences("bob is big. alice is red.") == ["bob is big.", "alice is red."]
    assert split_sentences("Dr. Smith is big. Box 6 contains the fig. Move the cup to Box 2.") == \
        ["Dr. Smith is big.", "Box 6 contains the fig.", "Move the cup to Box 2."]


def test_a_sentence_past_the_length_bounds_is_named_not_parsed():
    from sym.core.reason.swm.english import why_not

    long = "If something is kind and " + "smart and " * 9 + "red then it is nice."
    assert translate(long) is None and "too long" in why_not(long)
    assert translate("If something is kind and smart and red then it is nice.").clauses == \
        ["nice(X) :- kind(X), smart(X), red(X)."]


def test_value_answers_name_things_as_the_user_wrote_them(sym):
    sym("/tell Rex is a glorp. Mira is a glorp. Rex chases the mouse. Mira is big. The bald eagle is big.")
    assert sym("/ask Which glorp chases the mouse?").outcome.answer == "Rex"
    assert sym("/ask What is big?").outcome.answer == "Mira, the bald eagle"
    assert sym("/ask What does Rex chase?").outcome.answer == "the mouse"


@pytest.mark.parametrize("sentence", ["Bob runs fast.", "Bob goes home."])
def test_adverbs_are_never_read_as_things(sentence):
    assert translate(sentence) is None          # used to give runs(bob, fast)


def test_a_reflexive_object_is_the_clause_s_subject():
    assert translate("Bob loves himself.").clauses == ["loves(bob, bob)."]     # once loves(bob, himself)
    assert translate("Bob likes Al, who loves himself.").clauses == ["likes(bob, al).", "loves(al, al)."]


def test_a_reflexive_in_a_rule_is_its_antecedent():
    assert translate("If someone loves himself then he is vain.").clauses == ["vain(X) :- loves(X, X)."]
