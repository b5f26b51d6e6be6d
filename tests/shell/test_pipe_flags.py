"""A pipe behaves like --batch: --json, --echo and --bail work on piped input too, a search waits
for embedding, lines are stored as stdin:N, a run ends without a false alarm about the workspace
it leaves, and a script or pipe that starts with `/workspace NAME` never opens (locks) default."""

from __future__ import annotations

import json
import os
import subprocess
from contextlib import contextmanager

from tests.conftest import ROOT


def piped(sym_exe, sym_home, text: str, *flags: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    return subprocess.run([*sym_exe, *flags], input=text, capture_output=True, text=True, env=env, timeout=120)


def test_json_and_echo_on_piped_input(sym_exe, sym_home):
    proc = piped(sym_exe, sym_home, "p(a).\n?- p(X).\n", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["command"] for r in rows] == ["/assert", "/query"] and all(r["ok"] for r in rows)
    proc = piped(sym_exe, sym_home, "q(b).\n", "--echo")
    assert proc.returncode == 0 and proc.stdout.splitlines()[0].endswith("q(b).")


def test_bail_stops_a_pipe_at_the_first_error(sym_exe, sym_home):
    proc = piped(sym_exe, sym_home, "/frobnicate\nr(c).\n", "--bail")
    assert proc.returncode == 1 and "unknown command /frobnicate" in proc.stderr
    assert "r(c)" not in proc.stdout


def test_a_second_piped_run_on_a_workspace_warns_of_nothing(sym_exe, sym_home):
    """The run before left records for the background writer; the next run must not end while
    the writer opens the vector store (interpreter shutdown made it "cannot be opened … sym repair")."""
    for n in range(3):
        proc = piped(sym_exe, sym_home, f"a({n}).\n")
        assert proc.returncode == 0 and f"a({n})" in proc.stdout, proc.stderr
        assert "cannot be opened" not in proc.stderr and "repair" not in proc.stderr, proc.stderr
    assert "a(0)" in piped(sym_exe, sym_home, "/listing a\n").stdout


def test_a_pipe_reads_cr_crlf_and_lf_line_ends_alike(sym_exe, sym_home):
    for end in ("\r", "\r\n", "\n"):
        proc = piped(sym_exe, sym_home, end.join(["/forget a(X)", "a(1).", "a(2).", "/listing a", "b(2 c)."]) + end)
        assert "a(1).\n" in proc.stdout and "a(2).\n" in proc.stdout, (end, proc.stdout)
        assert "column 5: missing ','" in proc.stderr, (end, proc.stderr)


def test_a_parse_error_in_a_script_names_the_script_line_for_any_line_end(sym_exe, sym_home, tmp_path):
    lines = ["a(1).", "", "q(X) :-", "  c(3 d).", "bad(1"]
    for end in ("\n", "\r\n", "\r"):
        text = end.join(lines) + end
        script = tmp_path / "s.sym"
        script.write_bytes(text.encode())
        for proc in (piped(sym_exe, sym_home, text, "--batch", "-"),
                     subprocess.run([*sym_exe, "--batch", str(script)], capture_output=True, text=True, timeout=120,
                                    env={**os.environ, "SYM_HOME": str(sym_home)})):
            errors = proc.stderr.splitlines()
            assert errors[0].startswith("error: line 4, column 7: missing ','"), (end, errors)
            assert errors[1].startswith("error: line 5, column 6: '(' after bad is still open"), (end, errors)


def test_a_pipe_that_searches_waits_for_embedding_and_stores_its_lines_as_stdin_n(sym_exe, sym_home):
    """As `--batch -`: the search finds what the line before stored, on the first run and on the
    next (which used to say "the vector store cannot be opened … run: sym repair pw3", exit 1)."""
    for _ in range(2):
        proc = piped(sym_exe, sym_home, "edge(a,b).\n/search edge\n", "--memory", "pw3")
        assert proc.returncode == 0, proc.stderr
        assert "cannot be opened" not in proc.stderr and "repair" not in proc.stderr, proc.stderr
        hit = next(line for line in proc.stdout.splitlines() if "edge(a, b)." in line and "1.00" in line)
        assert "[stdin:1]" in hit, proc.stdout


@contextmanager
def holding_default(sym_exe, sym_home):
    """A `sym` that has default open (its first line stored), until the block ends."""
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    holder = subprocess.Popen([*sym_exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, env=env)
    try:
        holder.stdin.write("hold(1).\n")
        holder.stdin.flush()
        assert "added fact" in holder.stdout.readline()
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)


def test_a_script_or_pipe_that_starts_in_its_own_workspace_runs_beside_a_sym_on_default(sym_exe, sym_home):
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    with holding_default(sym_exe, sym_home):
        tour = subprocess.run([*sym_exe, "--batch", str(ROOT / "examples" / "tour.sym")], capture_output=True,
                              text=True, env=env, timeout=300)
        assert tour.returncode == 0, tour.stderr
        assert "workspace tour-example" in tour.stdout
        pipe = piped(sym_exe, sym_home, "/workspace other\np(a).\n?- p(X).\n")
        assert pipe.returncode == 0 and "X = a" in pipe.stdout, pipe.stderr
        uses_default = piped(sym_exe, sym_home, "p(b).\n")           # a pipe that uses default still meets the lock
        assert uses_default.returncode == 2 and "workspace 'default' is in use" in uses_default.stderr
        failed_switch = piped(sym_exe, sym_home, "/workspace bad!name\np(c).\n")
        assert failed_switch.returncode == 2 and "workspace 'default' is in use" in failed_switch.stderr
        assert "p(c)" not in failed_switch.stdout
