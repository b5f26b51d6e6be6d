"""Small messages a user meets on the command line say what is true in one line: `sym repair` of
a workspace that does not exist says so, an unreachable Chroma server names no Python class, and
`/docs rm NAME` in a script, which cannot be asked to confirm, fails instead of passing as done."""

from __future__ import annotations

import os
import subprocess

from tests.ollama_server import unused_url


def run(sym_exe, sym_home, *args, stdin: str = ""):
    return subprocess.run([*sym_exe, *args], input=stdin, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SYM_HOME": str(sym_home)})


def test_repairing_a_workspace_that_does_not_exist_says_so(sym_exe, sym_home):
    assert run(sym_exe, sym_home, "--memory", "kept", "--batch", "-", stdin="p(a).\n").returncode == 0
    proc = run(sym_exe, sym_home, "repair", "nosuchws")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == ["sym: workspace 'nosuchws' does not exist, so there is nothing to repair "
                                        "— the workspaces here: kept"]


def test_an_unreachable_chroma_server_is_one_line_without_a_class_name(sym_exe, sym_home):
    proc = run(sym_exe, sym_home, "--chroma-url", unused_url(), "--batch", "-", stdin="p(a).\n")
    assert proc.returncode == 3
    (line,) = proc.stderr.splitlines()
    assert "cannot reach the Chroma server" in line and "Error)" not in line, line


def test_docs_rm_in_a_script_without_yes_fails_and_a_missing_document_too(sym_exe, sym_home, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("Cats sleep a lot.\n")
    proc = run(sym_exe, sym_home, "--batch", "-", stdin=f"/load {notes}\n/docs rm notes.txt\n/docs rm nothere\n/docs\n")
    assert proc.returncode == 1
    errors = proc.stderr.splitlines()
    assert errors[0] == ("error: line 2: /docs rm notes.txt removes nothing without --yes in a script or pipe "
                         "— /docs rm notes.txt --yes"), errors
    assert errors[1].startswith("error: line 3: no loaded document 'nothere'"), errors
    assert "notes.txt" in proc.stdout.splitlines()[-1]          # still loaded
