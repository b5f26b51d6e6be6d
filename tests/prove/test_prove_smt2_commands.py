"""/prove --file on SMT-LIB 2 scripts as a user types it: results, /program, /export smt2,
clean errors, and `sym --batch` on a script."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import fails
from tests.prove.test_smt2_read import HARDHAT, HEIGHT, SONS

HARD = """(declare-const x Int)
(declare-const y Int)
(declare-const z Int)
(assert (> x 1))
(assert (> y 1))
(assert (> z 1))
(assert (= (+ (* x x x) (* y y y)) (* z z z)))
(define-fun big () Bool (> x 1000))
(check-sat-assuming (big))
"""


def write(folder, name: str, text: str):
    path = folder / name
    path.write_text(text)
    return path


def test_prove_file_on_a_script_gives_named_verdicts_and_models(sym, tmp_path):
    data = sym(f"/prove --file {write(tmp_path, 'sons.smt2', SONS)}").to_dict()
    assert data["consistent"] is True
    assert [(v["name"], v["status"]) for v in data["verifications"]] == [
        ("Jay's brother is John", "proved"), ("Who is Jay's brother", "proved")]
    assert data["verifications"][1]["model"]["y"] == "john"
    json.dumps(data)
    hat = sym(f"/prove --file {write(tmp_path, 'hardhat.smt2', HARDHAT)}").to_dict()
    assert hat["verifications"][0]["status"] == "refuted" and hat["verifications"][0]["counter_model"]["p"] == "carol"


def test_an_inconsistent_script_reports_its_named_core(sym, tmp_path):
    script = HARDHAT.replace("(assert (Worker carol))", "(assert (! (Wearing carol hardHat) :named |carol has a hat|))")
    data = sym(f"/prove --file {write(tmp_path, 'bad-kb.smt2', script)}").to_dict()
    assert data["consistent"] is False and data["core"] == ["carol has a hat", "carol has no hat"]
    assert data["verifications"] == [{"name": "Hard hat compliance", "status": "inconsistent"}]


def test_program_shows_the_script_and_export_writes_it_back_unchanged(sym, tmp_path):
    path = write(tmp_path, "height.smt2", HEIGHT)
    assert sym(f"/prove --file {path}").ok
    assert sym("/program").to_dict()["program"] == {"smt2": HEIGHT}
    out = tmp_path / "again.smt2"
    assert sym(f"/export smt2 {out}").ok
    assert out.read_text() == HEIGHT
    again = sym(f"/prove --file {out}").to_dict()
    assert [(v["name"], v["status"]) for v in again["verifications"]] == [("Sotomayor jumps over the giraffe", "refuted")]


def test_a_bad_script_is_one_line_and_changes_nothing(sym, tmp_path):
    sym("bird(tweety).")
    good = write(tmp_path, "good.smt2", HEIGHT)
    assert sym(f"/prove --file {good}").ok
    before_items, before_program = sorted(sym.shell.memory.items), sym.shell.ctx.recall.program
    bad = write(tmp_path, "bad.smt2", "(declare-const a Bool)\n(assert a)\n(assert (and a nope))\n")
    message = fails(sym(f"/prove --file {bad}"), "bad.smt2", "line 3 column", "nope")
    assert "Traceback" not in message
    include = write(tmp_path, "inc.smt2", '(include "x.smt2")')
    fails(sym(f"/prove --file {include}"), "inc.smt2", "line 1 column 1", "include")
    assert sorted(sym.shell.memory.items) == before_items
    assert sym.shell.ctx.recall.program is before_program
    assert sym("/program").to_dict()["program"] == {"smt2": HEIGHT}


def test_a_json_named_file_with_smt2_content_is_read_as_a_script(sym, tmp_path):
    data = sym(f"/prove --file {write(tmp_path, 'sons.json', SONS)}").to_dict()
    assert [v["status"] for v in data["verifications"]] == ["proved", "proved"]
    commented = write(tmp_path, "height.json", "; a script, whatever its name\n" + HEIGHT)
    assert [v["status"] for v in sym(f"/prove --file {commented}").to_dict()["verifications"]] == ["refuted"]
    fails(sym(f"/prove --file {write(tmp_path, 'oops.json', '(frobnicate)')}"), "oops.json", "line 1 column 1")


def test_a_z3_timeout_on_a_script_is_a_timeout_not_a_cancel(sym, tmp_path):
    assert sym("/set proof.timeout 0.001").ok
    result = sym(f"/prove --file {write(tmp_path, 'hard.smt2', HARD)}")
    message = fails(result, "proof.timeout")
    assert "cancel" not in message.lower()
    assert result.exit_code == 4


def run_batch(sym_exe, folder, script: str, *args: str):
    path = write(folder, "run.sym", script)
    return subprocess.run([*sym_exe, "--batch", str(path), *args], capture_output=True, text=True, timeout=120,
                          cwd=folder)


def test_batch_json_on_a_script_prints_the_verdicts(sym_exe, tmp_path):
    write(tmp_path, "sons.smt2", SONS)
    proc = run_batch(sym_exe, tmp_path, "/prove --file sons.smt2\n/program\n", "--json")
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    proof = objects[0]
    assert proof["ok"] and [(v["name"], v["status"]) for v in proof["verifications"]] == [
        ("Jay's brother is John", "proved"), ("Who is Jay's brother", "proved")]
    assert objects[1]["program"] == {"smt2": SONS}
    text = run_batch(sym_exe, tmp_path, "/prove --file sons.smt2\n")
    assert text.returncode == 0 and "proved" in text.stdout and "Jay's brother is John" in text.stdout


def test_batch_exits_4_on_a_z3_timeout_in_a_script(sym_exe, tmp_path):
    write(tmp_path, "hard.smt2", HARD)
    proc = run_batch(sym_exe, tmp_path, "/set proof.timeout 0.001\n/prove --file hard.smt2\n", "--json")
    assert proc.returncode == 4, proc.stderr
    last = json.loads(proc.stdout.splitlines()[-1])
    assert not last["ok"] and "proof.timeout" in last["error"] and "cancel" not in last["error"].lower()
    assert "Traceback" not in proc.stderr + proc.stdout


def test_batch_exits_1_on_a_bad_script_with_one_line(sym_exe, tmp_path):
    write(tmp_path, "bad.smt2", "(declare-const a Bool)\n(pop)\n")
    proc = run_batch(sym_exe, tmp_path, "/prove --file bad.smt2\n", "--bail")
    assert proc.returncode == 1
    errors = proc.stderr.strip().splitlines()
    assert len(errors) == 1 and "bad.smt2: line 2 column 4" in errors[0]   # where z3 places it
