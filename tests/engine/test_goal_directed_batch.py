"""The reproduction of issue 31 end to end through `sym --batch`: beside a closure too large for
max_facts, questions on stored facts and point questions answer at once; the one question that
would need that closure stops with a message naming it and suggesting a narrower question."""

from __future__ import annotations

import json
import subprocess


def test_questions_beside_an_unrelated_large_closure_answer_at_once(sym_exe, tmp_path):
    chains = [f"e(n{i}, n{i + 1}).\n" for i in range(100)] + [f"e2(m{i}, m{i + 1}).\n" for i in range(1000)]
    rules = ["p(X, Y) :- e(X, Y).\n", "p(X, Y) :- e(X, Z), p(Z, Y).\n",
             "p2(X, Y) :- e2(X, Y).\n", "p2(X, Y) :- e2(X, Z), p2(Z, Y).\n"]
    (tmp_path / "chains.pl").write_text("".join(chains + rules))
    script = tmp_path / "repro.sym"
    # p2's closure has 500,500 facts: materializing the model first (as every query once did)
    # stops at max_facts before answering anything
    script.write_text("/set max_facts 50000\n/consult chains.pl\n?- e(X, Y).\n?- p(n0, X).\n?- p2(m990, X).\n"
                      "?- p2(m0, m1000).\n/why p(n0, n3)\n?- p2(X, Y).\n")
    proc = subprocess.run([*sym_exe, "--batch", str(script), "--json"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    objects = {o["line"]: o for o in map(json.loads, proc.stdout.splitlines())}
    assert all(objects[line]["ok"] for line in range(1, 8)), proc.stdout
    assert objects[3]["count"] == 100                              # ?- e(X, Y).  stored facts only
    assert objects[4]["count"] == 100                              # ?- p(n0, X).
    assert [b["X"] for b in objects[5]["bindings"]] == [f"m{i}" for i in range(991, 1001)]
    assert objects[6]["truth"] == "true"                           # ?- p2(m0, m1000).
    proof = objects[7]["proofs"][0]
    assert proof["status"] == "derived" and proof["step"] == 3
    assert [p["literal"] for p in proof["premises"]] == ["e(n0, n1)", "p(n1, n3)"]
    stopped = objects[8]                                           # ?- p2(X, Y).  needs all of it
    assert not stopped["ok"] and "max_facts" in stopped["error"] and "p2/2" in stopped["error"]
    assert "narrower" in stopped["hint"] and "/set max_facts" in stopped["hint"] and "/infer" not in stopped["hint"]
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
