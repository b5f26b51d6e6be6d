"""Session logs under abuse: writers killed with SIGKILL mid-stream, `sym --batch` killed mid-run
and replayed, and damage that once crashed replay, /sessions or /resume. Reading a log must only
ever give a Recording or a UserError, and nothing in a log is ever executed (`read_session` fed
arbitrary bytes, text and JSON: test_session_fuzz.py)."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sym.core.errors import UserError
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.replay import replay
from sym.repl.results import Failure
from sym.sessions.log import FORMAT, read_session

ROOT = Path(__file__).resolve().parents[2]

# The crash writer runs as `python -c WRITER PATH` and appends events forever, as fast as it can;
# the test execs the same source to know event n exactly. Every seventh event is several hundred
# kilobytes, so a kill often lands inside one write and leaves a line cut short.
WRITER = r'''
import sys
from pathlib import Path

SAMPLES = ["ancêtre(ann, ben).", "父亲(张, 李).", "🧠🔥 emoji", "e\u0301 combining", "مرحبا RTL",
           "a\u2028b\u2029c", 'quote " back \\ slash', "tab\tnl\ncr\r", "nul\x00", "zw\u200bj\u200d",
           "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "__import__('os').system('touch PWNED')"]


def event(n):
    """Event n (n >= 2; the header is 1): input, memory, output, input, ..."""
    last_input = n - (n - 2) % 3
    text = f"{n}:" + SAMPLES[n % len(SAMPLES)] * (1 + n % 5)
    if n % 7 == 0:
        text *= 20000
    kind = ("input", "memory", "output")[(n - 2) % 3]
    if kind == "input":
        return kind, {"text": text, "source": f"crash:{n}"}
    if kind == "memory":
        return kind, {"op": "add" if n % 2 else "remove", "input": last_input, "id": f"f{n:07x}",
                      "kind": "fact", "text": text, "source": "crash", "workspace": "default"}
    return kind, {"input": last_input, "result": {"command": "/assert", "ok": True, "kind": "added",
                                                  "added": [{"text": text}], "n": n, "x": [1, 2.5, None, True]}}


if __name__ == "__main__":
    from sym.core.events import InputReceived
    from sym.sessions.log import SessionLog

    log = SessionLog(Path(sys.argv[1]), workspace="default", settings={"world": "closed"})
    while True:
        kind, fields = event(log.seq + 1)
        if kind == "input":
            log.hear(InputReceived(**fields))
        else:
            log.write(kind, **fields)
'''


def writer_event():
    namespace = {"__name__": "crash_writer"}
    exec(compile(WRITER, "crash_writer", "exec"), namespace)  # our own constant source, never a log
    return namespace["event"]


def await_size(path: Path, size: int, proc: subprocess.Popen, timeout: float = 30) -> None:
    """Until the file at `path` holds at least `size` bytes (the writer must still be running)."""
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.stat().st_size >= size):
        assert proc.poll() is None, f"the writer exited early with {proc.returncode}; see its stderr"
        assert time.monotonic() < deadline, f"{path} did not reach {size} bytes"
        time.sleep(0.0005)


def sigkill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def complete_lines(raw: bytes) -> int:
    return raw.count(b"\n")


# -- a writer killed at any moment ---------------------------------------------------


def test_a_log_killed_at_any_moment_reads_back_as_a_prefix_of_what_was_written(tmp_path):
    event = writer_event()
    rng = random.Random(20240601)
    sizes = [int(10 ** rng.uniform(2, 6.6)) for _ in range(20)]   # 100 bytes .. 4 MB
    cut_mid_line = 0
    for trial, size in enumerate(sizes):
        path = tmp_path / f"crash-{trial}.jsonl"
        with (tmp_path / "writer.err").open("w") as stderr:
            proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], cwd=ROOT,
                                    stdout=subprocess.DEVNULL, stderr=stderr)
            try:
                await_size(path, size, proc)
            finally:
                sigkill(proc)
        raw = path.read_bytes()
        if b"\n" not in raw:      # killed inside the header itself: refused, not misread
            with pytest.raises(UserError, match="before its header was complete"):
                read_session(path)
            continue
        rec = read_session(path)
        assert rec.truncated == (not raw.endswith(b"\n")), trial
        cut_mid_line += rec.truncated
        assert rec.header["t"] == "header" and rec.header["format"] == FORMAT and rec.header["seq"] == 1
        assert len(rec.events) + 1 == complete_lines(raw), "every complete line is an event"
        assert [e["seq"] for e in rec.events] == list(range(2, len(rec.events) + 2))
        for e in rec.events:
            kind, fields = event(e["seq"])
            assert e["t"] == kind
            assert {k: v for k, v in e.items() if k not in ("t", "seq", "ts")} == fields, e["seq"]
        path.unlink()   # some trials leave megabytes behind
    print(f"{cut_mid_line} of {len(sizes)} kills cut a line short")


# -- `sym --batch` killed mid-run, then replayed ---------------------------------------------


def run(sym_exe, *args, env=None, stdin=None):
    return subprocess.run([*sym_exe, *args], capture_output=True, text=True, timeout=120, env=env, input=stdin)


def test_a_batch_run_killed_mid_way_replays_up_to_its_last_complete_event(sym_exe, sym_home, tmp_path):
    script = tmp_path / "many.sym"
    script.write_text("".join(f"p({i}).\n" for i in range(5000)))
    sessions = sym_home / "sessions"
    size = random.Random().randint(2_000, 8_000)     # a dozen facts or so in
    with script.open() as stdin, (tmp_path / "stderr").open("w") as stderr:
        proc = subprocess.Popen([*sym_exe, "--batch", "-"], stdin=stdin, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            deadline = time.monotonic() + 60
            while not any(sessions.glob("*.jsonl")):
                assert proc.poll() is None, (tmp_path / "stderr").read_text()
                assert time.monotonic() < deadline
                time.sleep(0.001)
            (path,) = sessions.glob("*.jsonl")
            await_size(path, size, proc, timeout=60)
        finally:
            sigkill(proc)
    assert proc.returncode == -signal.SIGKILL

    raw = path.read_bytes()
    rec = read_session(path)
    assert rec.truncated == (not raw.endswith(b"\n"))
    inputs = rec.inputs()
    n = len(inputs)
    assert n >= 1 and [e["text"] for e in inputs] == [f"p({i})." for i in range(n)]
    finished = inputs[-1]["seq"] in {e["input"] for e in rec.outputs()}
    print(f"killed after {n} inputs; last one {'finished' if finished else 'unfinished'}"
          f"{', mid-line' if rec.truncated else ''}")

    played = run(sym_exe, "replay", str(path))
    assert played.returncode == 0, played.stderr
    assert played.stdout.count("added fact ") == n
    assert ("ends mid-event" in played.stderr) == rec.truncated
    assert "Traceback" not in played.stderr

    verified = run(sym_exe, "replay", str(path), "--verify")
    # An input whose output the kill kept out of the log is replayed but not compared.
    assert verified.returncode == 0, verified.stderr
    assert f"replayed {n} commands" in verified.stderr and verified.stderr.rstrip().endswith(": equal")
    assert "differs:" not in verified.stderr and "Traceback" not in verified.stderr


def recorded_session(lines: list[str]) -> Path:
    shell = open_shell(MemoryOptions())
    try:
        for line in lines:
            shell.execute(line)
        return shell.ctx.session.path
    finally:
        shell.close()


def replay_quietly(path: Path, **kwargs):
    out, err = io.StringIO(), io.StringIO()
    report = replay(read_session(path), out=out, err=err, **kwargs)
    return report, out.getvalue(), err.getvalue()


def test_a_log_cut_between_an_input_and_its_output_verifies_equal(sym_home):
    path = recorded_session(["p(a).", "p(b).", "q(X) :- p(X).", "?- q(X)."])
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    last_input = max(i for i, line in enumerate(lines) if json.loads(line)["t"] == "input")
    path.write_text("".join(lines[: last_input + 1]), encoding="utf-8")   # as a SIGKILL leaves it
    report, _, _ = replay_quietly(path, verify=True)
    assert report.commands == 4
    assert report.differences == []


def test_an_output_missing_before_the_last_input_is_still_a_difference(sym_home):
    path = recorded_session(["p(a).", "?- p(X).", "p(b)."])
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    second = [e for e in events if e["t"] == "input"][1]["seq"]
    kept = [e for e in events if not (e["t"] == "output" and e["input"] == second)]
    path.write_text("".join(json.dumps(e) + "\n" for e in kept), encoding="utf-8")
    report, _, _ = replay_quietly(path, verify=True)
    assert report.differences == ["input 2 ('?- p(X).'): no recorded output"]


# -- regressions: damage that once crashed replay, /sessions or /resume, or the log itself ---------

# Fields of the wrong JSON type once passed read_session and crashed replay with TypeError or
# AttributeError; now they are refused with a UserError (or replayed), never a traceback.
ODD_FIELDS = {
    "output-input-is-a-list": [{"t": "input", "seq": 2, "text": "p(a)."},
                               {"t": "output", "seq": 3, "input": [2], "result": {}}],
    "input-seq-is-a-list": [{"t": "input", "seq": [2], "text": "p(a)."}],
    "memory-input-is-a-dict": [{"t": "input", "seq": 2, "text": "p(a)."},
                               {"t": "memory", "seq": 3, "input": {}, "op": "add"}],
    "settings-is-a-list": [{"t": "header", "settings": [1]}, {"t": "input", "seq": 2, "text": "p(a)."}],
    "workspace-is-a-number": [{"t": "header", "workspace": 5}, {"t": "input", "seq": 2, "text": "p(a)."}],
}


def odd_log(path: Path, events: list[dict]) -> Path:
    header = {"t": "header", "seq": 1, "format": FORMAT, "workspace": "default", "settings": {}}
    if events[0]["t"] == "header":
        header, events = {**header, **events[0]}, events[1:]
    path.write_text("".join(json.dumps(e) + "\n" for e in [header, *events]))
    return path


@pytest.mark.parametrize("name", sorted(ODD_FIELDS))
def test_a_log_with_oddly_typed_fields_is_replayed_or_refused(workdir, name):
    path = odd_log(workdir / f"{name}.jsonl", ODD_FIELDS[name])
    try:
        replay_quietly(path, verify=True)
    except UserError:
        pass


def deepest_accepted(path: Path) -> int:
    """The deepest `[[...]]` in an output's result that read_session still accepts (it refuses deeper)."""
    low, high = 1, 200_000
    while low < high:
        mid = (low + high + 1) // 2
        odd_log(path, [{"t": "input", "seq": 2, "text": "p(a)."}, {"t": "note", "seq": 3}])
        with path.open("a") as f:
            f.write('{"t": "output", "seq": 4, "input": 2, "result": {"a": ' + "[" * mid + "]" * mid + "}}\n")
        try:
            read_session(path)
            low = mid
        except UserError:
            high = mid - 1
    return low


