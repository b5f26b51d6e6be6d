"""Sessions as a user works with them: every run recorded, /save, /sessions, /resume,
/save --script, and `sym replay` with --verify."""

from __future__ import annotations

import json
import subprocess

from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.results import Failure, Message, Table
from sym.sessions.log import FORMAT, read_session


def run(sym_exe, *args, stdin: str = ""):
    return subprocess.run([*sym_exe, *args], input=stdin, capture_output=True, text=True, timeout=120)


def recorded(sym_home):
    return sorted((sym_home / "sessions").glob("*.jsonl"))


def test_every_batch_run_is_recorded_event_by_event(sym_exe, sym_home):
    proc = run(sym_exe, "--batch", "-", stdin="p(a).\n?- p(X).\n/nope\n")
    assert proc.returncode == 1
    (path,) = recorded(sym_home)
    rec = read_session(path)
    assert rec.header["format"] == FORMAT and rec.header["workspace"] == "default" and not rec.truncated
    assert [e["text"] for e in rec.inputs()] == ["p(a).", "?- p(X).", "/nope"]
    outputs = rec.outputs()
    assert outputs[1]["result"]["bindings"] == [{"X": "a"}]
    assert outputs[2]["result"]["ok"] is False and "unknown command" in outputs[2]["result"]["error"]
    changes = [e for e in rec.events if e["t"] == "memory"]
    assert [(c["op"], c["text"]) for c in changes] == [("add", "p(a).")]
    assert all(path.read_text().endswith("\n") for _ in [0])


def test_replay_verify_is_equal_for_an_unchanged_run(sym_exe, sym_home, tmp_path):
    facts = tmp_path / "f.pl"
    facts.write_text("edge(a, b).\nedge(b, c).\n")
    script = tmp_path / "s.sym"
    script.write_text(f"/consult {facts.name}\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n"
                      "?- path(a, X).\n/why path(a, c)\n/forget edge(b, c)\n?- path(a, c).\n")
    assert run(sym_exe, "--batch", str(script)).returncode == 0
    (path,) = recorded(sym_home)
    proc = run(sym_exe, "replay", str(path), "--verify", "--trust")
    assert proc.returncode == 0, proc.stderr
    assert "replayed 7 commands" in proc.stderr and "equal" in proc.stderr


def test_replay_verify_reports_what_changed(sym_exe, sym_home, tmp_path):
    facts = tmp_path / "f.pl"
    facts.write_text("edge(a, b).\n")
    script = tmp_path / "s.sym"
    script.write_text(f"/consult {facts.name}\n?- edge(a, X).\n")
    run(sym_exe, "--batch", str(script))
    (path,) = recorded(sym_home)
    facts.write_text("edge(a, z).\n")          # the world changed since the recording
    proc = run(sym_exe, "replay", str(path), "--verify", "--trust")
    assert proc.returncode == 1
    assert "input 1" in proc.stderr and "memory changes differ" in proc.stderr and "input 2" in proc.stderr


def test_replay_until_and_plain_output(sym_exe, sym_home):
    run(sym_exe, "--batch", "-", stdin="p(a).\np(b).\n?- p(X).\n")
    (path,) = recorded(sym_home)
    proc = run(sym_exe, "replay", str(path), "--until", "2")
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == ["added fact " + proc.stdout.split("added fact ")[1].splitlines()[0],
                                        proc.stdout.splitlines()[1]]
    assert "X = " not in proc.stdout


def test_a_truncated_log_replays_up_to_its_last_complete_event(sym_exe, sym_home):
    run(sym_exe, "--batch", "-", stdin="p(a).\np(b).\n?- p(X).\n")
    (path,) = recorded(sym_home)
    text = path.read_text()
    path.write_text(text[: text.rindex('{"t": "output"') + 25])     # cut inside the last event
    proc = run(sym_exe, "replay", str(path))
    assert proc.returncode == 0
    assert "ends mid-event" in proc.stderr and "X = a" in proc.stdout


