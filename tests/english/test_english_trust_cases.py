"""The cases of issue 27 ("Trust") in real English: every sentence of its "Why" list, and
sentences the grammar was not written for — each either refused or read exactly one way. Plain
sentences next to them must still read as before, so refusing is never bought with coverage."""

from __future__ import annotations

import pytest

from sym.core.reason.swm.english import question_goal, split_sentences, translate
from tests.conftest import texts
from tests.english_gen import normal_clauses


def refused(sentence: str) -> bool:
    found = translate(sentence)
    return found is None or (not found.clauses and not found.updates)


def reads(sentence: str) -> list[str] | None:
    found = translate(sentence)
    return None if found is None else normal_clauses(found.clauses)


# -- the "Why" list --------------------------------------------------------------------------

WHY_REFUSED = {
    "Bob has arrived.": "has(bob, arrived).",                                   # perfect tense read as owning
    "Two cats are black.": "black(X) :- two(X), cat(X).",                       # a count becomes a rule
    "Unless Bob is tall, Al is short.": "tall(unless_bob).",                    # subordinator read as a name
    "Bob is a former president.": "former(bob).",                               # privative read as intersective
    "Bob is a good cook.": "good(bob).",
    "Pandas are rare.": "rare(X) :- panda(X).",                                 # a property of the kind
    "Bob and Alice are different.": "different(bob).",                          # a reciprocal distributed
    "Bob sits between Al and Sue.": "sits_between(bob, al).",
    "Bill pays the bill.": "pays(bill, bill).",                                 # name and description share
    "Bob drives the car fast.": "drives(bob, 'car fast').",                     # an adverb in the object
    "Insects that fish eat are small.": "small(X) :- insect(X), fishes(X, eat).",   # fish: noun or verb
}


@pytest.mark.parametrize("sentence", WHY_REFUSED)
def test_each_misread_sentence_of_the_issue_is_refused(sentence):
    found = translate(sentence)
    assert refused(sentence), f"{sentence!r} gave {found.clauses}, once {WHY_REFUSED[sentence]!r}"


def test_the_dog_in_a_consequent_is_the_dog_of_the_antecedent():
    assert reads("If a dog is hungry then the dog barks.") == normal_clauses(["barks(X) :- dog(X), hungry(X)."])


def test_coordinated_verbs_share_their_object_or_the_sentence_is_refused():
    found = reads("Bob chases and bites the cat.")
    assert found is None or found == normal_clauses(["chases(bob, cat).", "bites(bob, cat)."]), found


def test_an_irregular_plural_is_read_through_the_noun_lexicon():
    assert reads("Leaves are green.") == normal_clauses(["green(X) :- leaf(X)."])


def test_only_a_container_has_its_contents_replaced(sym):
    sym("/tell The house contains the kitchen. The house contains the garage.")
    assert {"contains(house, kitchen).", "contains(house, garage)."} <= texts(sym.shell.memory)
    sym("/tell Box 1 contains the apple. Box 1 contains the pear.")
    assert "contains(box_1, pear)." in texts(sym.shell.memory)
    assert "contains(box_1, apple)." not in texts(sym.shell.memory)


def test_a_declared_container_has_its_contents_replaced(sym):
    sym("/fact container(house).")
    sym("/tell The house contains the kitchen. The house contains the garage.")
    assert "contains(house, garage)." in texts(sym.shell.memory)
    assert "contains(house, kitchen)." not in texts(sym.shell.memory)
    sym("/rule container(X) :- barn(X).")
    sym("/fact barn(shed).")
    sym("/tell The shed contains the cow. The shed contains the pig.")
    assert "contains(shed, cow)." not in texts(sym.shell.memory)


def test_a_name_and_a_description_never_meet_across_sentences(sym):
    """"Bill is tall." then "The bill is red.": the bill is not Bill, so the grammar leaves the
    second sentence (to a model, none here): nothing is stored, and the message says why."""
    sym("/tell Bill is tall.")
    before = texts(sym.shell.memory)
    result = sym("/tell The bill is red.")
    assert texts(sym.shell.memory) == before
    assert "'bill' is a description here and a name" in result.sentences[0].problem
    within = sym("/tell The invoice is red. The penny is bright. Penny is happy.")
    assert "happy(penny)." not in texts(sym.shell.memory)
    assert any("a name here and a description" in t.problem for t in within.sentences)


def test_a_refusal_names_its_reason_when_no_model_can_read_the_sentence(sym):
    result = sym("/tell Two cats are black.")
    assert "'two' is a quantity word" in result.sentences[0].problem


def test_contains_on_a_noun_is_a_plain_fact_and_on_a_box_a_state():
    house = translate("The house contains the kitchen.")
    assert (house.kind, house.clauses, house.updates) == ("fact", ["contains(house, kitchen)."], [])
    box = translate("Box 3 contains the glass.")
    assert box.kind == "state" and box.clauses == ["contains(box_3, glass).", "box(box_3)."] and box.updates


