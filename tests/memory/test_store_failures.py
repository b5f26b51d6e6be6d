"""A store that fails under a command is one line with the documented exit code, and the command
keeps nothing half-written: a real `chroma run` server stopped in the middle of a /load (exit 3,
and /memory, /search after it), and a disk that fills during a /load (exit 1, "disk full") — SQLite
itself refusing to grow the store (PRAGMA max_page_count), and a small tmpfs where mounting one
is permitted."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import chroma_run, fails


def run(sym_exe, *args, stdin: str = "", timeout: float = 180):
    return subprocess.run([*sym_exe, *args], input=stdin, capture_output=True, text=True, timeout=timeout)


def one_line_errors(stderr: str) -> list[str]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert lines and all("internal error" not in line and "Traceback" not in line for line in lines), stderr
    return lines


def test_a_chroma_server_stopped_in_the_middle_of_a_load_is_one_line_and_exit_3(sym_exe, sym_home, tmp_path,
                                                                                  ollama_server):
    notes = tmp_path / "notes.md"
    notes.write_text("# Zoo\n\nThe zebra sleeps standing up.\n\nThe okapi is a relative of the giraffe.\n")
    with chroma_run(tmp_path / "server") as (url, proc):
        def stop_chroma(req) -> bool:
            # the embedding request of /load's first batch: the server goes away before its write
            if req.path == "/api/embed" and "zebra" in json.dumps(req.body):
                proc.terminate()
                proc.wait(timeout=30)
            return False

        ollama_server.fail("slow", when=stop_chroma, times=None)   # never acts: the check stops Chroma
        common = ["--chroma-url", url, "--memory", "zoo", "--embedder", "ollama:nomic-embed-text",
                  "--ollama-host", ollama_server.url]
        ready = run(sym_exe, *common, "--batch", "-", stdin="/docs\n")
        assert ready.returncode == 0, ready.stderr
        done = run(sym_exe, *common, "--batch", "-", stdin=f"/load {notes}\n/memory\n/search zebra\n")
        assert proc.poll() is not None                      # it was stopped in the middle of /load
    assert done.returncode == 3, (done.returncode, done.stderr)
    errors = one_line_errors(done.stderr)
    assert len(errors) == 3, errors
    assert all(f"the Chroma server at {url} stopped answering" in line for line in errors), errors
    assert [line.split(":")[1] for line in errors] == [" line 1", " line 2", " line 3"]

    with chroma_run(tmp_path / "server") as (again, _):     # nothing of the /load was written
        after = run(sym_exe, "--chroma-url", again, "--memory", "zoo", "--ollama-host", ollama_server.url,
                    "--batch", "-", stdin="/docs\n")
    assert after.returncode == 0, after.stderr
    assert "notes.md" not in after.stdout


def big_document(path: Path, paragraphs: int = 3000) -> Path:
    path.write_text("".join(f"# Part {i}\n\nParagraph {i} says something about topic {i} at some length, "
                            f"so that the passages take room.\n\n" for i in range(paragraphs)))
    return path


def test_a_store_that_cannot_grow_fails_the_load_with_disk_full_and_keeps_none_of_it(shells, tmp_path):
    small = tmp_path / "small.md"
    small.write_text("# Small\n\nA short note about cats.\n")
    big = big_document(tmp_path / "big.md")
    shell = shells("w")
    assert shell.execute(f"/load {small}")[1].ok
    db = shell.memory.store.snapshot._conn()
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages + 8}")       # SQLite's own "database or disk is full"
    _, result = shell.execute(f"/load {big}")
    message = fails(result, "disk full")
    assert result.exit_code == 1 and "items.sqlite" in message
    listed = shell.execute("/docs")[1]
    assert [d["name"] for d in listed.documents] == ["small.md"]   # all of big.md or none: none
    assert db.execute("SELECT COUNT(*) FROM records WHERE kind = 'docs'").fetchone()[0] == 1
    db.execute("PRAGMA max_page_count = 1073741823")         # room again: the same command works
    assert shell.execute(f"/load {big}")[1].ok
    assert sorted(d["name"] for d in shell.execute("/docs")[1].documents) == ["big.md", "small.md"]


@contextmanager
def small_filesystem(where: Path, size: str):
    where.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_disk_that_fills_during_a_load_is_one_line_disk_full_exit_1(sym_exe, tmp_path, monkeypatch):
    small = tmp_path / "small.md"
    small.write_text("# Small\n\nA short note about cats.\n")
    big = big_document(tmp_path / "big.md", paragraphs=6000)     # ~600 KB of text, more with its index
    with small_filesystem(tmp_path / "home", "1m") as home:
        monkeypatch.setenv("SYM_HOME", str(home))
        done = run(sym_exe, "--batch", "-", stdin=f"/load {small}\n/load {big}\n/docs\n")
        store = home / "workspaces" / "default" / "items.sqlite"
        with sqlite3.connect(store) as db:
            names = {json.loads(m)["name"] for (m,) in db.execute("SELECT meta FROM records WHERE kind = 'docs'")}
    assert done.returncode == 1, (done.returncode, done.stderr)
    (error,) = one_line_errors(done.stderr)
    assert error.startswith("error: line 2: disk full"), error
    assert "small.md" in done.stdout and "big.md" not in done.stdout
    assert names == {"small.md"}
