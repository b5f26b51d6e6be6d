"""Entailment semantics on the example programs: proved, refuted, unknown, inconsistent;
optimization; timeouts and cancellation."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from sym.core.errors import Cancelled, TimedOut, UserError
from sym.core.reason.pot.interpret import run
from sym.core.reason.pot.schema import load_program
from sym.core.stop import Stop
from tests.prove.test_pot_schema import CHEROKEE, PALLET, PIGEONS, TASKS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def prove(source, timeout_ms=10_000, cancel=None):
    program = load_program((EXAMPLES / source).read_text()) if isinstance(source, str) else load_program(source)
    return run(program, stop=Stop(cancel, proof_timeout=timeout_ms / 1000))


def status(report) -> dict:
    return {v.name: v.status for v in report.verifications}


def test_a_245_m_jump_does_not_clear_a_55_m_giraffe():
    report = prove("height.json")
    assert status(report) == {"Sotomayor jumps over the giraffe": "refuted"}
    assert report.verifications[0].counter_model["height(average_giraffe)"] == 5.5


def test_the_worker_without_a_hard_hat_is_in_the_counter_model():
    report = prove("hardhat.json")
    (v,) = report.verifications
    assert v.status == "refuted"
    assert v.counter_model["p"] == "carol"
    assert v.counter_model["Wearing(carol, hardHat)"] is False


def test_einstein_the_german_owns_the_fish():
    report = prove("einstein.json")
    assert status(report) == {"The German owns the fish": "proved", "Who owns the fish": "proved"}
    who = report.verifications[1].model
    assert who["n"] == "german"
    assert who["nat(german)"] == who["pet(fish)"] == 4


def test_jays_brother_is_john():
    report = prove("sons.json")
    assert status(report) == {"Jay's brother is John": "proved", "Who is Jay's brother": "proved"}
    assert report.verifications[1].model["y"] == "john"


def test_a_claim_the_knowledge_base_leaves_open_is_unknown_with_model_and_counter_model():
    program = {"sorts": [{"name": "P", "type": "DeclareSort"}],
               "functions": [{"name": "tall", "domain": ["P"], "range": "BoolSort"}],
               "constants": {"ps": {"sort": "P", "members": ["ann"]}},
               "verifications": [{"name": "ann is tall", "constraint": "tall(ann)"}]}
    (v,) = prove(program).verifications
    assert v.status == "unknown"
    assert v.model["tall(ann)"] is True and v.counter_model["tall(ann)"] is False


INCONSISTENT = {
    "sorts": [{"name": "P", "type": "DeclareSort"}],
    "functions": [{"name": "safe", "domain": ["P"], "range": "BoolSort"},
                  {"name": "on_pallet", "domain": ["P"], "range": "BoolSort"}],
    "constants": {"ps": {"sort": "P", "members": ["w"]}},
    "knowledge_base": ["on_pallet(w)", "safe(w)", "Not(on_pallet(w)) == False"],
    "rules": [{"name": "pallets are unsafe", "forall": [{"name": "x", "sort": "P"}],
               "implies": {"antecedent": "on_pallet(x)", "consequent": "Not(safe(x))"}}],
    "verifications": [{"name": "w is safe", "constraint": "safe(w)"}]}


def test_an_inconsistent_knowledge_base_names_the_clashing_entries():
    program = INCONSISTENT
    report = prove(program)
    assert report.consistent is False
    assert status(report) == {"w is safe": "inconsistent"}
    assert "knowledge_base[1]" in report.core and "rules[0] pallets are unsafe" in report.core
    assert "knowledge_base[0]" in report.core or "knowledge_base[2]" in report.core


def test_the_paper_examples_get_entailment_answers():
    assert status(prove(CHEROKEE)) == {"Cherokee oppose allotment": "proved"}
    assert status(prove(PALLET)) == {"Verify Safety": "refuted"}
    assert status(prove(PIGEONS)) == {"Pigeonhole": "refuted"}   # satisfiability alone would not say so


def test_optimization_reports_the_optimum_and_the_verifications():
    report = prove(TASKS)
    # open world: bob may hold task1 too, with any skill, and there may be other tasks
    assert status(report) == {"All tasks assigned": "unknown", "No overqualified assignments": "unknown"}
    counter = report.verifications[1].counter_model
    assert counter["assigned_to(task1, bob)"] is True and counter["skill_level(bob, task1)"] > 7
    opt = report.optimization
    assert opt.status == "optimal"
    assert opt.objectives[0]["type"] == "minimize" and opt.objectives[0]["optimum"] == 5


def test_an_impossible_optimization_is_infeasible():
    program = {"sorts": [{"name": "Int", "type": "IntSort"}],
               "optimization": {"variables": [{"name": "x", "sort": "Int"}], "constraints": ["x > 0", "x < 0"],
                                "objectives": [{"type": "minimize", "expression": "x"}]}}
    assert prove(program).optimization.status == "infeasible"


HARD = {"sorts": [], "functions": [{"name": n, "domain": [], "range": "IntSort"} for n in "xyz"],
        "knowledge_base": ["x > 1", "y > 1", "z > 1", "x*x*x + y*y*y == z*z*z + 0*x"],
        "verifications": [{"name": "fermat", "constraint": "x > 1000"}]}


def test_every_check_has_a_timeout():
    started = time.monotonic()
    with pytest.raises(TimedOut, match="proof.timeout"):
        prove(HARD, timeout_ms=200)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("reason", ["timeout", "canceled", "max. resource limit exceeded"])
def test_z3_giving_up_on_its_own_limits_is_a_timeout(reason):
    # Z3 reports its own timer stopping some checks as "canceled": that is exit 4, not the user's 130
    from sym.core.reason.pot.interpret import gave_up

    with pytest.raises(TimedOut, match=r"proof.timeout \(0.2 s\) on v1") as caught:
        gave_up(reason, "on v1", 200)
    assert caught.value.exit_code == 4


def test_z3_interrupted_from_elsewhere_is_cancelled_and_incompleteness_is_unknown():
    from sym.core.reason.pot.interpret import gave_up

    with pytest.raises(Cancelled):
        gave_up("interrupted from keyboard", "on v1", 200)
    assert gave_up("(incomplete quantifiers)", "on v1", 200) is None


def test_setting_cancel_interrupts_a_running_check():
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        prove(HARD, timeout_ms=60_000, cancel=cancel)
    assert time.monotonic() - started < 10


ZOO = {"sorts": [{"name": "Animal", "type": "DeclareSort"}, {"name": "Place", "type": "DeclareSort"}],
       "functions": [{"name": "cat", "domain": ["Animal"], "range": "BoolSort"},
                     {"name": "mammal", "domain": ["Animal"], "range": "BoolSort"},
                     {"name": "lives", "domain": ["Animal", "Place"], "range": "BoolSort"}],
       "constants": {"a": {"sort": "Animal", "members": ["tom"]}, "p": {"sort": "Place", "members": ["home"]}},
       "verifications": [{"name": "tom is a mammal", "constraint": "mammal(tom)"}]}


@pytest.mark.parametrize("knowledge, goal", [
    (["ForAll([x], Implies(cat(x), mammal(x)))", "cat(tom)"], "mammal(tom)"),      # x is an Animal: cat wants one
    (["ForAll([x, y], Implies(lives(x, y), mammal(x)))", "lives(tom, home)"], "mammal(tom)"),   # y a Place
    (["cat(tom)"], "Exists([x], cat(x))")])
def test_a_binder_variable_takes_the_sort_its_arguments_settle(knowledge, goal):
    report = prove({**ZOO, "knowledge_base": knowledge, "verifications": [{"name": "goal", "constraint": goal}]})
    assert [v.status for v in report.verifications] == ["proved"]


@pytest.mark.parametrize("rule, said", [
    ("ForAll([x], Implies(cat(x), lives(home, x)))", "x is not a declared variable (it is used as Animal and Place)"),
    ("ForAll([x], x == x)", "x is not a declared variable"),                # nothing says what x is
    ("Exists([y], ForAll([y], cat(y)))", "y is not a declared variable")])  # the inner y is another y
def test_a_binder_variable_whose_sort_is_not_settled_is_an_error(rule, said):
    with pytest.raises(UserError) as caught:
        prove({**ZOO, "knowledge_base": [rule]})
    assert said in caught.value.message


@pytest.mark.parametrize("knowledge, goal, verdict", [
    (["ForAll([x], cat(x) -> mammal(x))", "cat(tom)"], "mammal(tom)", "proved"),
    (["ForAll([x], cat(x) => !reptile(x))", "cat(tom)"], "reptile(tom)", "refuted"),
    (["cat(tom) & ~mammal(tom)"], "cat(tom) | mammal(tom)", "proved"),
    (["ForAll([x], implies(cat(x), not(reptile(x))))", "cat(tom) && mammal(tom)"],
     "and(mammal(tom), or(reptile(tom), cat(tom)))", "proved"),
])
def test_connectives_written_infix_or_in_lower_case_mean_the_calls(knowledge, goal, verdict):
    """What small models write (`a & b`, `!a`, `a -> b`, `not(a)`) is read as And, Not, Implies:
    the same program in call form gives the same verdict."""
    reptile = {"name": "reptile", "domain": ["Animal"], "range": "BoolSort"}
    report = prove({**ZOO, "functions": [*ZOO["functions"], reptile], "knowledge_base": knowledge,
                    "verifications": [{"name": "goal", "constraint": goal}]})
    assert [v.status for v in report.verifications] == [verdict]


def test_a_program_cannot_name_a_function_after_a_connective():
    functions = [*ZOO["functions"], {"name": "not", "domain": ["Animal"], "range": "BoolSort"}]
    with pytest.raises(UserError, match="reserved word"):
        prove({**ZOO, "functions": functions, "knowledge_base": ["cat(tom)"]})
