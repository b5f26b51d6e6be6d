"""The controlled-English fast path: each sentence form, negation, quoting, questions, and
sentences it must leave to the LLM."""

from __future__ import annotations

import pytest

from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_atom, parse_program, parse_query
from sym.core.logic.terms import Atom
from sym.core.reason.swm.english import Update, question_goal, relation_answer, split_sentences, third_person, translate


def clauses(sentence: str) -> list[str]:
    tr = translate(sentence)
    assert tr is not None, sentence
    for text in tr.clauses:
        parse_program(text)  # every clause is valid logic
    return tr.clauses


@pytest.mark.parametrize("sentence, expected", [
    ("Bob is big.", ["big(bob)."]),
    ("The bald eagle is not young.", ["~young('bald eagle')."]),
    ("The cat eats the bald eagle.", ["eats(cat, 'bald eagle')."]),
    ("The mouse does not see the cat.", ["~sees(mouse, cat)."]),
    ("The mouse doesn't chase the cat.", ["~chases(mouse, cat)."]),
    ("Bob is big and red.", ["big(bob).", "red(bob)."]),
    ("The cat chases the dog and the mouse.", ["chases(cat, dog).", "chases(cat, mouse)."]),
    ("Natasha is the granddaughter of Frances.", ["granddaughter_of(natasha, frances)."]),
    ("Anne is the mother-in-law of Bob.", ["mother_in_law_of(anne, bob)."]),
    ("Olga is a teacher.", ["teacher(olga)."]),
])
def test_facts(sentence, expected):
    tr = translate(sentence)
    assert tr.kind == "fact" and tr.nl == sentence and tr.updates == []
    assert clauses(sentence) == expected


@pytest.mark.parametrize("sentence, expected", [
    ("If something is big then it is red.", ["red(X) :- big(X)."]),
    ("If someone visits the cat then the cat is red.", ["red(cat) :- visits(X, cat)."]),
    ("If something chases the bear and it is red then the bear visits the squirrel.",
     ["visits(bear, squirrel) :- chases(X, bear), red(X)."]),
    ("If Charlie is smart then Charlie is big.", ["big(charlie) :- smart(charlie)."]),
    ("All cold, red things are nice.", ["nice(X) :- cold(X), red(X)."]),
    ("Red things are cold.", ["cold(X) :- red(X)."]),
    ("Big, furry things are nice.", ["nice(X) :- big(X), furry(X)."]),
    ("All big things are not green.", ["~green(X) :- big(X)."]),
    ("If something is not big then it is kind.", ["kind(X) :- ~big(X)."]),
    ("Young people are rough.", ["rough(X) :- young(X)."]),
    ("If the cat eats the bald eagle and the bald eagle is not big then the bald eagle likes the cat.",
     ["likes('bald eagle', cat) :- eats(cat, 'bald eagle'), ~big('bald eagle')."]),
    ("If someone is big and not red then they do not chase the cat.", ["~chases(X, cat) :- big(X), ~red(X)."]),
    ("If someone is kind and smart then they are nice.", ["nice(X) :- kind(X), smart(X)."]),
    ("If someone chases the cat and they need the dog then they like the mouse.",
     ["likes(X, mouse) :- chases(X, cat), needs(X, dog)."]),
    ("If something sees the dog then the dog needs it.", ["needs(dog, X) :- sees(X, dog)."]),
    ("If someone does not eat the dog then they are cold.", ["cold(X) :- ~eats(X, dog)."]),
    ("If B is the husband of A, and C is the son of B, then C is the son of A.",
     ["son_of(C, A) :- husband_of(B, A), son_of(C, B)."]),
    ("If someone is big then they chase the cat and they are red.",
     ["chases(X, cat) :- big(X).", "red(X) :- big(X)."]),
    ("Every big thing is red.", ["red(X) :- big(X)."]),
])
def test_rules(sentence, expected):
    assert translate(sentence).kind == "rule"
    assert clauses(sentence) == expected


def test_verbs_are_normalised_to_third_person_singular():
    assert [third_person(v) for v in ("chase", "see", "kiss", "carry", "watch", "play")] == \
        ["chases", "sees", "kisses", "carries", "watches", "plays"]
    # "they eat" (plural), "does not eat" and "eats" all give the same predicate
    assert clauses("If someone is big then they eat the cat.") == ["eats(X, cat) :- big(X)."]
    assert clauses("The dog does not eat the cat.") == ["~eats(dog, cat)."]


def test_multi_word_names_are_quoted_and_read_back_by_the_parser():
    (text,) = clauses("The bald eagle likes the grizzly bear.")
    (located,) = parse_program(text)
    assert located.clause == Atom("likes", ("bald eagle", "grizzly bear"))


def test_boxes_state_and_operations():
    state = translate("Box 0 contains the glass and the letter.")
    assert state.kind == "state"
    # "Box 0" names a box: its kind is said once with its contents (the updates clear contents only)
    assert state.clauses == ["contains(box_0, glass).", "contains(box_0, letter).", "box(box_0)."]
    assert state.updates == [Update("contains(box_0, X)", ["contains(box_0, X)"], [])]
    assert translate("Box 5 contains nothing.").clauses == ["box(box_5)."]
    assert translate("Box 2 is empty.").updates[0].remove == ["contains(box_2, X)"]
    ops = {
        "Put the letter and the watch into Box 0.": Update("", [], ["contains(box_0, letter)", "contains(box_0, watch)"]),
        "Remove the glass from Box 1.": Update("", ["contains(box_1, glass)"], []),
        "Move the contents of Box 5 to Box 0.": Update("contains(box_5, X)", ["contains(box_5, X)"], ["contains(box_0, X)"]),
    }
    for sentence, update in ops.items():
        tr = translate(sentence)
        assert (tr.kind, tr.clauses, tr.updates) == ("operation", [], [update]), sentence
    # items move one by one, each only if it is in the source box
    assert translate("Move the ice and the tea from Box 3 to Box 0.").updates == [
        Update("contains(box_3, ice)", ["contains(box_3, ice)"], ["contains(box_0, ice)"]),
        Update("contains(box_3, tea)", ["contains(box_3, tea)"], ["contains(box_0, tea)"])]


