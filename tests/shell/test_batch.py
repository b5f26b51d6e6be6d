"""`sym --batch` end to end, through the installed console script in a subprocess."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "kinship.sym"


def run(sym_exe, *args, stdin: str | None = None, cwd: Path | None = None):
    return subprocess.run([*sym_exe, *args], input=stdin, capture_output=True, text=True, timeout=60, cwd=cwd)


def test_the_kinship_example_prints_its_answers(sym_exe):
    proc = run(sym_exe, "--batch", str(EXAMPLE))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "X = ann" in out                      # ?- sister_of(X, louis).
    assert "Who = mia" in out and "Who = ben" in out
    assert "sister_of(ann, louis)  [rule" in out   # /why prints a tree
    assert "unknown." in out                      # open-world query
    assert proc.stderr == ""


def test_json_mode_gives_one_object_per_command(sym_exe):
    proc = run(sym_exe, "--batch", str(EXAMPLE), "--json")
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all(o["ok"] for o in objects)
    queries = [o for o in objects if o["kind"] == "answer"]
    sister = next(o for o in queries if o["query"] == "?- sister_of(X, louis).")
    assert sister["bindings"] == [{"X": "ann"}] and sister["count"] == 1
    assert any(o.get("truth") == "unknown" for o in queries)
    proof = next(o for o in objects if o["kind"] == "proof")
    assert proof["proofs"][0]["status"] == "derived"
    assert objects[0]["command"] == "/workspace" and objects[0]["workspace"] == "kinship-example"
    assert objects[1]["line"] == 5 and objects[1]["command"] == "/consult"


# (script after "ok(1).", the error it must give, facts and rules stored afterwards)
BAD_INPUTS = [
    ("p(a) q(b).", "column", 1, 0),
    ("?- nowhere(X).", "unknown predicate nowhere/1", 1, 0),
    ("q(a).\np(X) :- q(X), not r(X).\nr(X) :- q(X), not p(X).", "not stratifiable", 2, 1),
    ("/consult /no/such/file.pl", "no such file", 1, 0),
    ("/frobnicate", "unknown command /frobnicate", 1, 0),
    ("p(X).", "has variables", 1, 0),
]
MESSAGES = [(script, message) for script, message, _, _ in BAD_INPUTS]


@pytest.mark.parametrize("script,message", MESSAGES)
def test_bad_input_gives_one_clear_line_and_exit_1_with_bail(sym_exe, tmp_path, script, message):
    path = tmp_path / "bad.sym"
    path.write_text("ok(1).\n" + script + "\n/show\n")
    proc = run(sym_exe, "--batch", str(path), "--bail")
    assert proc.returncode == 1
    errors = proc.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith("error: line ") and message in errors[0]
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "workspace" not in proc.stdout          # --bail stopped before /show


@pytest.mark.parametrize("script,message,facts,rules", BAD_INPUTS)
def test_a_failed_command_leaves_memory_unchanged(sym_exe, tmp_path, script, message, facts, rules):
    path = tmp_path / "bad.sym"
    path.write_text("ok(1).\n" + script + "\n/show\n")
    proc = run(sym_exe, "--batch", str(path), "--json")
    assert proc.returncode == 1
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    failed = [o for o in objects if not o["ok"]]
    assert failed and message in failed[-1]["error"]
    summary = objects[-1]["rows"]
    assert (summary["facts"], summary["rules"]) == (facts, rules)


def test_without_bail_the_script_goes_on_and_still_exits_1(sym_exe, tmp_path):
    path = tmp_path / "s.sym"
    path.write_text("/nope\np(a).\n?- p(a).\n")
    proc = run(sym_exe, "--batch", str(path))
    assert proc.returncode == 1
    assert proc.stdout.strip().endswith("true.")


def test_batch_reads_standard_input_with_a_dash(sym_exe):
    proc = run(sym_exe, "--batch", "-", stdin="edge(a, b).\nedge(b, c).\npath(X, Y) :- edge(X, Y).\n"
               "path(X, Z) :- path(X, Y), edge(Y, Z).\n?- path(a, c).\n")
    assert proc.returncode == 0 and proc.stdout.strip().endswith("true.")


def test_echo_shows_each_input_before_its_result(sym_exe):
    proc = run(sym_exe, "--batch", "-", "--echo", stdin="p(a).\n?- p(X).\n")
    lines = proc.stdout.splitlines()
    assert lines[0] == "» p(a)." and lines[2] == "» ?- p(X)." and lines[3] == "X = a"


def test_missing_batch_file_is_a_usage_error(sym_exe, tmp_path):
    proc = run(sym_exe, "--batch", str(tmp_path / "absent.sym"))
    assert proc.returncode == 2 and "no such batch file" in proc.stderr


def test_unknown_option_is_a_usage_error(sym_exe):
    assert run(sym_exe, "--frobnicate").returncode == 2
    import os
    import pty

    main, terminal = pty.openpty()
    try:                                                  # --json needs --batch or a pipe: not a terminal
        proc = subprocess.run([*sym_exe, "--json"], stdin=terminal, capture_output=True, text=True, timeout=60)
    finally:
        os.close(main)
        os.close(terminal)
    assert proc.returncode == 2 and "--json, --bail and --echo apply to --batch FILE or to piped input" in proc.stderr


def test_version_and_help(sym_exe):
    from sym.core import __version__

    assert run(sym_exe, "--version").stdout.strip() == f"sym {__version__}"
    help_text = run(sym_exe, "--help").stdout
    assert "--batch" in help_text and "--json" in help_text


def test_bye_stops_reading_the_script(sym_exe):
    proc = run(sym_exe, "--batch", "-", stdin="p(a).\n/bye\n?- p(a).\n")
    assert proc.returncode == 0 and "true." not in proc.stdout and "bye." in proc.stdout


def test_multiline_blocks_and_clauses_spanning_lines(sym_exe):
    script = 'grand(G, C) :- parent(G, P),\n    parent(P, C).\n"""\nparent(a, b).\nparent(b, c).\n"""\n?- grand(a, c).\n'
    proc = run(sym_exe, "--batch", "-", stdin=script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("true.")


def test_ctrl_c_during_a_long_inference_exits_130(sym_exe, tmp_path):
    import signal

    script = tmp_path / "long.sym"
    edges = "".join(f"edge({i}, {i + 1}).\n" for i in range(3000))
    script.write_text('"""\n' + edges + '"""\n'
                      "path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n/infer\n")
    proc = subprocess.Popen([*sym_exe, "--batch", str(script), "--echo"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            # a shell running us in the background may have left SIGINT ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for line in proc.stdout:          # the echo comes just before /infer starts
        if line.startswith("» /infer"):
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "interrupted" in err and "Traceback" not in err


def test_sym_without_a_terminal_reads_commands_from_its_input(sym_exe):
    proc = run(sym_exe, stdin="p(a).\nq(X) :-\n  p(X).\n?- q(a).\n/bye\n?- q(b).\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-2:] == ["true.", "bye."]


def test_running_the_example_again_finds_its_memory_and_answers_the_same(sym_exe):
    first = run(sym_exe, "--batch", str(EXAMPLE))
    second = run(sym_exe, "--batch", str(EXAMPLE))
    assert second.returncode == 0, second.stderr
    assert "consulted family.pl: nothing new" in second.stdout
    answers = [line for line in first.stdout.splitlines() if " = " in line or line.endswith(".")]
    assert all(line in second.stdout for line in answers if line.startswith(("X =", "Who =", "true", "unknown")))


def test_the_proofs_example_checks_json_and_smt2_programs(sym_exe):
    proc = run(sym_exe, "--batch", "proofs.sym", "--json", cwd=ROOT / "examples")
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    proofs = {o["source"]: o for o in objects if o["kind"] == "prove"}
    pets = {v["name"]: v["status"] for v in proofs["pets.smt2"]["verifications"]}
    assert pets == {"Tom is a mammal": "proved", "Tom is a fish": "refuted", "Nemo is a cat": "refuted",
                    "some mammal is not a cat": "unknown"}
    assert [v["status"] for v in proofs["sons.json"]["verifications"]] == ["proved", "proved"]
