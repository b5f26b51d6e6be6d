"""`/prove --file`, `/tell --from` and `/load` read regular files only, up to max_file_mb: a FIFO,
/dev/zero, a binary or an oversized file is one clear line, returns at once and changes nothing."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from sym.core.errors import UserError
from tests.conftest import fails, state
from tests.ollama_server import unused_url

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NO_DEV_ZERO = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")


def within(seconds: float, sym, text: str):
    """Run one input on another thread; it must come back within SECONDS (not block on the file)."""
    box: list = []
    worker = threading.Thread(target=lambda: box.append(sym(text)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"{text!r} did not return within {seconds} s"
    return box[0]


def refused(result, *words: str) -> str:
    assert result.exit_code == 1, result
    return fails(result, *words)


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


@pytest.fixture
def offline(sym):
    """A shell whose model host answers nothing: reaching the model would be exit 3, not 1."""
    sym.shell.ctx.settings.ollama_host = unused_url()
    return sym


# -- /prove --file ---------------------------------------------------------------------------

def test_prove_file_refuses_a_fifo_without_blocking(sym, fifo):
    before = state(sym.shell)
    refused(within(5, sym, f"/prove --file {fifo}"), "not a regular file")
    assert state(sym.shell) == before
    refused(sym("/program"), "no program")             # nothing was remembered either


@NO_DEV_ZERO
def test_prove_file_refuses_dev_zero(sym):
    refused(within(5, sym, "/prove --file /dev/zero"), "not a regular file")


def test_prove_file_refuses_a_binary_file(sym, tmp_path):
    # used to be "internal error: UnicodeDecodeError"
    binary = tmp_path / "prog.json"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    refused(sym(f"/prove --file {binary}"), "looks binary")
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"description": "café"}'.encode("latin-1"))
    refused(sym(f"/prove --file {latin}"), "not UTF-8")


def test_prove_file_honours_max_file_mb(sym, tmp_path):
    program = json.loads((EXAMPLES / "height.json").read_text())
    program["description"] = "x" * 200_000              # ~0.2 MB, still a valid program
    path = tmp_path / "big.json"
    path.write_text(json.dumps(program))
    sym("/set max_file_mb 0.1")
    message = refused(sym(f"/prove --file {path}"), "MB")
    assert "0.1" in message
    sym("/set max_file_mb 1")
    assert sym(f"/prove --file {path}").ok


# -- /tell --from ----------------------------------------------------------------------------

def test_tell_from_refuses_a_fifo_without_blocking(offline, fifo):
    # a FIFO used to be "no file or loaded document"; now it says what it is
    before = state(offline.shell)
    refused(within(5, offline, f"/tell --from {fifo}"), "not a regular file")
    assert state(offline.shell) == before


@NO_DEV_ZERO
def test_tell_from_refuses_dev_zero(offline):
    refused(within(5, offline, "/tell --from /dev/zero"), "not a regular file")
    assert offline.shell.memory.items == {}


def test_tell_from_refuses_binary_and_oversized_files(offline, tmp_path):
    binary = tmp_path / "notes.txt"
    binary.write_bytes(b"Bob is big.\x00\x01\x02")
    refused(offline(f"/tell --from {binary}"), "looks binary")
    big = tmp_path / "big.txt"
    big.write_text("Bob is big. " * 20_000)             # ~0.23 MB
    offline("/set max_file_mb 0.1")
    refused(offline(f"/tell --from {big}"), "MB")
    assert offline.shell.memory.items == {}
    offline("/set max_file_mb 1")
    told = offline(f"/tell --from {big}")
    assert told.ok, told
    assert [it.text for it in offline.shell.memory.items.values()] == ["big(bob)."]


def test_tell_from_a_loaded_document_reads_each_sentence_once(tmp_path):
    """Chunks of a loaded document overlap; /tell --from DOC takes the overlap once, so no
    sentence is read twice and none is cut where a chunk began."""
    from sym.repl.dispatcher import MemoryOptions, open_shell

    names = [f"Zor{chr(97 + i // 26)}{chr(97 + i % 26)}o" for i in range(200)]
    doc = tmp_path / "people.txt"
    doc.write_text("# People\n\n" + "\n\n".join(" ".join(f"{n} is kind." for n in names[i:i + 5])
                                                for i in range(0, len(names), 5)) + "\n")
    shell = open_shell(MemoryOptions("docs"), record=False)
    try:
        shell.ctx.settings.ollama_host = unused_url()
        loaded = shell.execute(f"/load {doc}")[1]
        assert loaded.ok and loaded.data["chunks"] > 2, loaded     # several overlapping chunks
        told = shell.execute("/tell --from people.txt")[1]
        assert told.ok, told
        assert [s.sentence for s in told.sentences] == [f"{n} is kind." for n in names]
        assert all(s.outcome == "stored" for s in told.sentences)
        assert {it.text for it in shell.memory.items.values()} == {f"kind({n.lower()})." for n in names}
    finally:
        shell.close()


# -- /load -----------------------------------------------------------------------------------

def test_load_honours_max_file_mb_through_the_library(tmp_path):
    from sym.core.memory import library
    from sym.repl.dispatcher import MemoryOptions, open_shell

    doc = tmp_path / "long.txt"
    doc.write_text("Anne is kind. " * 10_000)            # ~0.14 MB
    shell = open_shell(MemoryOptions("docs"), record=False)
    try:
        with pytest.raises(UserError, match="0.1 MB"):
            library.load(shell.memory.store, doc, limit_mb=0.1)
        assert library.documents(shell.memory.store) == []
        shell.execute("/set max_file_mb 0.1")
        refused(shell.execute(f"/load {doc}")[1], "MB")
        shell.execute("/set max_file_mb 1")
        loaded = shell.execute(f"/load {doc}")[1]
        assert loaded.ok, loaded
        assert [d.name for d in library.documents(shell.memory.store)] == ["long.txt"]
    finally:
        shell.close()


@NO_DEV_ZERO
def test_load_refuses_dev_zero(sym):
    refused(within(5, sym, "/load /dev/zero"), "not a regular file")
