"""/prove --file on SMT-LIB scripts means what SMT-LIB means (issue #50, S1–S7): exit ends the
script, scopes pop declarations, each check is answered at its point, a check past proof.timeout
is unknown (timeout) while the others report, every optimization is reported, set-logic and
options reach Z3, a non-UTF-8 file is read, and (check-sat LIT …) assumes its literals."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import fails
from tests.prove.test_prove_smt2_commands import HARD


def prove(sym, tmp_path, text: str | bytes, name: str = "s.smt2") -> dict:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    result = sym(f"/prove --file {path}")
    assert result.ok, getattr(result, "message", result)
    return result.to_dict()


def answers(data: dict) -> list[str]:
    return [c["answer"] for c in data["checks"]]


def statuses(data: dict) -> list[tuple[str, str]]:
    return [(v["name"], v["status"]) for v in data["verifications"]]


def test_s1_nothing_after_exit_counts(sym, tmp_path):
    data = prove(sym, tmp_path, "(declare-const a Bool)\n(assert a)\n(check-sat)\n(exit)\n(assert (not a))\n(check-sat)\n")
    assert answers(data) == ["sat"] and data["consistent"] is True


def test_s2_a_scope_pops_its_declarations(sym, tmp_path):
    script = ("(push 1)\n(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n(pop 1)\n"
              "(declare-const x Bool)\n(assert x)\n(check-sat)\n")
    assert answers(prove(sym, tmp_path, script)) == ["sat", "sat"]
    popped = tmp_path / "popped.smt2"
    popped.write_text("(push 1)\n(declare-const y Int)\n(pop 1)\n(assert (> y 0))\n(check-sat)\n")
    data = prove(sym, tmp_path, popped.read_text(), "popped.smt2")      # z3: the error, then sat
    assert answers(data) == ["sat"]
    assert data["output"][0]["text"] == '(error "line 4 column 11: unknown constant y")'
    popped.write_text("(push 1)\n(declare-const y Int)\n(pop 1)\n(assert (> y 0))\n")   # nothing answered
    fails(sym(f"/prove --file {popped}"), "popped.smt2", "line 4 column 11", "unknown constant y")


def test_s3_a_claim_is_judged_by_what_is_asserted_before_it(sym, tmp_path):
    script = ("(declare-const g Bool)\n(declare-const h Bool)\n(assert (=> h g))\n(check-sat-assuming (g))\n"
              "(assert (not g))\n(check-sat-assuming (g))\n")
    data = prove(sym, tmp_path, script)
    assert answers(data) == ["sat", "unsat"]
    assert statuses(data) == [("g", "unknown"), ("g", "refuted")]


def test_s3_a_scoped_claim_sees_the_top_level_before_it_only(sym, tmp_path):
    script = ("(declare-const a Bool)\n(push)\n(assert a)\n(check-sat)\n(pop)\n(assert (not a))\n(check-sat)\n")
    data = prove(sym, tmp_path, script)
    assert answers(data) == ["sat", "sat"]
    assert statuses(data) == [("a", "unknown")]


def test_s4_a_claim_past_the_timeout_is_unknown_and_the_others_still_report(sym, tmp_path):
    assert sym("/set proof.timeout 0.3").ok
    script = ("(declare-const p Bool)\n(assert p)\n(push)\n" + HARD + "(pop)\n"
              "(define-fun easy () Bool p)\n(check-sat-assuming (easy))\n")
    data = prove(sym, tmp_path, script)
    first, second = data["checks"]
    assert first["timeout"] and first["answer"] == "unknown"
    assert statuses(data) == [("big", "unknown"), ("easy", "proved")]
    assert "proof.timeout" in data["verifications"][0]["reason"]


def test_s4_every_check_past_the_timeout_is_a_timeout_exit_4(sym_exe, tmp_path):
    (tmp_path / "hard.smt2").write_text(HARD)
    (tmp_path / "run.sym").write_text("/set proof.timeout 0.2\n/prove --file hard.smt2\n")
    proc = subprocess.run([*sym_exe, "--batch", "run.sym", "--json"], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert proc.returncode == 4, proc.stderr
    assert "proof.timeout" in json.loads(proc.stdout.splitlines()[-1])["error"]


def test_s4_an_inconsistency_stands_when_its_core_cannot_be_found_in_time(sym, tmp_path, monkeypatch):
    from sym.core.reason.pot import smt2_verdicts

    monkeypatch.setattr(smt2_verdicts, "MAX_CORES", 0)      # as if every core pass had run out of time
    data = prove(sym, tmp_path, "(declare-const a Bool)\n(assert a)\n(assert (not a))\n(check-sat)\n")
    assert data["consistent"] is False and answers(data) == ["unsat"]


def test_s5_every_optimization_is_reported_and_an_unbounded_one_says_so(sym, tmp_path):
    script = ("(declare-const x Int)\n(push)\n(assert (< x 5))\n(maximize x)\n(check-sat)\n(pop)\n"
              "(push)\n(minimize x)\n(check-sat)\n(pop)\n")
    data = prove(sym, tmp_path, script)
    first, second = data["optimizations"]
    assert first["status"] == "optimal" and first["objectives"][0]["optimum"] == 4
    assert second["status"] == "unbounded" and second["objectives"][0]["optimum"] == "-oo"
    text = sym(f"/prove --file {tmp_path / 's.smt2'}")
    from sym.repl.render import to_text

    shown = to_text(text)
    assert "unbounded" in shown and "-1*oo" not in shown and "maximize x = 4" in shown


def test_s5_a_top_level_objective_and_soft_assertions_are_optimized(sym, tmp_path):
    script = ("(declare-const x Int)\n(assert (>= x 0))\n(assert-soft (> x 3) :weight 2)\n(assert-soft (< x 2))\n"
              "(minimize x)\n(check-sat)\n(get-objectives)\n")
    data = prove(sym, tmp_path, script)
    assert answers(data) == ["sat"] and data["optimization"]["status"] == "optimal"
    assert data["output"] and data["output"][0]["command"] == "get-objectives"


def test_s6_set_logic_horn_gives_a_verdict(sym, tmp_path):
    script = ("(set-logic HORN)\n(declare-fun inv (Int) Bool)\n(assert (forall ((x Int)) (=> (= x 0) (inv x))))\n"
              "(assert (forall ((x Int)) (=> (and (inv x) (< x 10)) (inv (+ x 1)))))\n"
              "(assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))\n(check-sat)\n")
    assert answers(prove(sym, tmp_path, script)) == ["sat"]
    bad = script.replace("(> x 10)", "(> x 5)")
    assert answers(prove(sym, tmp_path, bad)) == ["unsat"]


def test_s6_options_reach_z3_and_unsafe_ones_do_not(sym, tmp_path):
    out = tmp_path / "out.txt"
    script = (f'(set-option :regular-output-channel "{out}")\n(set-option :pp.decimal true)\n'
              "(declare-const x Real)\n(assert (= x (/ 1 3)))\n(check-sat)\n(get-value (x))\n")
    data = prove(sym, tmp_path, script)
    assert answers(data) == ["sat"] and "0.3333" in data["output"][0]["text"]
    assert not out.exists()


def test_s6_a_script_that_is_not_utf8_is_read_as_z3_reads_it(sym, tmp_path):
    script = "; caf\xe9 in Latin-1\n(declare-const a Bool)\n(assert a)\n(check-sat)\n".encode("latin-1")
    assert answers(prove(sym, tmp_path, script)) == ["sat"]


def test_s7_check_sat_with_literals_assumes_them(sym, tmp_path):
    data = prove(sym, tmp_path, "(declare-const g Bool)\n(assert (not g))\n(check-sat g)\n(check-sat)\n")
    assert answers(data) == ["unsat", "sat"]
    assert statuses(data) == [("g", "refuted")]


def test_reset_starts_over_and_simplify_prints(sym, tmp_path):
    script = ("(declare-const a Bool)\n(assert a)\n(assert (not a))\n(check-sat)\n(reset)\n(declare-const a Int)\n"
              "(simplify (+ a 1 2))\n(check-sat-using (then simplify smt))\n")
    data = prove(sym, tmp_path, script)
    assert answers(data) == ["unsat", "sat"]
    assert data["output"][0]["command"] == "simplify" and "(+ 3 a)" in data["output"][0]["text"]


def test_a_command_z3_rejects_prints_its_error_as_z3_does_and_the_script_goes_on(sym, tmp_path):
    # z3 prints these three lines, each where in the file it found the fault, and answers sat twice
    script = ("(declare-const x Int)\n(assert (> x\n   y))\n  (assert (> x 1))\n(check-sat)\n"
              "(declare-fun f (Int) Foo)\n(check-sat-using (then foo smt))\n(assert (< x 0))\n(check-sat)\n")
    data = prove(sym, tmp_path, script)
    assert answers(data) == ["sat", "unsat"]
    assert [o["text"] for o in data["output"]] == [
        '(error "line 3 column 3: unknown constant y")',
        "(error \"line 6 column 21: Invalid function declaration: unknown sort 'Foo'\")",
        '(error "line 7 column 23: invalid tactic, unknown tactic foo")']


def test_a_horn_engine_option_set_in_the_script_reaches_z3(sym, tmp_path):
    # z3test 3834: with bit-blasting z3 answers in 0.02 s; without it, seconds (past this limit)
    sym("/set proof.timeout 1")
    script = ("(set-logic HORN)\n(set-option :fp.xform.bit_blast true)\n(assert (forall ((q59 (_ BitVec 10)) "
              "(q60 (_ BitVec 10)) (q61 (_ BitVec 10)) (q62 (_ BitVec 16))) (distinct (bvnand q60 (_ bv0 10)) "
              "(bvlshr q59 q60))))\n(check-sat)\n")
    assert answers(prove(sym, tmp_path, script)) == ["unsat"]


def test_error_behavior_immediate_exit_ends_the_script_at_the_next_error(sym, tmp_path):
    script = ("(declare-const a Bool)\n(define-const x Bool 10)\n(check-sat)\n(set-option :error-behavior immediate-exit)\n"
              "(define-const y Bool 10)\n(check-sat)\n")
    data = prove(sym, tmp_path, script)
    assert answers(data) == ["sat"]          # z3: the error, sat, the error, and it exits
    assert [o["text"] for o in data["output"]] == [
        '(error "line 2 column 23: invalid constant definition, sort mismatch")',
        '(error "line 5 column 23: invalid constant definition, sort mismatch")']


def test_reset_sets_the_options_back_as_z3_does(sym, tmp_path):
    # z3test pat2: without MBQI z3 cannot say sat; after (reset) it is on again, and z3 says sat
    body = ("(declare-fun p (Int) Bool)\n(declare-const a Int)\n"
            "(assert (forall ((x Int) (y Int)) (! (p (+ x y 2)) :pattern (p (+ x y 2)))))\n(assert (p (+ a 2)))\n")
    script = ("(set-option :auto-config false)\n(set-option :smt.mbqi false)\n" + body + "(check-sat)\n(reset)\n"
              "(set-option :auto-config true)\n" + body + "(check-sat)\n")
    assert answers(prove(sym, tmp_path, script)) == ["unknown", "sat"]


def test_get_consequences_answers_as_a_check_and_prints_them(sym, tmp_path):
    script = ("(declare-const a Bool)\n(declare-const b Bool)\n(assert (=> a b))\n"
              "(get-consequences (a) (b))\n")
    data = prove(sym, tmp_path, script)
    assert answers(data) == ["sat"]
    assert "(=> a b)" in data["output"][0]["text"]
