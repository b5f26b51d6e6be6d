"""Step 3's shape checks (issue 34): a formula whose shape contradicts its sentence goes back to
the model instead of into the program: a sentence about a named individual read as about
everything, and a conditional or general sentence read as "everything has every property".
Invented words, so the check cannot lean on a lexicon of the development data."""

from __future__ import annotations

import pytest

from sym.core.reason.pot.faithful import compared_with_all, misread, ungrounded
from sym.core.reason.pot.vocabulary import FunctionStep, Kinds, SortStep, Vocabulary, Words

VOCAB = Vocabulary(Kinds.model_validate({"sorts": [{"name": "Thing", "closed": False, "members": ["zorba", "quill"]}]}),
                   Words.model_validate({"functions": [
                       {"name": n, "args": ["Thing"], "result": "Bool", "position": False}
                       for n in ("blicket", "glorps", "fep", "wug")]}))


@pytest.mark.parametrize("sentence, formula, fmt", [
    ("If a blicket glorps, then it is fep.", "ForAll([x], And(glorps(x), fep(x)))", "json"),
    ("All blickets that glorp are fep.", "ForAll([x], And(blicket(x), glorps(x), fep(x)))", "json"),
    ("Whoever glorps is a wug.", "(forall ((x Thing)) (and (glorps x) (wug x)))", "smt2"),
    ("Zorba is either a wug or a fep.", "ForAll([x], Or(wug(x), fep(x)))", "json"),
    ("Quill glorps.", "(forall ((x Thing)) (glorps x))", "smt2"),
])
def test_a_formula_that_contradicts_its_sentence_shape_goes_back(sentence, formula, fmt):
    assert misread(formula, sentence, VOCAB, fmt) is not None


@pytest.mark.parametrize("sentence, formula, fmt", [
    ("If a blicket glorps, then it is fep.", "ForAll([x], Implies(And(blicket(x), glorps(x)), fep(x)))", "json"),
    ("No wug is fep.", "ForAll([x], Not(And(wug(x), fep(x))))", "json"),
    ("Every wug glorps.", "(forall ((x Thing)) (=> (wug x) (glorps x)))", "smt2"),
    ("Zorba is either a wug or a fep.", "Or(wug(zorba), fep(zorba))", "json"),
    ("Quill glorps.", "(glorps quill)", "smt2"),
    ("Wugs glorp.", "ForAll([x], Implies(wug(x), glorps(x)))", "json"),
    ("Some blicket is fep.", "Exists([x], And(blicket(x), fep(x)))", "json"),
    ("If Zorba glorps, then every wug is fep.", "Implies(glorps(zorba), ForAll([x], Implies(wug(x), fep(x))))",
     "json"),
])
def test_a_formula_of_its_sentence_shape_passes(sentence, formula, fmt):
    assert misread(formula, sentence, VOCAB, fmt) is None


GROUNDED = Vocabulary(Kinds.model_validate({"sorts": [{"name": "Thing", "closed": False, "members": ["zorba"]}]}),
                      Words.model_validate({"functions": [
                          {"name": n, "args": ["Thing"], "result": r, "position": False}
                          for n, r in (("glorps_at_home", "Bool"), ("is_active", "Bool"), ("wug_blicket", "Bool"),
                                       ("fep", "Bool"), ("place", "Int"))]}))


@pytest.mark.parametrize("sentence, formula", [
    ("Zorba snarfs at home.", "glorps_at_home(zorba)"),          # "glorps" is the model's, not the sentence's
    ("Zorba is inactive.", "is_active(zorba)"),                   # a word the sentence does not say
    ("Every blicket is fep.", "ForAll([x], Implies(wug_blicket(x), fep(x)))"),
])
def test_a_predicate_must_say_only_the_sentences_words(sentence, formula):
    problem = ungrounded(formula, sentence, GROUNDED)
    assert problem is not None and "which the sentence does not" in problem


