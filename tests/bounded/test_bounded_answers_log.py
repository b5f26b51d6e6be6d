"""A query with many answers is logged as it was shown (the first bindings), its count and a
digest of every row — never each answer walked and encoded — and replay still checks it whole."""

from __future__ import annotations

import json
import subprocess

from sym.core.memory.bindings import Bindings
from sym.repl.results import LOG_ROWS
from sym.sessions.log import read_session

EDGES = 60      # 1,830 answers for p(X, Y): over LOG_ROWS


def run(sym_exe, *args):
    return subprocess.run([*sym_exe, *args], capture_output=True, text=True, timeout=300)


def chain(path, edges: int, *, last: str | None = None):
    lines = [f"e(n{i}, n{i + 1})." for i in range(edges)]
    if last is not None:
        lines[-1] = last
    path.write_text("\n".join(lines) + "\np(X, Y) :- e(X, Y).\np(X, Y) :- e(X, Z), p(Z, Y).\n")


def test_a_long_answer_is_logged_as_shown_with_its_count_and_digest(sym_exe, sym_home, tmp_path):
    assert EDGES * (EDGES + 1) // 2 > LOG_ROWS
    chain(tmp_path / "chain.pl", EDGES)
    script = tmp_path / "s.sym"
    script.write_text("/consult chain.pl\n?- p(X, Y).\n?- p(n0, n1).\n?- e(X, Y).\n")
    proc = run(sym_exe, "--batch", str(script))
    assert proc.returncode == 0, proc.stderr
    (path,) = sorted((sym_home / "sessions").glob("*.jsonl"))
    outputs = read_session(path).outputs()
    long = outputs[1]["result"]
    assert long["count"] == 1830 and len(long["bindings"]) == 50
    assert long["bindings"][0] == {"X": "n0", "Y": "n1"} and len(long["rows_sha256"]) == 64
    assert outputs[2]["result"]["truth"] == "true"
    short = outputs[3]["result"]       # a short answer is logged whole, as before
    assert short["count"] == EDGES and len(short["bindings"]) == EDGES and "rows_sha256" not in short
    assert len(path.read_text()) < 60_000

    proc = run(sym_exe, "replay", str(path), "--verify", "--trust")
    assert proc.returncode == 0 and "equal" in proc.stderr, proc.stderr


def test_replay_notices_a_change_past_the_answers_shown(sym_exe, sym_home, tmp_path):
    chain(tmp_path / "chain.pl", EDGES)
    script = tmp_path / "s.sym"
    script.write_text("/consult chain.pl\n?- p(X, Y).\n")
    assert run(sym_exe, "--batch", str(script)).returncode == 0
    (path,) = sorted((sym_home / "sessions").glob("*.jsonl"))
    chain(tmp_path / "chain.pl", EDGES, last=f"e(n{EDGES - 1}, m{EDGES}).")  # the same count, other rows
    proc = run(sym_exe, "replay", str(path), "--verify", "--trust")
    assert proc.returncode == 1 and "input 2" in proc.stderr and "rows_sha256" in proc.stderr, proc.stderr


def test_json_output_still_lists_every_answer(sym_exe, sym_home, tmp_path):
    chain(tmp_path / "chain.pl", EDGES)
    script = tmp_path / "s.sym"
    script.write_text("/consult chain.pl\n?- p(X, Y).\n")
    proc = run(sym_exe, "--batch", str(script), "--json")
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout.strip().splitlines()[-1])
    assert answer["count"] == 1830 and len(answer["bindings"]) == 1830


def test_bindings_read_as_the_list_of_dicts_they_stand_for():
    b = Bindings(["X", "Y"], [("a", 1), ("b", 2)])
    assert len(b) == 2 and b[0] == {"X": "a", "Y": 1} and b[-1] == {"X": "b", "Y": 2}
    assert b[:1] == [{"X": "a", "Y": 1}] and list(b) == [{"X": "a", "Y": 1}, {"X": "b", "Y": 2}]
    assert b == [{"X": "a", "Y": 1}, {"X": "b", "Y": 2}] and b != [{"X": "a", "Y": 1}]
    assert not Bindings(["X"], [])
