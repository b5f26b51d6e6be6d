"""The no-LLM SWM path end to end: hand-written problems in each dataset's shape, the
loaders over a small dataset folder, and the answer checks."""

from __future__ import annotations

import json

import pytest

from sym.core.errors import UserError
from sym.core.logic.engine import Engine
from sym.core.logic.terms import Atom
from sym.core.reason.swm.datasets import Problem, available, is_correct, load
from sym.core.reason.swm.english import Update
from sym.core.reason.swm.symbolic import Untranslated, apply_update, solve

WORLD_FACTS = ["The lion is big.", "The lion chases the zebra.", "The zebra is not kind.", "Ann is smart."]
WORLD_RULES = [
    "If something chases the zebra then it is fast.",
    "All big, fast things are not quiet.",
    "If something is not kind then it might run to the lion.",   # a modal: not a known form (the miss test)
]


def proofwriter(question: str, gold, rules=None) -> Problem:
    return Problem("proofwriter", "t", WORLD_FACTS, rules if rules is not None else WORLD_RULES[:2], question, gold)


@pytest.mark.parametrize("question, gold", [
    ("The lion is fast.", True),
    ("The lion is quiet.", False),          # its strong negation is derived
    ("The lion is not quiet.", True),
    ("The zebra is fast.", "Unknown"),      # open world: neither follows
    ("The zebra is kind.", False),
    ("Ann is big.", "Unknown"),
])
def test_proofwriter_open_world(question, gold):
    problem = proofwriter(question, gold)
    answer = solve(problem)
    assert is_correct(problem, answer), (question, answer)


def test_a_sentence_outside_the_fast_path_is_reported():
    with pytest.raises(Untranslated) as err:
        solve(proofwriter("The lion is fast.", True, rules=WORLD_RULES))
    assert err.value.sentence == WORLD_RULES[2]


def test_clutrr_with_gold_facts_picks_the_relation_that_uses_the_whole_chain():
    rules = [
        "If B is the wife of A, and C is the son of B, then C is the son of A.",
        "If B is the son of A, and C is the grandfather of B, then C is the father of A.",
        "If B is the husband of A, and C is the father of B, then C is the father-in-law of A.",
    ]
    gold_facts = ["Dora is the wife of Pete.", "Jon is the son of Dora.", "Hal is the grandfather of Jon.",
                  "Pete is the husband of Dora."]  # a shortcut also derives "Hal is the father of Dora"
    problem = Problem("clutrr", "t", [], rules, "How is Hal related to Dora?",
                      "Hal is the father-in-law of Dora.", gold_facts)
    assert solve(problem) == "Hal is the father-in-law of Dora."
    assert is_correct(problem, "Hal is the father-in-law of Dora.")
    assert not is_correct(problem, "Hal is the father of Dora.")
    assert not is_correct(problem, "Dora is the father-in-law of Hal.")


def test_boxes_apply_state_and_operations_in_order():
    context = ("Box 0 contains the cup and the key, Box 1 contains the pen, Box 2 contains nothing. "
               "Move the contents of Box 0 to Box 2. Remove the key from Box 2. Put the map into Box 2. "
               "Move the pen from Box 1 to Box 2. Box 1 contains the hat.")
    from sym.core.reason.swm.english import split_sentences
    sentences = split_sentences(context)
    p2 = Problem("boxes", "t", sentences, [], "What is contained in Box 2?", ["the cup", "the map", "the pen"])
    p0 = Problem("boxes", "t", sentences, [], "What is contained in Box 0?", ["nothing"])
    p1 = Problem("boxes", "t", sentences, [], "What is contained in Box 1?", ["the hat"])
    assert solve(p2) == "the cup, the map, the pen" and is_correct(p2, solve(p2))
    assert solve(p0) == "nothing" and is_correct(p0, "nothing")
    assert is_correct(p1, solve(p1))
    assert not is_correct(p2, "the cup, the map")
    ghost = Problem("boxes", "t", sentences + ["Move the pen and the hat from Box 1 to Box 0."], [],
                    "What is contained in Box 0?", ["the hat"])
    assert solve(ghost) == "the hat"  # the pen had already left Box 1: nothing to move