def test_the_word_a_camel_case_name_adds_is_named_alone():
    """Seen: "'isRed' says 'isred', which the sentence does not" for "The black book is second"."""
    vocab = Vocabulary(Kinds.model_validate({"sorts": [{"name": "Thing", "closed": False, "members": ["zorba"]}]}),
                       Words.model_validate({"functions": [
                           {"name": "isRed", "args": ["Thing"], "result": "Bool", "position": False}]}))
    assert ungrounded("isRed(zorba)", "Zorba is second.", vocab) == (
        "'isRed' says 'red', which the sentence does not; use only names for what it says")


@pytest.mark.parametrize("sentence, formula", [
    ("Zorba glorps at home.", "glorps_at_home(zorba)"),
    ("Zorba is active.", "is_active(zorba)"),
    ("Every wug that is a blicket is fep.", "ForAll([x], Implies(wug_blicket(x), fep(x)))"),
    ("Zorba is third.", "place(zorba) == 3"),                     # a number's function is the model's own name
])
def test_a_predicate_of_the_sentences_words_passes(sentence, formula):
    assert ungrounded(formula, sentence, GROUNDED) is None


NAMED = Vocabulary(Kinds.model_validate({"sorts": [{"name": "Thing", "closed": True,
                                                     "members": ["blue_wug", "red_wug", "zorba"]}]}),
                   Words.model_validate({"functions": [
                       {"name": n, "args": ["Thing"], "result": r, "position": False}
                       for n, r in (("isBlue", "Bool"), ("red", "Bool"), ("glorps", "Bool"), ("wug", "Bool"),
                                    ("place", "Int"))]}))


@pytest.mark.parametrize("sentence, formula", [
    # seen with the reference model: every word is the sentence's, and nothing it says is
    ("The blue wug is left of the red wug.", "Xor(isBlue(blue_wug), red(red_wug))"),
    ("The blue wug is left of the red wug.", "(xor (isBlue blue_wug) (red red_wug))"),
    ("The red wug is left of Zorba.", "And(red(red_wug), wug(red_wug))"),
])
def test_a_property_that_only_repeats_its_arguments_name_goes_back(sentence, formula):
    problem = ungrounded(formula, sentence, NAMED)
    assert problem is not None and "only repeats what" in problem, problem


@pytest.mark.parametrize("sentence, formula", [
    ("The red wug glorps.", "glorps(red_wug)"),
    ("The red wug glorps.", "And(glorps(red_wug), wug(red_wug))"),     # a repeat beside what it says
    ("Zorba is a wug.", "wug(zorba)"),
    ("Every wug glorps.", "ForAll([x], Implies(wug(x), glorps(x)))"),
    ("The blue wug is left of the red wug.", "place(blue_wug) < place(red_wug)"),
])
def test_a_property_the_sentence_states_of_a_named_thing_passes(sentence, formula):
    assert ungrounded(formula, sentence, NAMED) is None


def test_step_two_refuses_a_property_named_with_words_the_text_does_not_use():
    from sym.core.reason.pot.vocabulary import check_words

    kinds = Kinds.model_validate({"sorts": [{"name": "Thing", "closed": False, "members": ["zorba"]}]})
    words = Words.model_validate({"functions": [
        {"name": "is_active", "args": ["Thing"], "result": "Bool", "position": False},
        {"name": "snarfs_at_home", "args": ["Thing"], "result": "Bool", "position": False},
        {"name": "rank", "args": ["Thing"], "result": "Int", "position": False}]})
    text = "Zorba is inactive. Zorba snarfs at home. Zorba is third."
    assert check_words(words, kinds, text) == [
        "'is_active' says 'active', which the text does not; name it with the text's own words"]
    assert check_words(words, kinds) == []          # without the text: names and sorts only


