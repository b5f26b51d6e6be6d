"""Shared fixtures: a fresh shell per test, a fresh SYM_HOME, and the installed `sym` script."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from sym.repl.dispatcher import Shell
from tests.ollama_server import OllamaServer

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def sym_home(tmp_path, monkeypatch):
    """Every test gets its own data directory."""
    home = tmp_path / "sym-home"
    home.mkdir()
    monkeypatch.setenv("SYM_HOME", str(home))
    return home


@pytest.fixture
def ollama_server():
    """A started Ollama-protocol server on 127.0.0.1 (see tests/ollama_server.py); stopped after the test."""
    with OllamaServer() as server:
        yield server


@pytest.fixture
def shell():
    return Shell()


@pytest.fixture
def sym(shell):
    """Type one input into a fresh shell; returns its result object."""
    def run(text: str):
        return shell.execute(text)[1]
    run.shell = shell
    return run


@pytest.fixture
def llm_sym(ollama_server, sym):
    """A shell whose model calls go to the protocol test server (`sym.server`)."""
    sym.shell.ctx.settings.ollama_host = ollama_server.url
    sym.server = ollama_server
    return sym


def fails(result, *words: str) -> str:
    """The result is a clean one-line failure mentioning every word; returns its message."""
    from sym.repl.results import Failure

    assert isinstance(result, Failure), result
    assert "internal error" not in result.message and "\n" not in result.message, result.message
    for word in words:
        assert word in result.message, (word, result.message)
    return result.message


def state(shell) -> tuple:
    """What a bad input must leave unchanged: memory items and settings."""
    return sorted(shell.memory.items), shell.ctx.settings.model_dump()


def texts(memory) -> set[str]:
    """The logic text of every item in a memory."""
    return {it.text for it in memory.items.values()}


@pytest.fixture(scope="session")
def sym_exe() -> list[str]:
    """The installed console script (falls back to `python -m repl` style when not on PATH)."""
    exe = shutil.which("sym", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    assert exe, "the sym console script is not installed; run: pip install -e '.[dev]'"
    return [exe]


@contextmanager
def chroma_server(folder):
    """A real `chroma run` on a free port of 127.0.0.1, storing under `folder`; yields its URL."""
    with chroma_run(folder) as (url, _proc):
        yield url


@contextmanager
def chroma_run(folder):
    """A real `chroma run` on a free port of 127.0.0.1, storing under `folder`; yields (its URL, the
    process), so that a test can stop the server under a running command."""
    exe = shutil.which("chroma", path=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    if exe is None:
        pytest.skip("the chroma executable is missing")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([exe, "run", "--path", str(folder), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail("chroma run exited early")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def shells():
    """Open shells on workspaces (embedded, no background writer), each with the events it emitted
    (`shell.events`); all closed after the test."""
    from sym.repl.dispatcher import MemoryOptions, open_shell

    opened = []

    def start(workspace: str = "default", record: bool = False, **options):
        events: list = []
        shell = open_shell(MemoryOptions(workspace, background=False, **options), emit=events.append, record=record)
        shell.events = events
        opened.append(shell)
        return shell

    yield start
    for shell in opened:
        shell.close()
