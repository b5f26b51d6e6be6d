"""/prove shows a model as a user reads it: an element no constant names is `some Thing (#2)`,
not Z3's `Thing!val!2`, and a model beside a counter-model is shown where the two differ."""

from __future__ import annotations

from sym.core.reason.pot.interpret import ProofReport, VerificationResult
from sym.repl.commands.proof import ProofResult
from sym.repl.render import to_text

WITNESS = """(declare-sort Thing 0)
(declare-const a Thing)
(declare-fun big (Thing) Bool)
(assert (big a))
(define-fun {name} () Bool (exists ((x Thing)) (and (big x) (not (= x a)))))
(check-sat-assuming ({name}))
"""


def prove(sym, tmp_path, text: str, name: str = "claim"):
    path = tmp_path / f"{name}.smt2"
    path.write_text(text.format(name=name))
    result = sym(f"/prove --file {path}")
    assert result.ok, result
    return result


def test_an_element_no_constant_names_is_shown_as_some_thing(sym, tmp_path):
    result = prove(sym, tmp_path, WITNESS, "another_big_thing")
    text = to_text(result)
    assert "!val!" not in text and "!val!" not in str(result.to_dict())
    assert "some Thing (#" in text
    assert result.to_dict()["verifications"][0]["model"]["x"].startswith("some Thing (#")


def test_model_and_counter_model_are_shown_where_they_differ(sym, tmp_path):
    text = to_text(prove(sym, tmp_path, WITNESS))
    lines = text.splitlines()
    assert "  model and counter-model differ in 1 value:" in lines
    header = next(line for line in lines if "counter-model (fails)" in line and "model (holds)" in line)
    row = lines[lines.index(header) + 1]
    assert row.split("=")[0].strip() == "x" and "some Thing (#" in row and "(not in this model)" in row
    # what both hold is printed once, not as two identical tables
    assert text.count("big(a) = True") == 1 and "the same in both (1 value):" in text


def test_models_that_agree_on_every_value_shown_say_so():
    same = {"p(a)": True, "n": 3}
    report = ProofReport([VerificationResult("claim", "unknown", model=dict(same), counter_model=dict(same))], True)
    text = to_text(ProofResult(report, "claims.json"))
    assert "agree on every value shown" in text and text.count("p(a) = True") == 1
    assert "model (holds):" not in text and "counter-model (fails):" not in text