def test_a_formula_true_of_anything_goes_back_and_is_never_a_verdict(ollama_server, shell):
    import json

    from sym.core.reason.pot.tasks import Encoding, decide_claim
    from tests.prove.test_steps_llm import llm_of, requests, script

    llm = llm_of(shell, ollama_server)
    kinds = {"sorts": [{"name": "Thing", "closed": False, "members": ["zorba"]}]}
    words = {"functions": [{"name": "wug", "args": ["Thing"], "result": "Bool", "position": False},
                           {"name": "fep", "args": ["Thing"], "result": "Bool", "position": False}]}
    tautology = json.dumps({"lines": [
        {"text": "Zorba is a wug.", "form": "formula", "formula": "wug(zorba)"},
        {"text": "claim) Zorba is a fep.", "form": "formula", "formula": "Or(fep(zorba), Not(fep(zorba)))"}]})
    fixed = json.dumps({"lines": [{"text": "claim) Zorba is a fep.", "form": "formula", "formula": "fep(zorba)"}]})
    script(ollama_server, kinds, words, tautology, fix=fixed)
    status, detail = decide_claim("Zorba is a wug.", "Zorba is a fep.", llm, encoding=Encoding("json", "steps"))
    assert status == "unknown", detail            # "proved" by logic alone was not taken
    assert any("true of anything" in e for e in detail["errors"]), detail
    assert len(requests(ollama_server, "were rejected")) == 1


UNSAID_WORDS = {"functions": [{"name": "wug", "args": ["Thing"], "result": "Bool", "position": False},
                              {"name": "fep", "args": ["Thing"], "result": "Bool", "position": False},
                              {"name": "lunches_at_home", "args": ["Thing"], "result": "Bool", "position": False}]}


def _drop_script(server, premises: list[tuple[str, str | None]]) -> None:
    import json

    from tests.prove.test_steps_llm import script

    kinds = {"sorts": [{"name": "Thing", "closed": False, "members": ["zorba"]}]}
    lines = [{"text": t, "form": "formula", "formula": f} if f else {"text": t, "form": "none"} for t, f in premises]
    # a sentence naming zorba is not "no condition": it goes back, and stays unsaid (no word for it is left)
    server.reply(json.dumps({"lines": [ln for ln in lines if ln["form"] == "none"]}), when="were rejected")
    script(server, kinds, UNSAID_WORDS, json.dumps({"lines": [
        *lines, {"text": "claim) Zorba is a fep.", "form": "formula", "formula": "fep(zorba)"}]}))


def test_a_word_the_text_never_uses_is_dropped_after_its_repairs_and_the_rest_still_proves(ollama_server, shell):
    from sym.core.reason.pot.tasks import Encoding, decide_claim
    from tests.prove.test_steps_llm import llm_of

    _drop_script(ollama_server, [("Every wug is a fep.", "ForAll([x], Implies(wug(x), fep(x)))"),
                                 ("Zorba is a wug.", "wug(zorba)"), ("Zorba snarfs at home.", None)])
    run = llm_of(shell, ollama_server)
    status, detail = decide_claim("Every wug is a fep. Zorba is a wug. Zorba snarfs at home.", "Zorba is a fep.",
                                  run, encoding=Encoding("json", "steps"))
    assert status == "proved", detail                 # a premise left out only weakens: the proof stands
    assert any("'lunches_at_home' says 'lunches'" in e for e in detail["errors"]), detail
    step3 = [c for c in ollama_server.chats if "Step 3:" in c.last_user]
    assert step3 and "lunches_at_home" not in step3[0].last_user          # step 3 never offers the dropped word


def test_with_a_word_dropped_an_unknown_is_not_an_answer(ollama_server, shell):
    from sym.core.reason.pot.tasks import Encoding, decide_claim
    from tests.prove.test_steps_llm import llm_of

    _drop_script(ollama_server, [("Every wug is a fep.", "ForAll([x], Implies(wug(x), fep(x)))"),
                                 ("Zorba snarfs at home.", None)])
    run = llm_of(shell, ollama_server)
    status, detail = decide_claim("Every wug is a fep. Zorba snarfs at home.", "Zorba is a fep.",
                                  run, encoding=Encoding("json", "steps"))
    assert status is None and "unknown, but 1 premise(s) could not be encoded: Zorba snarfs at home." \
        in detail["error"], detail


