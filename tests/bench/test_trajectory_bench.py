"""`sym bench trajectory` end to end: sessions recorded by `sym --batch` scored against each other and
against JSON lines of steps, through the installed console script."""

from __future__ import annotations

import json
import subprocess

from sym.core.memory.embedders import default_embedder

SCRIPT = "parent_of(ann, ben).\nparent_of(ben, carl).\nancestor(X, Y) :- parent_of(X, Y).\n?- ancestor(ann, ben).\n"
CHANGED = SCRIPT.replace("?- ancestor(ann, ben).", "?- ancestor(carl, ann).")


def run(sym_exe, *args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*sym_exe, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def record(sym_exe, sym_home, tmp_path, name: str, text: str):
    """Run a script headless in a fresh workspace of its own and return the session log it left."""
    before = set((sym_home / "sessions").glob("*.jsonl")) if (sym_home / "sessions").exists() else set()
    script = tmp_path / name
    script.write_text(text)
    done = run(sym_exe, "--batch", str(script), "--embedder", "hash", "--memory", script.stem)
    assert done.returncode == 0, done.stderr
    (log,) = set((sym_home / "sessions").glob("*.jsonl")) - before
    return log


def test_recorded_sessions_are_scored_per_step_and_overall(sym_exe, sym_home, tmp_path):
    first = record(sym_exe, sym_home, tmp_path, "first.sym", SCRIPT)
    again = record(sym_exe, sym_home, tmp_path, "again.sym", SCRIPT)
    changed = record(sym_exe, sym_home, tmp_path, "changed.sym", CHANGED)

    same = run(sym_exe, "bench", "trajectory", "--run", str(again), "--reference", str(first), "--embedder", "hash",
               "--json")
    assert same.returncode == 0, same.stderr
    got = json.loads(same.stdout)
    assert got["embedder"] == "hash" and got["kernel"] == "gaussian" and got["overall"] == 1.0
    assert [s["score"] for s in got["steps"]] == [1.0] * 4 and got["references"] == [str(first)]

    other = json.loads(run(sym_exe, "bench", "trajectory", "--run", str(changed), "--reference", str(first),
                           "--embedder", "hash", "--json").stdout)
    assert [s["score"] for s in other["steps"]][:3] == [1.0] * 3
    assert 0.0 <= other["steps"][3]["score"] < 1.0 and other["overall"] < 1.0


def test_text_output_names_the_default_embedder_and_shows_each_step(sym_exe, tmp_path):
    ref = tmp_path / "ref.jsonl"
    ref.write_text("".join(json.dumps({"step": s}) + "\n" for s in ("Find the ancestors of ann.", "Ann has two.")))
    short = tmp_path / "short.jsonl"
    short.write_text('"Find the ancestors of ann."\n')
    done = run(sym_exe, "bench", "trajectory", "--run", str(short), "--reference", str(ref))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert f"embedder {default_embedder()}" in lines[0]
    assert lines[2].split()[:2] == ["1", "1.000"] and lines[3].split()[:2] == ["2", "0.000"]
    assert "(missing)" in lines[3]
    assert lines[-1].startswith("overall 0.5000") and f"embedder {default_embedder()}" in lines[-1]


def test_a_malformed_file_is_one_line_and_exit_2(sym_exe, tmp_path):
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text('"a step"\n')
    bad.write_text('{"step": "a step"}\n{"step": ["not", "text"]}\n')
    done = run(sym_exe, "bench", "trajectory", "--run", str(good), "--reference", str(bad), "--embedder", "hash")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [done.stderr.strip()] and "bad.jsonl:2: not a step" in done.stderr
    for args in (["--reference", str(good), "--embedder", "nope"], [], ["--reference", str(good), "--baseline", "x"]):
        done = run(sym_exe, "bench", "trajectory", "--run", str(good), *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, args
