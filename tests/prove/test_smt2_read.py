"""SMT-LIB 2 scripts read by core/reason/pot/smt2_read.py: the same verdicts as their JSON twins,
hand-written scripts, one-line errors with line and column, and what a script may not do."""

from __future__ import annotations

from pathlib import Path

import pytest

from sym.core.errors import UserError
from sym.core.reason.pot.interpret import run
from sym.core.reason.pot.schema import MAX_PROGRAM_CHARS, load_program
from sym.core.reason.pot.smt2_read import MAX_DEPTH, Smt2Error, Smt2Program, looks_like_smt2
from sym.core.reason.pot.smt2_worker import run_smt2
from sym.core.reason.pot.smt2_write import to_smt2
from sym.core.stop import Stop
from tests.prove.test_pot_interpret import INCONSISTENT

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TIMEOUT = 10_000


def read(text: str, source: str = "x.smt2"):
    return run_smt2(Smt2Program(text, source), stop=Stop(proof_timeout=TIMEOUT / 1000))


def verdicts(report) -> list[tuple[str, str]]:
    return [(v.name, v.status) for v in report.verifications]


def error(text: str, source: str = "x.smt2") -> str:
    """The reader's one-line message for a bad script (it must start with the source name)."""
    with pytest.raises(UserError) as info:
        read(text, source)
    message = info.value.message
    assert isinstance(info.value, Smt2Error), type(info.value)
    assert "\n" not in message, message
    assert message.startswith(f"{source}: "), message
    return message


# -- JSON programs and their exported twins ------------------------------------------------

PERSON = {"sorts": [{"name": "P", "type": "DeclareSort"}],
          "functions": [{"name": "tall", "domain": ["P"], "range": "BoolSort"}],
          "constants": {"ps": {"sort": "P", "members": ["ann", "bea"]}}}

PROVED = {**PERSON, "knowledge_base": ["tall(ann)"],
          "verifications": [{"name": "ann is tall", "constraint": "tall(ann)"}]}
REFUTED = {**PERSON, "knowledge_base": ["Not(tall(ann))"],
           "verifications": [{"name": "ann is tall", "constraint": "tall(ann)"}]}
UNKNOWN = {**PERSON, "verifications": [{"name": "ann is tall", "constraint": "tall(ann)"}]}
EXISTS = {**PERSON, "knowledge_base": ["tall(bea)", "Not(tall(ann))"],
          "verifications": [{"name": "someone is tall", "exists": [{"name": "x", "sort": "P"}],
                             "constraint": "tall(x)"}]}
FORALL = {**PERSON, "knowledge_base": ["tall(bea)", "Not(tall(ann))"],
          "verifications": [{"name": "everyone is tall", "forall": [{"name": "x", "sort": "P"}],
                             "constraint": "tall(x)"},
                            {"name": "everyone tall is tall", "forall": [{"name": "x", "sort": "P"}],
                             "implies": {"antecedent": "tall(x)", "consequent": "tall(x)"}}]}
OPTIMUM = {"sorts": [{"name": "Int", "type": "IntSort"}],
           "functions": [{"name": "k", "domain": [], "range": "IntSort"}],
           "knowledge_base": ["k >= 2"],
           "verifications": [{"name": "k is positive", "constraint": "k > 0"}],
           "optimization": {"variables": [{"name": "x", "sort": "Int"}],
                            "constraints": ["x > k", "x < 10"],
                            "objectives": [{"type": "minimize", "expression": "x + 1"}]}}
MAXIMUM = {"sorts": [{"name": "Int", "type": "IntSort"}],
           "optimization": {"variables": [{"name": "x", "sort": "Int"}, {"name": "y", "sort": "Int"}],
                            "constraints": ["x + y <= 7", "x >= 0", "y >= 2"],
                            "objectives": [{"type": "maximize", "expression": "x"}]}}

INLINE = {"proved": PROVED, "refuted": REFUTED, "unknown": UNKNOWN, "inconsistent": INCONSISTENT,
          "exists": EXISTS, "forall": FORALL, "optimum": OPTIMUM, "maximum": MAXIMUM}