def test_no_word_left_or_another_fault_still_fails_step_two():
    from sym.core.reason.pot.vocabulary import without_faulty

    kinds = Kinds.model_validate({"sorts": [{"name": "Thing", "closed": False, "members": ["zorba"]}]})
    text = "Every wug is a fep. Zorba snarfs at home."
    words = Words.model_validate(UNSAID_WORDS)
    kept, dropped = without_faulty(words, kinds, text) or (None, None)
    assert dropped == ["lunches_at_home(Thing)"] and [f.name for f in kept.functions] == ["wug", "fep"]
    only = Words.model_validate({"functions": [UNSAID_WORDS["functions"][2]]})
    assert without_faulty(only, kinds, text) is None                       # nothing would be left
    twice = Words.model_validate({"functions": [*UNSAID_WORDS["functions"],
                                                {**UNSAID_WORDS["functions"][0], "args": ["Thing", "Thing"]}]})
    assert without_faulty(twice, kinds, text) is None                      # a name used twice is still wrong
    assert without_faulty(Words.model_validate({"functions": UNSAID_WORDS["functions"][:2]}), kinds, text) is None


MISPLACED = ("position: a position numbers the members of a closed sort 1..N, and 'Person' lists no fixed members; "
             "give the position to the sort whose members the text lists")


@pytest.mark.parametrize("books, problems, kept", [
    # seen on LogicalDeduction: position(Person), Person open and empty, beside rank(Book) for the five
    # books the text was about; every formula about a book's position then failed
    ("rank", [MISPLACED], [("rank", ["Book"])]),
    # seen with the reference model: the books' position under the same name; every repair kept both,
    # and dropping by name dropped the books' too, leaving no program
    ("position", [MISPLACED, "'position' is already a name; choose another for this function"],
     [("position", ["Book"])]),
])
def test_a_position_over_a_sort_with_no_listed_members_goes_back_and_is_dropped_at_last(books, problems, kept):
    from sym.core.reason.pot.vocabulary import check_words, without_faulty

    kinds = Kinds.model_validate({"sorts": [{"name": "Person", "closed": False, "members": []},
                                            {"name": "Book", "closed": True, "members": ["red_book", "blue_book"]}]})
    words = Words.model_validate({"functions": [
        {"name": "position", "args": ["Person"], "result": "Int", "position": True},
        {"name": books, "args": ["Book"], "result": "Int", "position": True}]})
    text = "The red book is left of the blue book."
    assert check_words(words, kinds, text) == problems
    left, dropped = without_faulty(words, kinds, text) or (None, None)
    assert dropped == ["position(Person)"] and [(f.name, f.args) for f in left.functions] == kept


def test_position_on_a_property_means_nothing_and_is_not_sent_back():
    """Seen on FOLIO with the reference model: every Bool function over Person (opened: the text
    names only Bonnie) came with "position": true; each was sent back as a misplaced position,
    and step 2 spent its repairs on a flag that changes nothing."""
    from sym.core.reason.pot.vocabulary import check_words, without_faulty

    kinds = Kinds.model_validate({"sorts": [{"name": "Person", "closed": False, "members": ["bonnie"]}]})
    words = Words.model_validate({"functions": [
        {"name": "chaperone", "args": ["Person"], "result": "Bool", "position": True},
        {"name": "student", "args": ["Person"], "result": "Bool", "position": True}]})
    text = "Bonnie is a student. If people chaperone dances, they are not students."
    assert check_words(words, kinds, text) == []
    assert without_faulty(words, kinds, text) is None                      # nothing to drop
    assert Vocabulary(kinds, words).position_settings("json") == []


def test_a_function_declared_twice_alike_is_kept_once_and_otherwise_still_goes_back():
    """Seen on FOLIO with the reference model: step 2 listed four functions twice, word for word,
    and a repair was spent on "already a name"."""
    from sym.core.reason.pot.vocabulary import check_words

    kinds = Kinds.model_validate({"sorts": [{"name": "Person", "closed": False, "members": ["james"]}]})
    manager = {"name": "manager", "args": ["Person"], "result": "Bool", "position": False}
    words = Words.model_validate({"functions": [manager, {**manager, "name": "remote"}, manager]})
    assert [f.name for f in words.functions] == ["manager", "remote"]
    assert check_words(words, kinds, "James is a manager. Managers work remote.") == []
    clash = Words.model_validate({"functions": [manager, {**manager, "args": ["Person", "Person"]}]})
    assert check_words(clash, kinds, "James is a manager.") == [
        "'manager' is already a name; choose another for this function"]


