"""No model: a plain /ask about a loaded document, in words the grammar cannot read, gives the
passages that match with their citations, labelled as passages, not an answer (exit 0), as
`/ask --docs` does; with no document loaded, or with --no-fallback, it still needs the model."""

from __future__ import annotations

import json
import os
import subprocess

from tests.ollama_server import unused_url

NOTE = "# Cars\n\nAn automobile has four wheels and an engine. The engine burns petrol to turn the wheels.\n"
QUESTION = "How many wheels does an automobile have?"


def batch(sym_exe, folder, *lines: str, json_out: bool = False) -> subprocess.CompletedProcess:
    (folder / "s.sym").write_text("\n".join(lines) + "\n")
    env = {**os.environ, "OLLAMA_HOST": unused_url()}
    return subprocess.run([*sym_exe, "--batch", "s.sym", *(["--json"] if json_out else [])], capture_output=True,
                          text=True, timeout=300, cwd=folder, env=env)


def test_a_plain_ask_about_a_document_with_no_model_gives_the_passages_with_citations(sym_exe, tmp_path):
    (tmp_path / "notes.md").write_text(NOTE)
    proc = batch(sym_exe, tmp_path, "/load notes.md", f"/ask {QUESTION}")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert "not an answer" in proc.stdout and "no model answer" in proc.stdout
    assert "[notes.md ¶1]" in proc.stdout and "wheels" in proc.stdout


def test_the_passages_come_as_passages_in_json_too(sym_exe, tmp_path):
    (tmp_path / "notes.md").write_text(NOTE)
    proc = batch(sym_exe, tmp_path, "/load notes.md", f"/ask {QUESTION}", json_out=True)
    assert proc.returncode == 0, proc.stderr
    asked = json.loads(proc.stdout.strip().splitlines()[-1])
    result = asked.get("result", asked)
    assert result["verified"] is False and "answer" not in result and result["no_answer"].startswith("no model")
    assert [p["cite"] for p in result["passages"]] == ["notes.md ¶1"]


def test_without_documents_or_with_no_fallback_the_missing_model_is_still_exit_3(sym_exe, tmp_path):
    assert batch(sym_exe, tmp_path, f"/ask {QUESTION}").returncode == 3
    (tmp_path / "notes.md").write_text(NOTE)
    proc = batch(sym_exe, tmp_path, "/load notes.md", f"/ask --no-fallback {QUESTION}")
    assert proc.returncode == 3 and "cannot reach" in proc.stderr, proc.stderr