def test_a_deeply_nested_result_that_reads_back_also_replays(workdir):
    # replay's normalise() recursed over the recorded result and raised RecursionError
    path = workdir / "deep.jsonl"
    depth = deepest_accepted(path)
    odd_log(path, [{"t": "input", "seq": 2, "text": "p(a)."}, {"t": "note", "seq": 3}])
    with path.open("a") as f:
        f.write('{"t": "output", "seq": 4, "input": 2, "result": {"a": ' + "[" * depth + "]" * depth + "}}\n")
    try:
        replay_quietly(path, verify=True)
    except UserError:
        pass


def test_sym_replay_of_an_oddly_typed_log_gives_one_line_not_a_traceback(sym_exe, workdir):
    path = odd_log(workdir / "odd.jsonl", ODD_FIELDS["settings-is-a-list"])
    proc = run(sym_exe, "replay", str(path), "--verify")
    assert "Traceback" not in proc.stderr and proc.returncode == 2


def test_input_with_a_lone_surrogate_is_logged_not_raised(sym_home):
    # what stdin gives for invalid UTF-8 under surrogateescape; writing it once raised
    # UnicodeEncodeError out of Shell.execute and lost the seq it had taken
    shell = open_shell(MemoryOptions())
    try:
        name, result = shell.execute("q(\udcff).")
        assert isinstance(result, Failure) or result.ok
        shell.execute("p(a).")
        path = shell.ctx.session.path
    finally:
        shell.close()
    rec = read_session(path)
    assert [e["seq"] for e in rec.events] == list(range(2, len(rec.events) + 2))
    assert [e["text"] for e in rec.inputs()] == ["q(\udcff).", "p(a)."]