def test_a_function_named_as_the_prompts_example_was_copied_and_goes_back():
    """Seen on AR-LSAT with the reference model: age(Person) -> Int, position, copied from step 2's
    example over the seven people of a schedule: their ages became 1..7, a condition no sentence
    sets. The example is now an invented word, so a copy of it is known for one, numeric or not."""
    from sym.core.reason.pot.steps import WORDS
    from sym.core.reason.pot.vocabulary import EXAMPLE_NAMES, check_words, without_faulty

    assert all(f"{name}(" in WORDS for name in EXAMPLE_NAMES)
    kinds = Kinds.model_validate({"sorts": [{"name": "Person", "closed": True, "members": ["fred", "juan"]}]})
    words = Words.model_validate({"functions": [
        {"name": "zib", "args": ["Person"], "result": "Int", "position": True},
        {"name": "day", "args": ["Person"], "result": "Int", "position": False}]})
    text = "Fred and Juan each give a talk on one day."
    assert check_words(words, kinds, text) == [
        "'zib' is the example's name, not the text's; name it with the text's own words"]
    kept, dropped = without_faulty(words, kinds, text) or (None, None)
    assert dropped == ["zib(Person)"] and [f.name for f in kept.functions] == ["day"]
    assert check_words(words, kinds, "Every zib of Fred is a number.") == []       # the text's own word


def test_a_sentence_marked_as_setting_no_condition_must_speak_of_nothing_declared():
    """Seen with the reference model on a LogicalDeduction puzzle: every premise marked `none`,
    which left the program empty. A sentence that names a member or uses a declared word sets a
    condition; one that lists every member of a closed sort, or an introduction, does not."""
    from sym.core.reason.pot.faithful import speaks_of

    fruit = Vocabulary(Kinds(sorts=[SortStep(name="Fruit", closed=True, members=["apples", "plums", "pears"])]),
                       Words(functions=[FunctionStep(name="price", args=["Fruit"], result="Int"),
                                        FunctionStep(name="ripe", args=["Fruit"], result="Bool")]))
    assert speaks_of("The plums are the cheapest.", fruit) == "plums"
    assert speaks_of("All ripe fruit is sold.", fruit) == "ripe"
    assert speaks_of("The price is fair.", fruit) == "price"
    assert speaks_of("A stand sells three fruits: apples, plums and pears.", fruit) is None
    assert speaks_of("A stand sells three ripe fruits at a price: apples, plums and pears.", fruit) is None
    assert speaks_of("Apples and plums are ripe.", fruit) == "ripe"         # two of three: a condition
    assert speaks_of("The statements are consistent within each paragraph.", fruit) is None


@pytest.mark.parametrize("formula, problem", [
    ("expensive(oranges)", "the sentence speaks of oranges and mangoes: write what it says of each, not of oranges alone"),
    ("price(oranges) > price(mangoes)", None),
    ("ForAll([x], Implies(x != oranges, price(oranges) > price(x)))", None),   # "the most": names only oranges
])
def test_a_formula_that_leaves_out_a_member_its_sentence_names_goes_back(formula, problem):
    """Seen with the reference model: "The oranges are more expensive than the mangoes." written as
    expensive(oranges), every word the sentence's, the mangoes left out."""
    fruit = Vocabulary(Kinds(sorts=[SortStep(name="Fruit", closed=True, members=["apples", "oranges", "mangoes"])]),
                       Words(functions=[FunctionStep(name="price", args=["Fruit"], result="Int"),
                                        FunctionStep(name="expensive", args=["Fruit"], result="Bool")]))
    sentence = "The oranges cost most." if "ForAll" in formula else "The oranges are more expensive than the mangoes."
    assert misread(formula, sentence, fruit, "json") == problem
    assert misread("And(expensive(apples), expensive(oranges), expensive(mangoes))",
                   "Apples, oranges and mangoes are expensive.", fruit, "json") is None