PROGRAMS = [*(pytest.param((EXAMPLES / f).read_text(), id=f) for f in sorted(p.name for p in EXAMPLES.glob("*.json"))),
            *(pytest.param(p, id=k) for k, p in INLINE.items())]


def twins(source):
    program = load_program(source)
    return run(program, stop=Stop(proof_timeout=TIMEOUT / 1000)), read(to_smt2(program, "twin"))


def test_every_example_is_covered():
    assert {p.name for p in EXAMPLES.glob("*.json")} >= {"sons.json", "hardhat.json", "height.json", "einstein.json"}


@pytest.mark.parametrize("source", PROGRAMS)
def test_an_exported_program_reads_back_to_the_same_verdicts(source):
    want, got = twins(source)
    assert verdicts(got) == verdicts(want)
    assert got.consistent == want.consistent
    assert got.core == want.core
    assert (got.optimization is None) == (want.optimization is None)
    if want.optimization is not None:
        assert got.optimization.status == want.optimization.status
        assert [(o["type"], o["optimum"]) for o in got.optimization.objectives] == \
            [(o["type"], o["optimum"]) for o in want.optimization.objectives]
    for a, b in zip(want.verifications, got.verifications):
        assert (a.model is None) == (b.model is None) and (a.counter_model is None) == (b.counter_model is None)


def test_each_verdict_is_covered_by_the_inline_twins():
    statuses = {s for k, p in INLINE.items() if "optimization" not in p for _, s in verdicts(twins(p)[1])}
    assert statuses >= {"proved", "refuted", "unknown", "inconsistent"}


def test_unknown_has_a_model_and_a_counter_model_like_its_json_twin():
    want, got = twins(UNKNOWN)
    (w,), (g,) = want.verifications, got.verifications
    assert g.status == "unknown"
    assert g.model["tall(ann)"] is True and g.counter_model["tall(ann)"] is False
    assert w.model["tall(ann)"] == g.model["tall(ann)"] and w.counter_model["tall(ann)"] == g.counter_model["tall(ann)"]


def test_an_inconsistent_twin_names_the_json_programs_entries():
    want, got = twins(INCONSISTENT)
    assert got.consistent is False and verdicts(got) == [("w is safe", "inconsistent")]
    assert "knowledge_base[1]" in got.core and "rules[0] pallets are unsafe" in got.core
    assert got.core == want.core


def test_an_exists_twin_names_its_witness():
    want, got = twins(EXISTS)
    (g,) = got.verifications
    assert g.status == "proved" and g.model["x"] == "bea" == want.verifications[0].model["x"]


def test_a_forall_twin_is_refuted_by_the_named_counterexample():
    want, got = twins(FORALL)
    assert verdicts(got) == [("everyone is tall", "refuted"), ("everyone tall is tall", "proved")]
    assert got.verifications[0].counter_model["x"] == "ann" == want.verifications[0].counter_model["x"]


def test_an_optimization_twin_has_the_same_optimum():
    want, got = twins(OPTIMUM)
    assert got.optimization.status == "optimal"
    assert got.optimization.objectives[0]["optimum"] == 4 == want.optimization.objectives[0]["optimum"]
    assert verdicts(got) == [("k is positive", "proved")]
    assert twins(MAXIMUM)[1].optimization.objectives[0]["optimum"] == 5


# -- scripts written by hand -------------------------------------------------------------

HARDHAT = """; every worker on site wears a hard hat; Carol was seen without one
(set-logic ALL)
(declare-sort Person 0)
(declare-sort Gear 0)
(declare-const alice Person)
(declare-const bob Person)
(declare-const carol Person)
(declare-const hardHat Gear)
(declare-const harness Gear)
(declare-fun Worker (Person) Bool)
(declare-fun Wearing (Person Gear) Bool)
(assert (! (Worker alice) :named |alice works|))
(assert (! (Worker bob) :named |bob works|))
(assert (Worker carol))
(assert (Wearing alice hardHat))
(assert (Wearing bob hardHat))
(assert (! (not (Wearing carol hardHat)) :named |carol has no hat|))
(define-fun |Hard hat compliance| () Bool
  (forall ((p Person)) (=> (Worker p) (Wearing p hardHat))))
(check-sat-assuming (|Hard hat compliance|))
(get-model)
"""