def test_batch_stdin_with_an_invalid_utf8_byte_gives_an_error_not_a_traceback(sym_exe, sym_home):
    env = {**os.environ, "LC_ALL": "C"}      # the C locale: stdin decodes with surrogateescape
    proc = subprocess.run([*sym_exe, "--batch", "-"], input=b"p(a).\nq(\xff).\np(b).\n", capture_output=True,
                          timeout=120, env=env)
    assert b"Traceback" not in proc.stderr and proc.returncode in (0, 1, 2), proc.stderr[-500:]
    (path,) = (sym_home / "sessions").glob("*.jsonl")
    assert len(read_session(path).inputs()) == 3


def write_sessions_file(sym_home: Path, name: str, events: list[dict]) -> None:
    folder = sym_home / "sessions"
    folder.mkdir(exist_ok=True)
    odd_log(folder / f"{name}.jsonl", events)


@pytest.mark.parametrize("started", ["yesterday", 1e300])
def test_sessions_lists_a_log_with_an_odd_start_time(sym, sym_home, started):
    # time.localtime() on it was an internal error that broke the whole listing
    write_sessions_file(sym_home, "odd", [{"t": "header", "started": started}])
    result = sym("/sessions")
    assert result.ok and any(row[0] == "odd" for row in result.rows)


def test_resume_of_a_log_with_an_id_less_memory_event_is_a_user_error(sym, sym_home):
    # final_state() indexed e["id"] unchecked: "internal error: KeyError"
    write_sessions_file(sym_home, "noid", [{"t": "memory", "seq": 2, "op": "add", "text": "p(a).",
                                            "workspace": "default"}])
    result = sym("/resume noid --fresh")
    assert isinstance(result, Failure) and not result.message.startswith("internal error"), result


def test_a_session_that_used_save_verifies_equal(sym_home):
    # replay once ran without a session log, so /save failed there and never verified equal
    recorded_session(["p(a).", "/save study", "?- p(X)."])
    report, _, _ = replay_quietly(sym_home / "sessions" / "study.jsonl", verify=True)
    assert report.commands == 3 and report.differences == []