def test_a_member_is_named_by_its_own_word_not_by_one_its_whole_sort_shares():
    """Seen with the reference model on LogicalDeduction: "The orange book is the second from the
    left." written as rank(orange_book) == rank(brown_book) + 2. brown_book shares "book" with the
    sentence, as every book does; that does not name it."""
    shelf = Vocabulary(Kinds(sorts=[SortStep(name="Book", closed=True,
                                             members=["brown_book", "orange_book", "red_book"])]),
                       Words(functions=[FunctionStep(name="rank", args=["Book"], result="Int", position=True)]))
    sentence = "The orange book is the second from the left."
    assert ungrounded("rank(orange_book) == rank(brown_book) + 2", sentence, shelf) == \
        "'brown_book' is not in the sentence; use only names for what it says"
    assert ungrounded("rank(orange_book) == 2", sentence, shelf) is None
    alone = Vocabulary(Kinds(sorts=[SortStep(name="Book", closed=True, members=["book"])]),
                       Words(functions=shelf.functions))
    assert ungrounded("rank(book) == 1", "The book is first.", alone) is None     # a lone member keeps its words


def test_a_function_named_only_with_stop_words_goes_back():
    """Seen with the reference model on FOLIO: with(Person, Thing) -> Bool, a relation named "with"
    (a word of the text, so the name check passed), which says nothing."""
    from sym.core.reason.pot.vocabulary import check_words, without_faulty

    kinds = Kinds.model_validate({"sorts": [{"name": "Person", "closed": False, "members": ["bonnie"]}]})
    words = Words.model_validate({"functions": [{"name": "with", "args": ["Person"], "result": "Bool",
                                                 "position": False}]})
    assert check_words(words, kinds, "Bonnie performs with the school.") == [
        "'with' says nothing (only words such as 'with', 'of'); name it with the text's words for what it is"]
    performs = {"name": "performs", "args": ["Person"], "result": "Bool", "position": False}
    kept, dropped = without_faulty(Words.model_validate({"functions": [*words.model_dump()["functions"], performs]}),
                                   kinds, "Bonnie performs with the school.") or (None, None)
    assert dropped == ["with(Person)"] and [f.name for f in kept.functions] == ["performs"]


def test_a_comparison_with_a_member_its_sentence_does_not_name_is_shown_the_most_form(ollama_server, shell):
    """Seen with the reference model on LogicalDeduction: "The apples are the cheapest." written as
    rank(apples) < rank(mangoes) through three repairs, each refused for naming the mangoes. The
    refusal now says that a member compared with every other is the `most` form."""
    import json

    from sym.core.reason.pot.tasks import Encoding, decide_claim
    from tests.prove.test_steps_llm import llm_of, requests, script

    kinds = {"sorts": [{"name": "Fruit", "closed": True, "members": ["plums", "apples", "figs"]}]}
    words = {"functions": [{"name": "price", "args": ["Fruit"], "result": "Int", "position": False}]}

    def cheaper(a: str, b: str) -> dict:
        return {"form": "compare", "function": "price", "arg": a, "op": "<", "to": {"function": "price", "arg": b,
                                                                                   "plus": 0}}
    claim = "claim) The plums are the cheapest."
    premises = [{"text": "A stand sells three fruits: plums, apples and figs.", "form": "none"},
                {"text": "The plums cost less than the apples.", **cheaper("plums", "apples")},
                {"text": "The apples cost less than the figs.", **cheaper("apples", "figs")}]
    script(ollama_server, kinds, words, json.dumps({"lines": [*premises, {"text": claim, **cheaper("plums", "apples")}]}),
           fix=json.dumps({"lines": [{"text": claim, "form": "most", "function": "price", "arg": "plums",
                                      "extreme": "lowest"}]}))
    status, detail = decide_claim("A stand sells three fruits: plums, apples and figs. The plums cost less than the "
                                  "apples. The apples cost less than the figs.",
                                  "The plums are the cheapest.", llm_of(shell, ollama_server),
                                  encoding=Encoding("json", "steps"))
    assert status == "proved", (status, detail)
    [repair] = requests(ollama_server, "were rejected")
    assert "'apples' is not in the sentence; use only names for what it says; a member compared with every other " \
           "member is the form most" in repair.last_user
    # a premise that names both members of its comparison passes as before
    assert "The apples cost less than the figs.:" not in repair.last_user