def test_a_log_from_a_newer_sym_is_refused(sym_exe, tmp_path):
    path = tmp_path / "future.jsonl"
    path.write_text(json.dumps({"t": "header", "seq": 1, "format": FORMAT + 1}) + "\n")
    proc = run(sym_exe, "replay", str(path))
    assert proc.returncode == 2 and "newer sym" in proc.stderr and "Traceback" not in proc.stderr


def test_save_names_the_session_and_sessions_lists_it(sym_home):
    shell = open_shell(MemoryOptions())
    try:
        shell.execute("p(a).")
        saved = shell.execute("/save study")[1]
        assert isinstance(saved, Message) and (sym_home / "sessions" / "study.jsonl").exists()
        shell.execute("p(b).")                                   # logging goes on in the named file
        listing = shell.execute("/sessions")[1]
        assert isinstance(listing, Table)
        row = next(r for r in listing.rows if r[0] == "study")
        assert "4 commands" in row[2] and "this one" in row[2]   # /sessions itself is the 4th
        assert isinstance(shell.execute("/save bad/name")[1], Failure)
    finally:
        shell.close()
    rec = read_session(sym_home / "sessions" / "study.jsonl")
    assert [e["text"] for e in rec.inputs()] == ["p(a).", "/save study", "p(b).", "/sessions", "/save bad/name"]


def test_save_script_writes_the_inputs_as_a_batch_script(sym_exe, sym_home, tmp_path):
    shell = open_shell(MemoryOptions())
    target = tmp_path / "again.sym"
    try:
        shell.execute("q(X) :- p(X).")
        shell.execute("p(a).")
        shell.execute("?- q(a).")
        result = shell.execute(f"/save --script {target}")[1]
        assert isinstance(result, Message) and result.data["inputs"] == 3
    finally:
        shell.close()
    assert target.read_text().splitlines() == ["q(X) :- p(X).", "p(a).", "?- q(a)."]
    proc = run(sym_exe, "--memory", "other", "--batch", str(target))
    assert proc.returncode == 0 and proc.stdout.strip().endswith("true.")


def test_resume_rebuilds_the_memory_a_session_ended_with(sym_home):
    first = open_shell(MemoryOptions("work"))
    try:
        first.execute("p(a). p(b). q(X) :- p(X).")
        first.execute("/forget p(b)")
        first.execute("/save day-one")
    finally:
        first.close()
    second = open_shell(MemoryOptions())
    try:
        result = second.execute("/resume day-one --fresh")[1]
        assert isinstance(result, Message), result
        assert second.memory.workspace == "day-one"
        assert sorted(it.text for it in second.memory.items.values()) == ["p(a).", "q(X) :- p(X)."]
        assert second.execute("?- q(b).")[1].answer.truth == "false"
        again = second.execute("/resume day-one --fresh")[1]
        assert isinstance(again, Failure) and "exists already" in again.message
        original = second.execute("/resume day-one")[1]
        assert original.data["workspace"] == "work" and original.data["added"] == 0
    finally:
        second.close()


def test_a_consult_is_one_memory_line_read_back_as_its_items(sym_exe, sym_home, tmp_path):
    facts = tmp_path / "f.pl"
    facts.write_text("".join(f"edge(n{i}, n{i + 1}).\n" for i in range(500)) + "path(X, Y) :- edge(X, Y).\n")
    assert run(sym_exe, "--batch", "-", stdin=f"/consult {facts}\n/fact edge(a, b).\n").returncode == 0
    (path,) = recorded(sym_home)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(e["op"], len(e.get("items", [1]))) for e in lines if e["t"] == "memory"] == [("adds", 501), ("add", 1)]
    rec = read_session(path)
    changes = [e for e in rec.events if e["t"] == "memory"]
    assert [c["text"] for c in changes] == [f"edge(n{i}, n{i + 1})." for i in range(500)] + [
        "path(X, Y) :- edge(X, Y).", "edge(a, b)."]
    assert {c["kind"] for c in changes[:500]} == {"fact"} and changes[500]["kind"] == "rule"
    assert all(c["input"] == changes[0]["input"] for c in changes[:501]) and changes[-1]["input"] > changes[0]["input"]
    proc = run(sym_exe, "replay", str(path), "--verify", "--trust")
    assert proc.returncode == 0 and "equal" in proc.stderr, proc.stderr