HEIGHT = """(set-logic ALL)
(declare-datatypes ((Person 0) (Animal 0)) (((javier_sotomayor)) ((average_giraffe))))
(declare-fun jump_height (Person) Real)
(declare-fun height (Animal) Real)
(assert (= (jump_height javier_sotomayor) 2.45))
(assert (= (height average_giraffe) 5.5))
; the claim, as a scope of its own
(push 1)
(assert (! (>= (jump_height javier_sotomayor) (height average_giraffe)) :named |Sotomayor jumps over the giraffe|))
(check-sat)
(pop 1)
"""

SONS = """(declare-datatypes ((Person 0)) (((bob) (john) (jay) (other))))
(declare-fun father_of (Person) Person)
(declare-fun brother (Person Person) Bool)
(assert (= (father_of john) bob))
(assert (= (father_of jay) bob))
(assert (forall ((x Person)) (=> (= (father_of x) bob) (or (= x john) (= x jay)))))
(assert (forall ((x Person) (y Person)) (= (brother x y) (and (distinct x y) (= (father_of x) (father_of y))))))
(define-fun |Jay's brother is John| () Bool (forall ((y Person)) (=> (brother jay y) (= y john))))
(check-sat-assuming (|Jay's brother is John|))
(define-fun |Who is Jay's brother| () Bool (exists ((y Person)) (brother jay y)))
(check-sat-assuming (|Who is Jay's brother|))
"""


def test_a_hand_written_hardhat_script_gets_the_json_verdict():
    want = run(load_program((EXAMPLES / "hardhat.json").read_text()), stop=Stop(proof_timeout=TIMEOUT / 1000))
    got = read(HARDHAT, "hardhat.smt2")
    assert verdicts(got) == verdicts(want) == [("Hard hat compliance", "refuted")]
    counter = got.verifications[0].counter_model
    assert counter["p"] == "carol" and counter["Wearing(carol, hardHat)"] is False


def test_a_hand_written_height_script_with_a_scoped_claim_gets_the_json_verdict():
    want = run(load_program((EXAMPLES / "height.json").read_text()), stop=Stop(proof_timeout=TIMEOUT / 1000))
    got = read(HEIGHT, "height.smt2")
    assert verdicts(got) == verdicts(want) == [("Sotomayor jumps over the giraffe", "refuted")]
    assert got.verifications[0].counter_model["height(average_giraffe)"] == 5.5
    assert got.consistent is True


def test_a_hand_written_sons_script_gets_the_json_verdicts():
    want = run(load_program((EXAMPLES / "sons.json").read_text()), stop=Stop(proof_timeout=TIMEOUT / 1000))
    got = read(SONS, "sons.smt2")
    assert verdicts(got) == verdicts(want)
    assert got.verifications[1].model["y"] == "john"


def test_an_unnamed_scoped_claim_is_named_by_its_text_and_scoped_asserts_are_not_knowledge():
    script = ("(declare-const a Bool)\n(declare-const b Bool)\n(assert a)\n"
              "(push)\n(assert b)\n(assert a)\n(check-sat)\n(pop)\n"
              "(define-fun g () Bool b)\n(check-sat-assuming (g))\n")
    got = read(script)
    assert verdicts(got) == [("b and a", "unknown"), ("g", "unknown")]   # b from the scope is gone after pop


def test_a_hand_written_inconsistent_script_names_its_assertions_in_the_core():
    script = HARDHAT.replace("(assert (Worker carol))", "(assert (! (Wearing carol hardHat) :named |carol has a hat|))")
    got = read(script)
    assert got.consistent is False
    assert got.core == ["carol has a hat", "carol has no hat"]
    assert verdicts(got) == [("Hard hat compliance", "inconsistent")]


