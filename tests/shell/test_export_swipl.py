"""The Prolog export consults in SWI-Prolog and gives the answers sym gives (skipped without swipl)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
swipl = shutil.which("swipl")


@pytest.mark.skipif(swipl is None, reason="SWI-Prolog (swipl) is not installed")
def test_swi_prolog_agrees_with_sym_on_the_exported_kinship_program(sym, tmp_path):
    sym(f"/consult {ROOT / 'examples' / 'family.pl'}")
    sym("ancestor_of(A, D) :- parent_of(A, D).")
    sym("ancestor_of(A, D) :- ancestor_of(A, P), parent_of(P, D).")   # left recursion: needs tabling
    sym("childless(X) :- person(X), not parent_of(X, _).")
    sym(":- ancestor_of(X, X).")
    out = tmp_path / "kin.pl"
    sym(f"/export prolog {out}")
    goal = (f"consult('{out}'), "
            "findall(X-Y, ancestor_of(X, Y), A), length(A, NA), "
            "findall(X, childless(X), C), msort(C, SC), "
            "(constraint_violated(_) -> V = yes ; V = no), "
            "format('~w ~w ~w~n', [NA, SC, V]), halt")
    proc = subprocess.run([swipl, "-q", "-g", goal], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    n_ancestors = len(sym("?- ancestor_of(X, Y).").answer.bindings)
    childless = sorted(b["X"] for b in sym("?- childless(X).").answer.bindings)
    assert proc.stdout.split() == [str(n_ancestors), "[" + ",".join(childless) + "]", "no"]
    assert "Warning" not in proc.stderr


def test_built_in_goals_are_exported_as_written(sym, tmp_path):
    sym("p(a).")
    sym("q(X) :- p(X), true.")
    sym("r(X) :- p(X), fail.")
    out = tmp_path / "b.pl"
    sym(f"/export prolog {out}")
    text = out.read_text()
    assert "q(X) :- p(X), true." in text and "r(X) :- p(X), fail." in text
    assert "true = true" not in text and "fail \\= fail" not in text


def test_only_recursive_predicates_are_tabled(sym_exe, sym_home):
    """`:- table` for a predicate that reaches itself through rules (directly or by a cycle), no other."""
    script = ("e(a, b).\nr(X, Y) :- e(X, Y).\nr(X, Z) :- e(X, Y), r(Y, Z).\ns(X) :- e(X, _).\n"
              "t(X) :- s(X), r(X, _).\nodd(X) :- e(X, Y), even(Y).\neven(X) :- e(X, Y), odd(Y).\n/export prolog\n")
    proc = subprocess.run([*sym_exe, "--batch", "-"], input=script, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    tabled = [line for line in proc.stdout.splitlines() if line.startswith(":- table")]
    assert tabled == [":- table even/1.", ":- table odd/1.", ":- table r/2."]
