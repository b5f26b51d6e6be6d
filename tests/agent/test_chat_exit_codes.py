"""A chat turn in a script exits as the command it ran would: 3 when it needed the model server
and none answered, 0 when the grammar read it offline."""

from __future__ import annotations

import subprocess

from tests.ollama_server import unused_url


def run(sym_exe, tmp_path, line: str) -> subprocess.CompletedProcess:
    script = tmp_path / "chat.sym"
    script.write_text(line + "\n")
    return subprocess.run([*sym_exe, "--batch", str(script), "--ollama-host", unused_url(), "--model", "llama3"],
                          capture_output=True, text=True, timeout=120)


def test_a_chat_turn_that_needed_the_unreachable_server_exits_3(sym_exe, tmp_path):
    done = run(sym_exe, tmp_path, "/chat hello there, how are you")
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert "cannot reach the Ollama server" in done.stdout + done.stderr


def test_a_chat_turn_the_grammar_reads_offline_exits_0(sym_exe, tmp_path):
    done = run(sym_exe, tmp_path, "/chat Bob is tall.")
    assert done.returncode == 0, (done.stdout, done.stderr)