def test_unnamed_assertions_are_named_by_their_line_in_a_core():
    got = read("(declare-const a Bool)\n\n(assert a)\n(assert (not a))\n(check-sat)\n")
    assert got.consistent is False and got.core == ["line 3", "line 4"]


def test_a_comment_above_or_beside_an_assertion_names_it_in_a_core():
    got = read("(declare-const a Bool)\n; A holds.\n(assert a)\n(assert (not a)) ; A does not hold.\n(check-sat)\n")
    assert got.consistent is False and got.core == ["A holds.", "A does not hold."]


def test_a_comment_cut_off_by_a_blank_line_or_used_twice_names_nothing_wrongly():
    got = read("(declare-const a Bool)\n; about nothing\n\n(assert a)\n; same\n(assert a)\n; same\n"
               "(assert (not a))\n(check-sat)\n")
    assert got.consistent is False
    assert set(got.core) <= {"line 4", "same", "same (line 8)"} and "same (line 8)" in got.core


@pytest.mark.parametrize("where", ["prompts", "tasks", "lsat"])
def test_the_prompt_examples_read_and_name_every_assertion(where):
    """The scripts the prompts teach by run, and each assertion has the name it was given."""
    import re

    from sym.core.reason.pot import prompts, tasks
    from sym.core.reason.pot.smt2_steps import steps
    from sym.repl.bench import lsat

    text = {"prompts": prompts.EXAMPLE_SMT2, "tasks": tasks.EXAMPLE_SMT2, "lsat": lsat.EXAMPLE_SCRIPT}[where]
    report = run_smt2(Smt2Program(text, "example"), stop=Stop(proof_timeout=TIMEOUT / 1000))
    assert report.consistent is not False and report.verifications
    names = [step.label for step in steps(text) if step.kind == "assert"]
    assert names and names == re.findall(r":named ([\w|]+)\)\)", text)


# -- errors: one line, with line and column ----------------------------------------------

def test_an_unknown_constant_is_z3s_message_at_the_right_line():
    message = error("(declare-const a Bool)\n; a comment (with parens)\n(assert a)\n(assert (and a nope))\n")
    assert "line 4 column" in message and "nope" in message


def test_an_unknown_constant_after_dropped_commands_keeps_its_line():
    message = error('(set-option :produce-models true)\n(echo "hi")\n(declare-const a Bool)\n\n(assert (or a zz))\n')
    assert "line 5 column" in message and "zz" in message


def test_an_unclosed_paren_names_where_it_opened():
    message = error("(declare-const a Bool)\n  (assert (and a\n  a)\n")
    assert "line 2 column 3" in message and "never closed" in message


def test_an_extra_closing_paren_is_named():
    message = error("(declare-const a Bool)\n(assert a))\n")
    assert "line 2 column 11" in message and "closes nothing" in message


def test_text_outside_a_form_is_an_error():
    message = error("(declare-const a Bool)\nhello (assert a)\n")
    assert "line 2 column 1" in message and "hello" in message


@pytest.mark.parametrize("command", ['(include "x.smt2")', "(frobnicate a)", "(load-file a)"])
def test_a_command_sym_does_not_run_is_rejected_with_its_position(command):
    message = error(f"(declare-const a Bool)\n   {command}\n")
    assert "line 2 column 4" in message and command[1:].split()[0].rstrip(")") in message


def test_pop_without_a_scope_is_an_error():
    assert "line 3 column 4" in error("(declare-const a Bool)\n(assert a)\n(pop)\n")
    assert "line 4 column 6" in error("(declare-const a Bool)\n(push 1)\n(assert a)\n(pop 2)\n")   # z3's place


@pytest.mark.parametrize("objective,optimum", [("minimize", 1), ("maximize", "oo")])
def test_an_objective_at_the_top_level_is_optimized_at_the_next_check(objective, optimum):
    got = read(f"(declare-const x Int)\n(assert (> x 0))\n({objective} x)\n(check-sat)\n")
    assert got.optimization.objectives[0]["optimum"] == optimum
    assert got.optimization.status == ("optimal" if objective == "minimize" else "unbounded")