# -- sentences the grammar was not written for ----------------------------------------------

ADVERSARIAL_REFUSED = [
    # reports: the clause beside a verb of saying is someone's claim
    "Al is tall, Bob thinks.", "Well, Al is tall, Bob says.", "Al is tall and Bob agrees.", "Bob believes.",
    # counts and quantity words
    "Three dogs bark.", "Many students are tired.", "Bob owns several cars.", "Both cats are black.",
    "A few birds sing.", "Alice feeds 3 cats.", "Certain mushrooms are poisonous.", "Most dogs like Bob.",
    # tense and aspect
    "Bob has eaten the cake.", "Alice is sleeping.", "Bob had left.", "The dogs have barked.",
    "Alice is reading the book.", "Bob has been sick.",
    # clause openers
    "Although Bob is rich, Al is poor.", "Because Bob is wet, Al is cold.", "Suppose Bob is tall.",
    "Assume that Alice is happy.", "Once Bob is ready, Al is ready.", "Bob asks if Al sings.", "Bob sings only if Al dances.",
    # privative, subsective and kind-level
    "Bob is an alleged thief.", "Alice is a fake doctor.", "Jumbo is a small elephant.",
    "Bob is a heavy smoker.", "Alice is a skilled surgeon.", "Bob is a future king.",
    "Dinosaurs are extinct.", "Mosquitoes are common.", "Tigers are endangered.", "All dodos are extinct.",
    # reciprocal, collective, three-place
    "Bob and Alice are married.", "Bob and Alice meet.", "Bob and Alice love each other.",
    "Bob and Sue are siblings.", "Tom, Ann and Sue are friends.", "Bob and Al fight.",
    "The cat is among the pigeons.", "Bob stands between the car and the house.",
    # a name and a description sharing a word
    "Mark marks the mark.", "The rose smells Rose.",
    # adverbs, temporal phrases, durations, resultatives
    "Bob runs Mondays.", "Bob sleeps the whole night.", "Bob paints the wall white.", "Bob works three hours.",
    "Bob visits Alice daily.", "Bob reads the book again.", "Bob drives home.", "Alice walks every day.",
    "Bob cuts the grass short.", "Bob kicks the door open.", "Bob paints the house red.", "Bob runs today.",
    "Bob eats cake every morning.", "Bob walks two miles.", "Bob knows Alice well.",
    # the same classes, in other words or places
    "Twenty dogs bark.", "Dozens of dogs bark.", "Bob is a fine cook.", "Bob is a fast runner.",
    "Bob is an old friend.", "Bob is a former student of Al.", "Bob is tall unless Al is short.",
    "Bob and Alice kiss.", "Bob and Alice are enemies.",
    # a graded form with nothing to grade against ("taller" than whom?)
    "Bob is taller.", "Alice is happier.", "Bob is tallest.", "Rex is a bigger dog.", "Bob is better.",
    "All older cats are lazy.", "If Bob is nicer then Al is sad.",
    # a linking verb's property, or an object and its complement, read as one thing
    "Bob feels sick.", "Alice turns red.", "Bob does not stay calm.", "Cats remain quiet.",
    "Bob calls Alice Sue.", "The club elects Bob President.", "Alice considers Bob smart.",
]


@pytest.mark.parametrize("sentence", ADVERSARIAL_REFUSED)
def test_a_sentence_outside_the_plain_reading_is_refused(sentence):
    found = translate(sentence)
    assert refused(sentence), f"{sentence!r} gave {found.clauses}"


