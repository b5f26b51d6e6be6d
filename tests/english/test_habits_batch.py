"""SWI-Prolog habits in `sym --batch`, through the installed console script: halt. ends the script
with exit 0, and every query path answers true. / false. in text and the same shapes in --json."""

from __future__ import annotations

import json
import subprocess

SCRIPT = r"""bird(tweety). bird(polly). big(polly).
small(X) :- bird(X), \+ big(X).
?- small(X).
?- bird(_).
?- bird(X), X = zed.
?- bird(zed).
?- bird(tweety).
?- true.
?- fail.
listing.
halt.
never(run).
?- never(run).
"""


def run(sym_exe, tmp_path, *args: str):
    path = tmp_path / "habits.sym"
    path.write_text(SCRIPT)
    return subprocess.run([*sym_exe, "--batch", str(path), *args], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)


def test_halt_stops_the_script_with_exit_0_and_queries_answer_like_prolog(sym_exe, tmp_path):
    proc = run(sym_exe, tmp_path)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = proc.stdout.splitlines()
    answers = out[out.index("X = tweety"):]
    assert answers[:8] == ["X = tweety", "1 answer.", "true.", "false.", "false.", "true.", "true.", "false."]
    assert any(line.endswith("small(X) :- bird(X), not big(X).") for line in out)     # listing.
    assert out[-1] == "bye." and "never" not in proc.stdout


def test_json_keeps_its_shapes(sym_exe, tmp_path):
    proc = run(sym_exe, tmp_path, "--json")
    assert proc.returncode == 0, proc.stderr
    objects = {o["input"]: o for o in map(json.loads, proc.stdout.splitlines())}
    assert objects["?- small(X)."]["bindings"] == [{"X": "tweety"}]
    assert objects["?- bird(_)."]["truth"] == "true" and "bindings" not in objects["?- bird(_)."]
    nothing = objects["?- bird(X), X = zed."]
    assert (nothing["variables"], nothing["bindings"], nothing["count"]) == (["X"], [], 0)
    assert objects["?- bird(zed)."]["truth"] == "false" and objects["?- fail."]["truth"] == "false"
    assert objects["listing."]["kind"] == "listing" and len(objects["listing."]["items"]) == 4
    assert objects["halt."]["kind"] == "exit" and "never(run)." not in objects


def test_true_as_a_fact_is_one_clear_line_and_exit_1(sym_exe, tmp_path):
    path = tmp_path / "bad.sym"
    path.write_text("p(a).\ntrue.\n?- p(a).\n")
    proc = subprocess.run([*sym_exe, "--batch", str(path)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == ["error: line 2: true cannot be stored as a fact: true is a built-in goal "
                                        "(it always holds) — give the predicate another name"]
    assert proc.stdout.splitlines()[-1] == "true."
