"""/prove --file, /program, /export smt2, /check and /math as a user types them."""

from __future__ import annotations

import json
from pathlib import Path

from sym.core.events import ModelShown

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_prove_file_lists_every_verification_with_its_status(sym):
    result = sym(f"/prove --file {EXAMPLES / 'hardhat.json'}")
    data = result.to_dict()
    assert data["verifications"][0]["name"] == "Hard hat compliance"
    assert data["verifications"][0]["status"] == "refuted"
    assert data["verifications"][0]["counter_model"]["p"] == "carol"
    json.dumps(data)


def test_prove_file_emits_the_counter_model_for_the_models_pane(shell):
    seen = []
    shell.ctx.emit = seen.append
    shell.execute(f"/prove --file {EXAMPLES / 'height.json'}")
    kinds = [e.kind for e in seen if isinstance(e, ModelShown)]
    assert "z3.counter-model" in kinds and "program" in kinds


def test_program_shows_the_last_program_and_smt2_exports_it(sym, tmp_path):
    assert not sym("/program").ok
    sym(f"/prove --file {EXAMPLES / 'sons.json'}")
    shown = sym("/program").to_dict()
    assert shown["program"]["constants"]["people"]["members"] == ["bob", "john", "jay"]
    out = tmp_path / "sons.smt2"
    assert sym(f"/export smt2 {out}").ok
    import z3

    answers = z3.Z3_eval_smtlib2_string(z3.main_ctx().ref(), out.read_text()).split()
    assert answers == ["sat", "sat"]   # Z3 itself runs the script: each claim is consistent with the rest
    back = sym(f"/prove --file {out}").to_dict()      # and sym reads it back to the same verdicts
    assert [(v["name"], v["status"]) for v in back["verifications"]] == [
        ("Jay's brother is John", "proved"), ("Who is Jay's brother", "proved")]
    assert "(check-sat-assuming" in sym("/program").to_dict()["program"]["smt2"]


def test_a_bad_program_file_is_a_clean_error_naming_the_path(sym, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"functions": [{"name": "f", "domain": ["Nope"], "range": "BoolSort"}]}))
    result = sym(f"/prove --file {bad}")
    assert not result.ok and "functions[0].domain[0]" in result.message
    assert not sym("/prove --file missing.json").ok


def test_check_reports_consistent_memory(sym):
    sym("bird(tweety).")
    sym("flies(X) :- bird(X).")
    assert sym("/check").to_dict()["consistent"] is True


def test_check_names_the_clashing_items_by_id(sym):
    a = sym("bird(tweety).").items[0].id
    sym("penguin(tweety).")
    b = sym("~flies(X) :- penguin(X).").items[0].id
    c = sym("flies(tweety).").items[0].id
    sym("age(tweety, 3).")
    result = sym("/check").to_dict()
    assert result["consistent"] is False
    assert set(result["core"]) <= {a, b, c} | {it for it in sym.shell.memory.items}
    assert b in result["core"] and c in result["core"]


def test_check_uses_comparisons_and_constraints(sym):
    sym("age(tom, 5).")
    rule = sym("old(X) :- age(X, N), N > 3.").items[0].id
    con = sym(":- old(tom).").items[0].id
    fact = sym("age(tom, 5).")
    result = sym("/check").to_dict()
    assert result["consistent"] is False and {rule, con} <= set(result["core"])
    sym(f"/forget {con}")
    assert sym("/check").to_dict()["consistent"] is True
    del fact


def test_math_factor_collects_d(sym):
    result = sym("/math factor collect(a*x + b*x - c*x - a*y - b*y + c*y + d, d)")
    assert result.to_dict()["result"] == "d + (x - y)*(a + b - c)"


def test_math_latex_on_request(sym):
    from sym.repl.render import to_text

    assert to_text(sym("/math diff x^3 wrt x --latex")) == "3 x^{2}"
    assert to_text(sym("/math diff x^3 wrt x")) == "3*x**2"


def test_math_rejects_code(sym):
    for text in ["/math simplify __import__('os')", "/math simplify x.__class__", "/math frobnicate x"]:
        assert not sym(text).ok