def test_the_most_form_is_offered_only_for_a_sentence_that_says_a_highest_or_lowest():
    """Seen with the reference model on AR-LSAT: "Fred must be assigned to locker 3." written as a
    comparison with Paul was told that "a member compared with every other member is the form most",
    which does not fit a numbered place. The hint is for superlatives: "the cheapest", "the most
    expensive", "the leftmost", "the first"."""
    kids = Vocabulary(Kinds(sorts=[SortStep(name="Person", closed=True, members=["Fred", "Paul", "Nita"])]),
                      Words(functions=[FunctionStep(name="locker", args=["Person"], result="Int", position=True)]))

    def refusal(sentence: str) -> str | None:
        line = {"form": "compare", "function": "locker", "arg": "Fred", "op": "<",
                "to": {"function": "locker", "arg": "Paul", "plus": 0}}
        return compared_with_all(line, "locker(Fred) < locker(Paul)", sentence, kids)

    for sentence in ("Fred has the lowest locker.", "Fred is the leftmost.", "Fred's locker is the most central.",
                     "Fred is assigned the first locker."):
        assert refusal(sentence).endswith("a member compared with every other member is the form most"), sentence
    assert refusal("Fred must be assigned to locker 3.") == "'Paul' is not in the sentence; use only names for what it says"
    assert refusal("Fred's locker is below Paul's.") is None


def test_a_word_only_an_introduction_says_is_dropped_before_step_3(ollama_server, shell):
    """Seen with the reference model on AR-LSAT: step 2 declared `wall(Person)` from the opening
    "… assigned to … lockers … arranged along a straight wall", and every sample wrote it into every
    condition. A property only an introduction says is dropped; one a later sentence says stays."""
    import json

    from sym.core.reason.pot.tasks import Encoding, decide_claim
    from sym.core.reason.pot.vocabulary import introduced_only
    from tests.prove.test_steps_llm import STEP3, llm_of, requests, script

    kinds = Kinds(sorts=[SortStep(name="Child", closed=True, members=["Fred", "Nita"])])
    intro = "Fred and Nita, two children by a straight wall, each get a locker."
    words = Words(functions=[FunctionStep(name="wall", args=["Child"], result="Bool", position=True),
                             FunctionStep(name="child", args=["Child"], result="Bool", position=False),
                             FunctionStep(name="locker", args=["Child"], result="Int", position=True)])
    assert [f.name for f in introduced_only(words, kinds, [intro, "Fred's locker is 1.", "Is Nita's locker 2?"])] \
        == ["wall", "child"]
    assert [f.name for f in introduced_only(words, kinds, [intro, "A child's locker is odd."])] == ["wall"]
    assert [f.name for f in introduced_only(words, kinds, [intro, "Fred's locker is by the wall."])] == ["child"]
    assert introduced_only(words, kinds, ["Fred gets a locker by the wall.", "Nita does too."]) == []  # no introduction

    script(ollama_server, kinds.model_dump(), words.model_dump(), json.dumps({"lines": [
        {"text": intro, "form": "none"},
        {"text": "Fred's locker is 1.", "form": "compare", "function": "locker", "arg": "Fred", "op": "==",
         "to": {"place": 1, "from_end": False}},
        {"text": "claim) Nita's locker is 2.", "form": "compare", "function": "locker", "arg": "Nita", "op": "==",
         "to": {"place": 2, "from_end": False}}]}))
    status, detail = decide_claim(f"{intro} Fred's locker is 1.", "Nita's locker is 2.", llm_of(shell, ollama_server),
                                  encoding=Encoding("json", "steps"))
    assert status == "proved", (status, detail)
    [step3] = requests(ollama_server, STEP3)
    assert "locker(Child)" in step3.last_user and "wall(" not in step3.last_user and "child(" not in step3.last_user