def test_nesting_deeper_than_max_depth_is_an_error_not_a_recursion_error():
    deep = MAX_DEPTH + 10
    message = error("(declare-const g Bool)\n(assert " + "(not " * deep + "g" + ")" * (deep + 1) + "\n")
    assert "line 2 column" in message and str(MAX_DEPTH) in message


def test_deep_nesting_within_max_depth_in_an_assert_reads():
    depth = MAX_DEPTH - 10
    got = read("(declare-const g Bool)\n(assert " + "(not " * depth + "g" + ")" * (depth + 1) + "\n(check-sat)\n")
    assert got.consistent is True


def test_deep_nesting_within_max_depth_in_a_goal_reads():
    depth = MAX_DEPTH - 10          # even: (not (not … g)) is g
    got = read("(declare-const g Bool)\n(assert g)\n(check-sat-assuming (" + "(not " * depth + "g" + ")" * depth + "))\n")
    assert [s for _, s in verdicts(got)] == ["proved"]


def test_deep_nesting_within_max_depth_in_an_objective_reads():
    depth = MAX_DEPTH - 10
    term = "(+ 1 " * depth + "x" + ")" * depth
    got = read(f"(declare-const x Int)\n(push)\n(assert (>= x 0))\n(minimize {term})\n(check-sat)\n(pop)\n")
    assert got.optimization.objectives[0]["optimum"] == depth


def test_a_script_over_max_program_chars_is_refused():
    message = error("; " + "x" * MAX_PROGRAM_CHARS + "\n(check-sat)\n")
    assert str(MAX_PROGRAM_CHARS) in message


def test_an_unterminated_string_is_an_error():
    assert "line 2 column 7" in error('(declare-const a Bool)\n(echo "never closed)\n')


def test_an_assert_with_two_formulas_is_an_error():
    assert "line 2 column 1" in error("(declare-const a Bool)\n(assert a a)\n")


def test_errors_name_the_given_source():
    assert error('(include "y.smt2")\n', "/tmp/dir/mine.smt2").startswith("/tmp/dir/mine.smt2: line 1 column 1")


# -- safety and reading ------------------------------------------------------------------

@pytest.mark.parametrize("option", [":regular-output-channel", ":diagnostic-output-channel"])
def test_output_channel_options_create_no_file(tmp_path, option):
    folder = tmp_path / "channel"
    folder.mkdir()
    out = folder / "out.txt"
    script = (f'(set-option {option} "{out}")\n(declare-const a Bool)\n(assert a)\n'
              '(echo "written?")\n(define-fun g () Bool a)\n(check-sat-assuming (g))\n(get-model)\n(get-info :all-statistics)\n'
              "(assert (and a b))\n")
    report = read(script)          # b is unknown: Z3 reports the error as output, and it must go nowhere else
    assert report.output[-1]["text"] == '(error "line 9 column 15: unknown constant b")'
    assert not out.exists()
    assert verdicts(read(script.replace("(assert (and a b))\n", ""))) == [("g", "proved")]
    assert not out.exists() and list(folder.iterdir()) == []


def test_comments_strings_and_quoted_symbols_are_read_right():
    script = """; a comment with an unbalanced ( paren
(set-info :source "a string with ) and ; inside")   ; and ) more
(declare-sort |the Person| 0)
(declare-const |ann smith| |the Person|)
(declare-fun |is tall| (|the Person|) Bool)  ; )))
(assert (! (|is tall| |ann smith|) :named |ann (smith) is tall; really|))
(echo "(check-sat)")
(define-fun |ann smith is tall| () Bool (|is tall| |ann smith|))
(check-sat-assuming (|ann smith is tall|))
"""
    got = read(script)
    assert verdicts(got) == [("ann smith is tall", "proved")]
    assert got.verifications[0].model["is tall(ann smith)"] is True
    bad = script.replace("(assert (!", "(assert (not (|is tall| |ann smith|)))\n(assert (!")
    core = read(bad).core
    assert core == ["line 6", "ann (smith) is tall; really"]


def test_a_negated_goal_literal_works():
    script = ("(declare-const g Bool)\n(declare-const a Bool)\n(assert a)\n(assert (=> a (not g)))\n"
              "(check-sat-assuming ((not g)))\n")
    assert verdicts(read(script)) == [("(not g)", "proved")]