def test_apply_update_moves_every_match_at_once():
    engine = Engine()
    engine.add_facts([Atom("contains", ("box_0", "a")), Atom("contains", ("box_0", "b")),
                      Atom("contains", ("box_1", "c"))])
    apply_update(engine, Update("contains(box_0, X)", ["contains(box_0, X)"], ["contains(box_1, X)"]))
    assert sorted(engine.facts("contains/2")) == [Atom("contains", ("box_1", x)) for x in "abc"]
    apply_update(engine, Update("contains(box_9, X)", ["contains(box_9, X)"], ["contains(box_0, X)"]))
    assert len(list(engine.facts("contains/2"))) == 3  # nothing matched, nothing changed


def test_lsat_has_no_symbolic_path_but_its_answer_check_reads_letters():
    problem = Problem("lsat-ar", "t", [], [], "Which one?", "C", options=["A) x", "B) y", "C) z"])
    with pytest.raises(UserError):
        solve(problem)
    assert is_correct(problem, "C") and is_correct(problem, "The answer is (C).")
    assert not is_correct(problem, "B")


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_loaders_read_every_json_file_whatever_its_name_and_depth(tmp_path):
    write(tmp_path / "proofwriter" / "odd name (v2).json",
          [{"facts": ["Bob is big."], "rules": ["Big things are red."], "question": "Bob is red.", "answer": True}])
    write(tmp_path / "proofwriter" / "deep" / "er" / "x.json",
          [{"facts": ["Bob is big."], "rules": [], "question": "Bob is red.", "answer": "Unknown"}])
    (tmp_path / "proofwriter" / "notes.txt").write_text("not data")
    write(tmp_path / "clutrr" / "split" / "a.json", [{
        "query": "Ann baked a cake for her son Bo. Bo has a son, Cy. How is Cy related to Ann?",
        "rule": ["If B is the son of A, and C is the son of B, then C is the grandson of A."],
        "answer": "Cy is the grandson of Ann.",
        "grounded_variables": [["Ann", "son", "Bo"], ["Bo", "son", "Cy"]],
        "implementation_result": [["Ann", "grandson", "Cy"]]}])
    write(tmp_path / "boxes" / "b.json", [{
        "context": "Box 0 contains the egg, Box 1 contains nothing. Move the egg from Box 0 to Box 1.",
        "question": "What is contained in Box 1?", "answers": ["the egg"], "numops": 1}])
    write(tmp_path / "lsat-ar" / "l.json", [{"id": "q1", "context": "Five people. F is first.",
                                              "question": "Who?", "options": ["A) F", "B) G"], "answer": "A"}])
    assert available(tmp_path) == ["proofwriter", "clutrr", "boxes", "lsat-ar"]
    pw = load(tmp_path, "proofwriter")
    assert [p.id for p in pw] == ["deep/er/x.json#0", "odd name (v2).json#0"]
    assert [solve(p) for p in pw] == ["Unknown", "True"]
    assert all(is_correct(p, solve(p)) for p in pw)
    (cl,) = load(tmp_path, "clutrr")
    assert cl.question == "How is Cy related to Ann?"
    assert cl.context_sentences == ["Ann baked a cake for her son Bo.", "Bo has a son, Cy."]
    assert cl.gold_facts == ["Bo is the son of Ann.", "Cy is the son of Bo."]
    assert solve(cl) == "Cy is the grandson of Ann." and is_correct(cl, solve(cl))
    (bx,) = load(tmp_path, "boxes")
    assert bx.context_sentences[:2] == ["Box 0 contains the egg.", "Box 1 contains nothing."]
    assert is_correct(bx, solve(bx))
    (ls,) = load(tmp_path, "lsat-ar")
    assert (ls.id, ls.options, ls.gold) == ("q1", ["A) F", "B) G"], "A")


def test_loader_errors_are_one_line_user_errors(tmp_path):
    with pytest.raises(UserError, match="unknown dataset"):
        load(tmp_path, "gsm8k")
    with pytest.raises(UserError, match="no folder"):
        load(tmp_path, "boxes")
    (tmp_path / "boxes").mkdir()
    (tmp_path / "boxes" / "bad.json").write_text("[{")
    with pytest.raises(UserError, match="not readable JSON"):
        load(tmp_path, "boxes")
    write(tmp_path / "boxes" / "bad.json", [{"question": "What is contained in Box 1?"}])
    with pytest.raises(UserError, match="missing field 'context'"):
        load(tmp_path, "boxes")