ADVERSARIAL_READ = {
    "Bob is big.": ["big(bob)."],
    "Bob is tall.": ["tall(bob)."],
    "Bob is different.": None,                       # may be read different(bob); nothing is asserted
    "Alice is a doctor.": ["doctor(alice)."],
    "Bob is not a cat.": ["~cat(bob)."],
    "Big things are heavy.": ["heavy(X) :- big(X)."],
    "All big, red things are heavy.": ["heavy(X) :- big(X), red(X)."],
    "Good people are kind.": ["kind(X) :- good(X)."],
    "Cats are animals.": ["animal(X) :- cat(X)."],
    "All dogs are mammals.": ["mammal(X) :- dog(X)."],
    "Children are young.": ["young(X) :- child(X)."],
    "Mice are small.": ["small(X) :- mouse(X)."],
    "Wolves are afraid of mice.": ["afraid_of(X, mice) :- wolf(X)."],
    "Women are adults.": ["adult(X) :- woman(X)."],
    "Bob likes Alice.": ["likes(bob, alice)."],
    "Bob walks.": ["walks(bob)."],
    "Bob does not swim.": ["~swims(bob)."],
    "The cat chases the mouse.": ["chases(cat, mouse)."],
    "Bob chases the cat and the dog.": ["chases(bob, cat).", "chases(bob, dog)."],
    "Bob and Alice are happy.": ["happy(bob).", "happy(alice)."],
    "Alice is the mother of Bob.": ["mother_of(alice, bob)."],
    "Bob is to the left of Alice.": ["left_of(bob, alice)."],
    "If something is big then it is heavy.": ["heavy(X) :- big(X)."],
    "If Bob is hungry then Alice is sad.": ["sad(alice) :- hungry(bob)."],
    "If a cat is hungry then the cat meows.": ["meows(X) :- cat(X), hungry(X)."],
    "The garage contains the car.": ["contains(garage, car)."],
    "Geese are birds.": ["bird(X) :- goose(X)."],
    "Sheep are animals.": ["animal(X) :- sheep(X)."],
    "Bob meets Alice.": ["meets(bob, alice)."],
    "Bob kisses Alice.": ["kisses(bob, alice)."],
    "Bob is in the house.": ["in(bob, house)."],
    "Bob is clever.": ["clever(bob)."],                # -er, but no form of another word
    "Bob is bitter.": ["bitter(bob)."],
    "Bob is taller than Al.": ["taller_than(bob, al)."],
    "Bob looks at Alice.": ["looks_at(bob, alice)."],     # a linking verb with its preposition
    "Bob feels the cloth.": ["feels(bob, cloth)."],
    "Bob keeps Rex.": ["keeps(bob, rex)."],
    "Bob calls Alice.": ["calls(bob, alice)."],
    "Bob visits New York.": ["visits(bob, new_york)."],
}


@pytest.mark.parametrize("sentence", ADVERSARIAL_READ)
def test_a_plain_sentence_still_reads_as_before(sentence):
    expected = ADVERSARIAL_READ[sentence]
    if expected is not None:
        assert reads(sentence) == normal_clauses(expected)


READ_OR_REFUSED = {   # intersective, but a lexicon may not settle it: one reading or none
    "Bob is a wealthy banker.": ["wealthy(bob).", "banker(bob)."],
    "If a dog is hungry then the cat barks.": ["barks(cat) :- dog(X), hungry(X)."],
    "Cacti are plants.": ["plant(X) :- cactus(X)."],
}


@pytest.mark.parametrize("sentence", READ_OR_REFUSED)
def test_a_sentence_the_lexicon_may_not_settle_is_read_one_way_or_refused(sentence):
    found = reads(sentence)
    assert found is None or found == normal_clauses(READ_OR_REFUSED[sentence]), found


QUESTIONS_REFUSED = [
    "Are Bob and Alice friends?", "Are Bob and Alice different?", "Is Bob a former president?",
    "Is Bob a good cook?", "Are two cats black?", "Has Bob arrived?", "Is Bob between Al and Sue?",
    "Do Bob and Alice meet?", "Are pandas rare?", "Is Alice sleeping?", "Does Bob drive the car fast?",
    "Is the cat among the pigeons?", "Is Rex a good dog?", "Do Bob and Alice kiss?", "Has Bob eaten the cake?",
    "Does Bob paint the house red?",
]


@pytest.mark.parametrize("question", QUESTIONS_REFUSED)
def test_a_question_whose_statement_would_be_refused_is_refused(question):
    goal = question_goal(question)
    assert goal is None, f"{question!r} asked {goal.kind} {goal.query}"


def test_plain_questions_still_become_goals():
    assert question_goal("Is Bob big?").query == "big(bob)"
    assert question_goal("Is Bob different?") is None or question_goal("Is Bob different?").query == "different(bob)"


SPLITS = {
    "Dr. Smith is kind. Mr. Jones is rude.": ["Dr. Smith is kind.", "Mr. Jones is rude."],
    "Mrs. Smith is kind. Prof. Jones is rude.": ["Mrs. Smith is kind.", "Prof. Jones is rude."],
    "Ms. Lee is tall. St. Paul is old.": ["Ms. Lee is tall.", "St. Paul is old."],
    "Bob lives on St. Mark Street. Al is here.": ["Bob lives on St. Mark Street.", "Al is here."],
    "Bob Jr. is tall. Al is short.": ["Bob Jr. is tall.", "Al is short."],
    "Bob likes fruit, e.g. apples. Al is short.": ["Bob likes fruit, e.g. apples.", "Al is short."],
    "Bob is a vet, i.e. Bob treats animals. Al is short.": ["Bob is a vet, i.e. Bob treats animals.", "Al is short."],
    "Bob lives in the U.S. and Alice is happy.": ["Bob lives in the U.S. and Alice is happy."],
}


@pytest.mark.parametrize("text", SPLITS)
def test_the_splitter_never_breaks_at_an_abbreviation(text):
    found = split_sentences(text)
    assert found == SPLITS[text], found