def test_several_literals_are_their_conjunction():
    base = "(declare-const g Bool)\n(declare-const h Bool)\n(assert g)\n"
    assert verdicts(read(base + "(check-sat-assuming (g h))\n")) == [("g h", "unknown")]
    assert verdicts(read(base + "(assert h)\n(check-sat-assuming (g h))\n")) == [("g h", "proved")]
    assert verdicts(read(base + "(assert (not h))\n(check-sat-assuming (g h))\n")) == [("g h", "refuted")]
    assert verdicts(read(base + "(check-sat-assuming (g (not g) h))\n")) == [("g (not g) h", "refuted")]


def test_quoted_goal_names_read_back_without_bars():
    script = ("(declare-const a Bool)\n(assert a)\n(define-fun |a holds, really| () Bool a)\n"
              "(check-sat-assuming (|a holds, really|))\n")
    assert verdicts(read(script)) == [("a holds, really", "proved")]


def test_a_top_level_check_sat_only_asks_for_consistency():
    got = read("(declare-const a Bool)\n(assert a)\n(check-sat)\n(get-model)\n(exit)\n")
    assert got.consistent is True and got.verifications == [] and got.core == [] and got.optimization is None


def test_an_inconsistent_script_lists_its_named_assertions_in_source_order():
    script = ("(declare-const a Bool)\n(declare-const b Bool)\n(assert (! (=> a b) :named zeta))\n"
              "(assert (! true :named unrelated))\n(assert (! (not b) :named alpha))\n(assert (! a :named |mid one|))\n"
              "(check-sat)\n")
    got = read(script)
    assert got.consistent is False and got.verifications == []
    assert got.core == ["zeta", "alpha", "mid one"]


def test_an_optimization_scope_in_a_hand_written_script():
    script = ("(declare-const x Int)\n(declare-const y Int)\n(assert (> y 2))\n(push)\n(assert (> x y))\n"
              "(maximize (- 0 x))\n(check-sat)\n(get-objectives)\n(pop)\n")
    got = read(script)
    assert got.optimization.status == "optimal" and got.optimization.objectives[0]["optimum"] == -4
    assert got.verifications == []


@pytest.mark.parametrize("text,name,expected", [
    ("(assert a)", "x.json", True), ("; c\n", "x.json", True), ("  \n(x)", "p.txt", True),
    ('{"sorts": []}', "x.json", False), ('{"sorts": []}', "x.smt2", True), ("", "X.SMT2", True)])
def test_a_script_is_known_by_its_name_or_first_character(text, name, expected):
    assert looks_like_smt2(text, name) is expected


def test_a_misbound_quantifier_gets_a_hint_that_shows_the_binding():
    with pytest.raises(UserError) as info:
        read("(declare-sort T 0)\n(declare-fun p (T) Bool)\n(assert (forall (x T) (p x)))\n")
    assert "line 3" in info.value.message and "invalid sorted variable" in info.value.message
    assert "(forall ((x S) (y S)) F)" in str(info.value.hint)


def test_an_undeclared_sort_gets_a_hint():
    with pytest.raises(UserError) as info:
        read("(declare-const a Foo)\n")
    assert "declare-sort" in str(info.value.hint)


@pytest.mark.parametrize("reply, first", [
    ("Here it is (checked):\n; Tom (a cat) is a cat.\n(declare-const t Bool)\n(assert t)\nDone.",
     "; Tom (a cat) is a cat."),
    ("```smt2\n(declare-const t Bool)\n(assert t)\n```\nThe claim (t) holds.", "(declare-const t Bool)"),
    ("Sure: (declare-const t Bool) (assert t)", "(declare-const t Bool)")])
def test_a_reply_is_read_from_its_first_form_or_comment_line(reply, first):
    from sym.core.reason.pot.smt2_read import script_in_reply as read_smt2_reply

    text = read_smt2_reply(reply).text
    assert text.startswith(first) and text.endswith("(assert t)")
