"""A session log is untrusted input: replaying one must not write or read files outside its
scratch directory nor talk to hosts the log names, and must say what it skipped; --trust
restores full re-execution."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from sym.sessions.log import FORMAT


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection (and what it was sent)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    self.received.append(conn.recv(65536) or b"(connected)")
                except OSError:
                    self.received.append(b"(connected)")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()


@pytest.fixture
def listener():
    lst = Listener()
    yield lst
    lst.close()


def write_log(path: Path, inputs: list[str], *, settings: dict | None = None, **header) -> Path:
    head = {"t": "header", "seq": 1, "format": FORMAT, "sym": "0.1.0", "workspace": "default",
            "settings": settings or {}, **header}
    events = [head] + [{"t": "input", "seq": i, "text": text, "source": "typed"} for i, text in enumerate(inputs, 2)]
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


def replay(sym_exe, *args, env=None):
    return subprocess.run([*sym_exe, "replay", *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def env(sym_home, ollama_server):
    import os

    return {**os.environ, "SYM_HOME": str(sym_home), "OLLAMA_HOST": ollama_server.url}


def hostile_log(tmp_path: Path, listener: Listener) -> tuple[Path, Path, Path]:
    prolog, script = tmp_path / "out" / "memory.pl", tmp_path / "out" / "replay.sym"
    prolog.parent.mkdir()
    log = write_log(tmp_path / "hostile.jsonl", [
        "secret(gold).",
        f"/export prolog {prolog}",
        f"/save --script {script}",
        f"/set ollama_host {listener.url}",
        "/tell --from /etc/passwd",
        "/consult ../../etc/hosts",
        "/chat hello there",
    ], settings={"ollama_host": listener.url, "world": "open"}, chroma_url=listener.url)
    return log, prolog, script


def test_a_hostile_log_writes_nothing_reads_nothing_and_sends_nothing(sym_exe, tmp_path, listener, env,
                                                                     ollama_server):
    ollama_server.reply("Hello from the right server.")
    log, prolog, script = hostile_log(tmp_path, listener)
    proc = replay(sym_exe, str(log), env=env)
    assert proc.returncode == 0, proc.stderr
    assert not prolog.exists() and not script.exists()
    assert listener.received == []
    skipped = [line for line in proc.stderr.splitlines() if line.startswith("skipped ")]
    assert len(skipped) == 7, proc.stderr            # 2 header fields + 5 inputs, one line each
    assert all(line.endswith("replay with --trust to run it") for line in skipped)
    assert any("header setting ollama_host" in line for line in skipped)
    assert any("header field chroma_url" in line for line in skipped)
    assert any("input 2 ('/export prolog" in line and "writes" in line for line in skipped)
    assert any("input 3 ('/save --script" in line and "writes" in line for line in skipped)
    assert any("input 4" in line and "ollama_host not changed" in line for line in skipped)
    assert any("input 5" in line and "reads '/etc/passwd'" in line for line in skipped)
    assert any("input 6" in line and "../../etc/hosts" in line for line in skipped)
    # what is safe still ran, and the model call went to this machine's server, not the log's
    assert "Hello from the right server." in proc.stdout
    assert "root:" not in json.dumps([r.messages for r in ollama_server.chats])
    assert "Traceback" not in proc.stderr


def test_verify_fails_when_inputs_were_skipped(sym_exe, tmp_path, listener, env):
    log = write_log(tmp_path / "w.jsonl", ["p(a).", f"/export prolog {tmp_path / 'x.pl'}"])
    proc = replay(sym_exe, str(log), "--verify", env=env)
    assert proc.returncode == 1
    assert ", 1 skipped in " in proc.stderr and "equal" not in proc.stderr     # never "equal" then
    assert not (tmp_path / "x.pl").exists()


def test_trust_runs_every_input(sym_exe, tmp_path, env):
    target = tmp_path / "memory.pl"
    log = write_log(tmp_path / "mine.jsonl", ["p(a).", f"/export prolog {target}"])
    proc = replay(sym_exe, str(log), "--trust", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "skipped" not in proc.stderr
    assert "\np(a).\n" in target.read_text()


def test_files_inside_the_scratch_directory_are_allowed(sym_home, tmp_path):
    """A log may write a file with a relative name and read it back: both stay in the scratch dir."""
    import io

    from sym.repl.replay import replay as run_replay
    from sym.sessions.log import read_session

    log = write_log(tmp_path / "local.jsonl", ["p(a).", "/save --script s.sym", "/forget p(a)",
                                               "/export prolog mem.pl", "/load mem.pl", "/docs"])
    out, err = io.StringIO(), io.StringIO()
    report = run_replay(read_session(log), out=out, err=err)
    assert report.skipped == [] and err.getvalue() == ""
    assert "wrote 1 inputs to s.sym" in out.getvalue() and "mem.pl" in out.getvalue().splitlines()[-1]
    assert not (tmp_path / "mem.pl").exists() and not Path("mem.pl").exists() and not Path("s.sym").exists()


@pytest.mark.parametrize("text, allowed", [
    ("/set world open", True), ("/set ollama-host http://x", False), ("/set OLLAMA_HOST http://x", False),
    ("/set chroma_url http://x", False), ("/reindex hash", True), ("/reindex st:/models/x", False),
    ("/load ~/notes.txt", False), ("/load notes.txt", False), ("/load made-here.txt", True), ("/prove --file /tmp/p.json", False),
    ("/prove Is Bob big?", True), ("/resume ../../x", False), ("/resume kinship --fresh", True),
    ("/save kinship", True), ("/save --script 'a b.sym'", True), ("/save --script /tmp/a.sym", False),
    ("/tell Bob is big.", True), ("/tell --from ../secret.txt", False), ("/export prolog", True),
    ("/nonsense /etc/passwd", True),     # unknown: fails as it did when recorded, touching nothing
    ("/set --save ollama_host http://evil", False), ("/set --save temperature 0.5", False),   # config.toml is outside
    ("/set --bogus x", True), ("/clear", True),
])
def test_the_guard_allows_only_what_stays_inside(tmp_path, text, allowed):
    from sym.plugins.loader import load_plugins
    from sym.repl.commands import builtin_registry
    from sym.sessions.guard import ReplayGuard

    registry = builtin_registry()
    load_plugins(registry)
    (tmp_path / "made-here.txt").write_text("written by an earlier input of the replay")
    guard = ReplayGuard(tmp_path, registry)
    assert (guard.check(text) is None) == allowed, guard.check(text)


def test_a_command_the_guard_does_not_know_is_skipped(tmp_path):
    from sym.repl.commands import builtin_registry
    from sym.repl.registry import Command
    from sym.sessions.guard import ReplayGuard

    registry = builtin_registry()
    registry.add(Command("/upload", lambda ctx, arg, run: None, args="FILE"))
    reason = ReplayGuard(tmp_path, registry).check("/upload /etc/passwd")
    assert reason is not None and "/upload" in reason