@pytest.mark.parametrize("sentence", [
    "James took his son Francisco out on a hunting trip.",
    "Frances made a pie for her granddaughter Mildred.",
    "Lena spent a great day shopping with her daughter, Tina.",
    "Natasha, Francisco's daughter, wanted to come, but they thought she was too young.",
    "It is raining.",
    "Everything is big.",
    "If Bob is big then something is red.",      # unsafe: the head's variable is unbound
    "The weather is nice today.",
    "Is Bob big?",
    "",
])
def test_sentences_outside_the_fast_path_return_none(sentence):
    assert translate(sentence) is None


def test_split_sentences_keeps_state_lists_one_per_sentence():
    text = ("Box 0 contains the glass and the letter, Box 1 contains the boot, Box 2 contains nothing. "
            "Remove the glass from Box 0. Natasha, Francisco's daughter, wanted to come. All cold, red things are nice.")
    assert split_sentences(text) == [
        "Box 0 contains the glass and the letter.", "Box 1 contains the boot.", "Box 2 contains nothing.",
        "Remove the glass from Box 0.", "Natasha, Francisco's daughter, wanted to come.",
        "All cold, red things are nice."]
    assert split_sentences("  ") == []


def test_truth_questions():
    assert question_goal("Charlie is furry.").query == "furry(charlie)"
    assert question_goal("The bald eagle does not eat the cat.").query == "~eats('bald eagle', cat)"
    assert question_goal("Is Charlie furry?").query == "furry(charlie)"
    assert question_goal("Does the cat eat the dog?").query == "eats(cat, dog)"
    assert question_goal("Does the cat not eat the dog?").query == "~eats(cat, dog)"
    goal = question_goal("Charlie is furry.")
    assert goal.kind == "truth"
    assert [goal.render(v) for v in ("true", "false", "unknown")] == ["True", "False", "Unknown"]


def test_relation_question_and_answer():
    goal = question_goal("James took Francisco hunting. How is Natasha related to Frances?")
    assert (goal.kind, goal.args, goal.question) == ("relation", ("natasha", "frances"), "How is Natasha related to Frances?")
    facts = [Atom("son_of", ("francisco", "frances")), Atom("granddaughter_of", ("natasha", "frances"))]
    assert relation_answer(facts, goal) == "Natasha is the granddaughter of Frances."
    assert relation_answer([Atom("mother_in_law_of", ("natasha", "frances"))], goal) == \
        "Natasha is the mother-in-law of Frances."
    assert relation_answer(facts[:1], goal) is None


def test_relation_answer_prefers_the_highest_ranked_candidate():
    goal = question_goal("How is Harold related to Dorothy?")
    facts = [Atom("father_of", ("harold", "dorothy")), Atom("father_in_law_of", ("harold", "dorothy"))]
    assert relation_answer(facts, goal) == "Harold is the father of Dorothy."
    rank = {facts[0]: 2, facts[1]: 4}.get
    assert relation_answer(facts, goal, rank=rank) == "Harold is the father-in-law of Dorothy."


def test_values_questions_render_items():
    goal = question_goal("What is contained in Box 0?")
    assert (goal.kind, goal.query) == ("values", "contains(box_0, X)")
    engine = Engine()
    engine.add_facts([Atom("contains", ("box_0", "letter")), Atom("contains", ("box_0", "watch"))])
    assert goal.render(engine.solve(parse_query(goal.query))) == "the letter, the watch"
    assert goal.render([]) == "nothing"
    who = question_goal("Who is the father of Bob?")
    assert who.query == "father_of(X, bob)" and who.render(["don"]) == "Don"


@pytest.mark.parametrize("question", ["Why is the sky blue?", "What is the capital of France and Spain?", "Hello", "?"])
def test_unknown_questions_return_none(question):
    assert question_goal(question) is None


VOCAB = ["If", "if", "then", "and", ",", "not", "does", "do", "is", "are", "the", "a", "Bob", "Box", "0", "big",
         "cat", "bald", "eagle", "chases", "chase", "something", "someone", "it", "they", "All", "things",
         "people", "of", "son", "B", "A", "contains", "nothing", "Move", "Put", "Remove", "from", "to", "into",
         "contents", "empty", "What", "How", "related", "Who", "?", "."]


def test_any_word_salad_is_translated_to_valid_logic_or_refused():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=400, deadline=None)
    @given(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=12))
    def check(words):
        text = " ".join(words)
        for sentence in split_sentences(text) + [text]:
            tr = translate(sentence)
            if tr is not None:
                for clause in tr.clauses:
                    parse_program(clause)
                for update in tr.updates:  # every variable of remove/add is bound by match
                    bound = set(parse_query(update.match).variables()) if update.match else set()
                    for text in update.remove + update.add:
                        assert set(parse_atom(text).variables()) <= bound
            question_goal(sentence)

    check()


def test_a_sentence_is_shown_as_sym_read_it_when_that_says_it_otherwise(sym):
    told = sym("/tell Yes, Bob is tall! Bob sings if Al dances. Al is short.")
    read_as = [s.read_as for s in told.sentences]
    assert read_as == ["Bob is tall.", "If Al dances then Bob sings.", ""]
    assert {it.text for s in told.sentences for it in s.items} == {"tall(bob).", "sings(bob) :- dances(al).", "short(al)."}
