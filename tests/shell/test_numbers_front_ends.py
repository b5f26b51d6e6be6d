"""Arithmetic and aggregates as users reach them: a consulted file, typed clauses and `?-` in
`--batch` (text and --json, exit codes), the `--plain` REPL, and the Prolog export run in swipl."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.shell.test_prompt_repl import run as plain

PROGRAM = """\
person(ann). person(bob). person(cy).
parent_of(ann, bob). parent_of(ann, cy).
age(ann, 61). age(bob, 35). age(cy, 30).
price(tea, 2.5). price(cake, 4). price(bun, 1).
children(P, N) :- person(P), aggregate_all(count, parent_of(P, _), N).
total(T) :- aggregate_all(sum(C), price(_, C), T).
oldest(W) :- aggregate_all(max(A, P), age(P, A), max(_, W)).
older(X, Y) :- age(X, A), age(Y, B), A > B.
gap(X, Y, D) :- parent_of(X, Y), age(X, A), age(Y, B), D is A - B.
"""


def test_a_consulted_program_answers_in_batch_text_and_json(sym_exe, tmp_path):
    (tmp_path / "family.pl").write_text(PROGRAM)
    script = tmp_path / "numbers.sym"
    script.write_text(f"/consult {tmp_path / 'family.pl'}\n?- children(P, N).\n?- total(T).\n?- oldest(W).\n"
                      "?- gap(ann, Y, D), D > 28.\n?- X is 2 ** 70 + 1.\n")
    proc = subprocess.run([*sym_exe, "--batch", str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "P = ann, N = 2" in out and "P = cy, N = 0" in out
    assert "T = 7.5" in out and "W = ann" in out and "Y = bob, D = 26" not in out and "Y = cy, D = 31" in out
    assert "X = 1180591620717411303425" in out
    proc = subprocess.run([*sym_exe, "--batch", str(script), "--json"], capture_output=True, text=True, timeout=120)
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert rows[1]["bindings"] == [{"P": "ann", "N": 2}, {"P": "bob", "N": 0}, {"P": "cy", "N": 0}]
    assert rows[2]["bindings"] == [{"T": 7.5}]


def test_a_value_arithmetic_cannot_take_is_one_line_and_exit_1(sym_exe, tmp_path):
    script = tmp_path / "bad.sym"
    script.write_text("n(0).\n?- n(X), Y is 10 / X.\n?- n(X), Y is X + 1.\n")
    proc = subprocess.run([*sym_exe, "--batch", str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and "division by zero" in errors[0] and "Traceback" not in proc.stderr
    assert "X = 0, Y = 1" in proc.stdout     # the script went on, memory as it was


def test_an_unsafe_is_is_refused_when_stored_naming_the_variable(sym_exe, tmp_path):
    script = tmp_path / "unsafe.sym"
    script.write_text("p(N) :- q(X), N is Y + 1.\n")
    proc = subprocess.run([*sym_exe, "--batch", str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "variable Y" in proc.stderr and "added" not in proc.stdout


def test_the_plain_repl_reads_typed_numbers(shell):
    code, out, err = plain(shell, "cost(a, 3). cost(b, 4).\ntotal(T) :- aggregate_all(sum(C), cost(_, C), T).\n"
                                  "?- total(T), H is T / 2.\n\x04")
    assert code == 0 and "T = 7, H = 3.5" in out, (out, err)


@pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog (swipl) is not installed")
def test_the_export_runs_in_swipl_with_the_answers_sym_gives(sym, tmp_path):
    (tmp_path / "family.pl").write_text(PROGRAM)
    sym(f"/consult {tmp_path / 'family.pl'}")
    sym("young(X) :- H is A * 2, age(X, A), H < 70.")     # written before what binds A: exported after it
    out = tmp_path / "out.pl"
    sym(f"/export prolog {out}")
    goal = (f"consult('{out}'), forall(member(G, [children(_, _), total(_), oldest(_), gap(_, _, _), young(_)]),"
            " (findall(G, G, L), msort(L, S), print(S), nl)), halt")
    proc = subprocess.run(["swipl", "-q", "-g", goal], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "Warning" not in proc.stderr, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "[children(ann,2),children(bob,0),children(cy,0)]"
    assert lines[1] == "[total(7.5)]" and lines[2] == "[oldest(ann)]"
    assert lines[3] == "[gap(ann,bob,26),gap(ann,cy,31)]" and lines[4] == "[young(cy)]"
    assert [b["X"] for b in sym("?- young(X).").answer.bindings] == ["cy"]


def test_the_numbers_example_runs_offline_and_answers(sym_exe):
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "numbers.sym"
    proc = subprocess.run([*sym_exe, "--batch", str(example)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "P = ann, N = 2" in out and "W = ann, M = 61" in out and "Mean = 2.5" in out
    assert "aggregate of 2 solutions" in out and "\nfalse\n" in out and "2 known" in out
