"""The workspace under crashes and damage: kill -9 during /consult and /load (and during the
background writer's Chroma writes) leaves a workspace that opens, holding all of the batch or
none of it; a damaged vector store is one line naming `sym repair`, which rebuilds it from the
snapshot; records are embedded in the background and a restart finishes what was pending; a
script that neither searches nor embeds never imports chromadb."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from sym.repl.dispatcher import MemoryOptions, open_shell

N_FACTS = 15_000
WS = "crash"


def run(sym_exe, *args, stdin: str = "", timeout: float = 120):
    return subprocess.run([*sym_exe, "--memory", WS, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def held_then_reset() -> tuple[int, int]:
    """(facts, document chunks) the workspace holds when opened afresh; then the edges are
    forgotten again, so the next attempt starts from the same place."""
    shell = open_shell(MemoryOptions(WS, background=False), record=False)
    try:
        held = shell.memory.counts()["fact"], shell.memory.store.count("docs")
        if held[0] > 1:
            assert shell.execute("/forget edge(X, Y)")[1].ok
        return held
    finally:
        shell.close()


@pytest.fixture
def files(tmp_path):
    program = tmp_path / "big.pl"
    program.write_text("".join(f"edge(n{i}, n{i + 1}).\n" for i in range(N_FACTS)), encoding="utf-8")
    text = tmp_path / "big.txt"
    text.write_text("".join(f"Paragraph {i} tells of the river and the mill by the old bridge.\n\n"
                            for i in range(6_000)), encoding="utf-8")
    return program, text


def test_kill_9_during_consult_and_load_keeps_all_or_nothing_and_reopens_12_of_12(sym_exe, sym_home, files):
    program, text = files
    assert run(sym_exe, "--batch", "-", stdin="base(x).\n").returncode == 0
    chunks = None
    rng = random.Random(15)
    outcomes = []
    for attempt in range(12):     # every way: batch and interactive, consult and load, early and late kills
        load = attempt % 4 == 3
        command = f"/load {text}" if load else f"/consult {program}"
        # even attempts: batch (the kill lands in the foreground transaction); odd: an interactive
        # child on a pipe, whose background writer may be inside a Chroma write when it dies
        argv = ["--batch", "-"] if attempt % 2 == 0 else ["--plain"]
        proc = subprocess.Popen([*sym_exe, "--memory", WS, *argv], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        if argv[0] == "--batch":
            proc.stdin.close()
        time.sleep(rng.uniform(0.3, 2.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        facts, docs = held_then_reset()                        # opens every time: no traceback, no repair
        if load:
            assert docs in (0, chunks) if chunks else True, docs
            chunks = chunks or docs or None
            outcomes.append("load:" + ("all" if docs else "none"))
        else:
            assert facts in (1, 1 + N_FACTS), facts
            outcomes.append("consult:" + ("all" if facts > 1 else "none"))
    # whatever the kills did to Chroma, search works, or says in one line how to repair it
    found = run(sym_exe, "--batch", "-", stdin="/search base --k 1\n")
    if found.returncode != 0:
        assert f"sym repair {WS}" in found.stderr and len(found.stderr.strip().splitlines()) == 1, found.stderr
        assert run(sym_exe, "repair", WS).returncode == 0
        found = run(sym_exe, "--batch", "-", stdin="/search base --k 1\n")
    assert found.returncode == 0 and "base(x)." in found.stdout, (found.stdout, found.stderr)


def test_a_damaged_vector_store_is_one_line_and_sym_repair_rebuilds_it(sym_exe, sym_home):
    assert run(sym_exe, "--batch", "-", stdin="father_of(joshua, don).\n/search father\n").returncode == 0
    chroma = sym_home / "workspaces" / WS / "chroma" / "chroma.sqlite3"
    chroma.write_bytes(b"this is not a database" * 100)
    logic = run(sym_exe, "--batch", "-", stdin="?- father_of(joshua, X).\n")
    assert logic.returncode == 0 and logic.stdout.startswith("X = don")      # logic never needs Chroma
    broken = run(sym_exe, "--batch", "-", stdin="/search father\n")
    assert broken.returncode != 0 and "Traceback" not in broken.stderr
    lines = broken.stderr.strip().splitlines()
    assert len(lines) == 1 and f"run: sym repair {WS}" in lines[0], broken.stderr
    repaired = run(sym_exe, "repair", WS)
    assert repaired.returncode == 0 and "1 record embedded again" in repaired.stdout, repaired.stderr
    found = run(sym_exe, "--batch", "-", stdin="/search father\n")
    assert found.returncode == 0 and "father_of(joshua, don)." in found.stdout
    assert run(sym_exe, "repair", "nosuch").returncode == 2


def test_records_are_embedded_in_the_background_and_a_restart_finishes_what_was_pending(sym_exe):
    # a batch script that does not search leaves its records pending: they wait for the next start
    assert run(sym_exe, "--batch", "-", stdin="likes(cow, grass).\neats(cow, grass).\n").returncode == 0
    shell = open_shell(MemoryOptions(WS), record=False)       # interactive: the writer starts at once
    try:
        store = shell.memory.store
        assert store.wait(None) == 0 and shell.memory.embedding_backlog() == (2, 2)
        assert shell.execute("father_of(joshua, don).")[1].ok
        assert store.wait(None) == 0
        hits = shell.execute("/search father --k 1")[1]
        assert [h.text for h in hits.hits] == ["father_of(joshua, don)."] and hits.embedded is None
        assert shell.execute("/forget father_of(joshua, don)")[1].ok
        hits = shell.execute("/search father --k 3")[1]       # a deleted record is never returned
        assert all("father" not in h.text for h in hits.hits)
    finally:
        shell.close()


def test_a_script_that_does_not_search_never_imports_chromadb(tmp_path):
    script = tmp_path / "one.sym"
    script.write_text("p(a).\n?- p(X).\n/listing\n")
    code = ("import sys; from repl.cli import main; sys.argv = ['sym', '--memory', 'light', '--batch', sys.argv[1]]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert e.code == 0, e.code\n"
            "print('chromadb' in sys.modules)")
    for _ in range(2):                     # a new workspace, then one with records pending
        proc = subprocess.run([sys.executable, "-c", code, str(script)], capture_output=True, text=True,
                              timeout=60, env=os.environ)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip().splitlines()[-1] == "False", proc.stdout
