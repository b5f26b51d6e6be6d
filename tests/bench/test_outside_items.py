"""Outside-suite items for `sym bench logic`: both file formats load, the format is told from the
first item, bad files are one line each, truth options map by their text, and letters run to G."""

from __future__ import annotations

import json

import pytest

from sym.core.errors import UserError
from sym.repl.bench.outside import (
    CHOICE,
    FALSE,
    TRUE,
    TRUTH,
    UNCERTAIN,
    YES_NO,
    claim_of,
    detect_format,
    load_items,
    pick_letter,
    yes_no,
)
from sym.repl.bench.outside_score import short_reason

FOLIO_Q = "Based on the above information, is the following statement true, false, or uncertain? Tom is an animal."


def write(tmp_path, data, name="items.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def truth_item(options, answer, **extra):
    return {"id": "t1", "context": "Every cat is an animal. Tom is a cat.", "question": FOLIO_Q,
            "options": options, "answer": answer, **extra}


def test_a_truth_item_maps_its_gold_letter_by_option_text_in_any_order(tmp_path):
    file = write(tmp_path, [truth_item(["A) True", "B) False", "C) Uncertain"], "A"),
                            truth_item(["A) Uncertain", "B) True", "C) False"], "A"),
                            truth_item(["A) False", "B) Unknown", "C) True"], "B")])
    fmt, items = load_items(file)
    assert fmt == "logic"
    assert [i.kind for i in items] == [TRUTH] * 3
    assert [i.gold for i in items] == [TRUE, UNCERTAIN, UNCERTAIN]
    assert items[1].value_of("B") == TRUE and items[1].value_of("C") == FALSE
    assert items[2].value_of("A") == FALSE and items[2].value_of("D") is None
    assert items[0].options == ("True", "False", "Uncertain")


def test_multiple_choice_runs_to_seven_options_lettered_a_to_g(tmp_path):
    options = [f"{x}) The {c} book is leftmost." for x, c in zip("ABCDEFG", ["red", "blue", "green", "gray", "tan",
                                                                            "pink", "white"], strict=True)]
    file = write(tmp_path, [{"id": 7, "context": "Seven books.", "question": "Which of the following is true?",
                             "options": options, "answer": "G"}])
    _, [item] = load_items(file)
    assert (item.kind, item.gold, item.letters, item.id) == (CHOICE, "G", "ABCDEFG", "7")
    assert item.options[6] == "The white book is leftmost." and item.value_of("F") == "F"


def test_three_options_that_are_not_truth_words_are_multiple_choice(tmp_path):
    file = write(tmp_path, [truth_item(["A) True", "B) False", "C) Both"], "C")])
    _, [item] = load_items(file)
    assert (item.kind, item.gold) == (CHOICE, "C")


def test_strategyqa_items_keep_only_the_question_and_a_boolean_answer(tmp_path):
    file = write(tmp_path, [{"qid": "q1", "term": "Albany", "question": "Is Albany in Georgia bigger?",
                             "answer": False, "facts": ["Albany, GA has 75,000 people"],
                             "decomposition": ["What is the population?"]},
                            {"qid": "q2", "question": "Is water wet?", "answer": True}])
    fmt, items = load_items(file)
    assert fmt == "strategyqa"
    assert [(i.kind, i.gold, i.context) for i in items] == [(YES_NO, FALSE, ""), (YES_NO, TRUE, "")]
    assert "75,000" not in repr(items[0])           # gold facts never travel with the item


def test_the_format_is_told_from_the_first_items_keys():
    assert detect_format({"id": 1, "context": "", "question": "", "options": [], "answer": "A"}) == "logic"
    assert detect_format({"qid": "x", "question": "?", "answer": True}) == "strategyqa"
    with pytest.raises(UserError, match="neither format"):
        detect_format({"prompt": "x"})


@pytest.mark.parametrize(("data", "message"), [
    ("not json at all", "not readable JSON"),
    ('{"id": 1}', "non-empty JSON list of objects"),
    ("[]", "non-empty JSON list of objects"),
    ('[1, 2]', "non-empty JSON list of objects"),
    (json.dumps([truth_item(["A) True", "B) False", "C) Uncertain"], "A"), {"id": "t2", "context": "x"}]),
     "item 1: missing key 'question'"),
    (json.dumps([truth_item(["A) True", "B) False", "C) Uncertain"], "D")]), "not one of its option letters"),
    (json.dumps([truth_item(["A) True"], "A")]), "'options' must be 2 to 7 strings"),
    (json.dumps([truth_item([f"{x}) o" for x in "ABCDEFGH"], "A")]), "'options' must be 2 to 7 strings"),
    (json.dumps([truth_item(["B) True", "A) False"], "A")]), "letter options A, B, C"),
    (json.dumps([{"qid": "q", "question": "Is it?", "answer": "yes"}]), "'answer' has the wrong type"),
])
def test_a_bad_file_is_one_line(tmp_path, data, message):
    with pytest.raises(UserError) as err:
        load_items(write(tmp_path, data))
    assert message in err.value.message and "\n" not in str(err.value)


def test_a_missing_file_and_a_forced_format_that_does_not_fit_are_one_line(tmp_path):
    with pytest.raises(UserError, match="no data file"):
        load_items(tmp_path / "absent.json")
    with pytest.raises(UserError, match="item 0: missing key 'qid'"):
        load_items(write(tmp_path, [truth_item(["A) True", "B) False", "C) Uncertain"], "A")]), "strategyqa")


def test_the_claim_is_the_statement_after_the_truth_question():
    assert claim_of(FOLIO_Q) == "Tom is an animal."
    assert claim_of("Is the following true, false, or unknown? Does Tom purr? Tom purrs.") == "Does Tom purr? Tom purrs."
    assert claim_of("Is Tom an animal?") == "Is Tom an animal?"                 # asks nothing of the kind
    assert claim_of("True, false, or uncertain?") == "True, false, or uncertain?"   # no statement after it


def test_the_models_letter_is_its_last_answer_line_among_the_offered_letters():
    assert pick_letter("B looks right, but F fits.\nAnswer: F", "ABCDEFG") == "F"
    assert pick_letter("Answer: (G)", "ABCDEFG") == "G"
    assert pick_letter("Answer: G", "ABCDE") == ""
    assert pick_letter("no idea", "ABC") == ""


def test_a_yes_no_reply_reads_its_final_answer():
    assert yes_no("Albany, GA is smaller.\nAnswer: No") == FALSE
    assert yes_no("Answer: yes, it would.") == TRUE
    assert yes_no("I cannot tell.") is None


def test_like_failures_group_under_one_reason():
    a = short_reason("no valid program after 3 attempts; last error: unknown name 'dan'")
    b = short_reason("no valid program after 2 attempts; last error: unknown name 'eve'")
    assert a == b and "dan" not in a and short_reason("x" * 200) == "x" * 200    # never cut short


def test_an_empty_letter_is_no_answer_not_an_option():
    from sym.repl.bench.outside import CHOICE, SuiteItem

    item = SuiteItem("x", CHOICE, "ctx", "Which is true?", "A", options=("one", "two"))
    assert item.value_of("") is None and item.value_of("A") == "A" and item.value_of("C") is None


def test_a_two_option_true_false_item_is_a_truth_item_asked_in_a_closed_world(tmp_path):
    from sym.repl.bench.outside import ask_item

    question = "Is the following statement true or false? Max is not a wumpus."
    data = [{"id": "p1", "context": "Every cat is a feline. Max is a cat.", "question": question,
             "options": ["A) True", "B) False"], "answer": "A"},
            {"id": "p2", "context": "Every cat is a feline. Max is a cat.",
             "question": "Is the following statement true or false? Max is a feline.",
             "options": ["A) True", "B) False"], "answer": "A"}]
    _, items = load_items(write(tmp_path, data))
    assert [(i.kind, i.gold, i.values) for i in items] == [(TRUTH, TRUE, (TRUE, FALSE))] * 2
    assert ask_item(items[1], None).answer == TRUE           # the claim is asked, not the word "True"
    assert ask_item(items[0], None).answer == TRUE           # closed world: no wumpus is derivable
