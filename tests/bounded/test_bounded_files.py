"""File commands read regular files only, up to max_file_mb: a FIFO, /dev/zero, a directory,
a binary or an oversized file is one clear line, and nothing is stored."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from sym.core.errors import UserError
from sym.core.files import check_file, read_file_bytes, read_text_file
from sym.repl.results import Added, Failure


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe.pl"
    os.mkfifo(path)
    return path


def test_a_fifo_is_refused_without_blocking(fifo):
    with pytest.raises(UserError, match="not a regular file"):
        read_text_file(fifo)
    with pytest.raises(UserError, match="not a regular file"):
        check_file(fifo)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_is_refused():
    with pytest.raises(UserError, match="not a regular file"):
        read_file_bytes("/dev/zero")


def test_size_limit_names_the_setting(tmp_path):
    big = tmp_path / "big.pl"
    big.write_text("p(a).\n" * 40_000)       # ~0.23 MB
    with pytest.raises(UserError, match="0.1 MB") as caught:
        read_text_file(big, 0.1)
    assert "max_file_mb" in caught.value.hint
    assert read_text_file(big, 1).count("\n") == 40_000


def test_binary_and_non_utf8_files_are_refused(tmp_path):
    binary = tmp_path / "prog.json"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00")
    with pytest.raises(UserError, match="looks binary"):
        read_text_file(binary)
    latin = tmp_path / "latin.pl"
    latin.write_bytes("p('café').".encode("latin-1"))
    with pytest.raises(UserError, match="not UTF-8"):
        read_text_file(latin)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        read_text_file(tmp_path / "nope.pl")
    with pytest.raises(UserError, match="is a directory"):
        read_text_file(tmp_path)


def test_consult_refuses_a_fifo_and_dev_zero(sym, fifo):
    for name in (str(fifo), "/dev/zero"):
        result = sym(f"/consult {name}")
        assert isinstance(result, Failure) and "not a regular file" in result.message
    assert sym("/listing").items == []


def test_consult_honours_max_file_mb(sym, tmp_path):
    path = tmp_path / "facts.pl"
    path.write_text("".join(f"p({i}).\n" for i in range(30_000)))
    sym("/set max_file_mb 0.1")
    result = sym(f"/consult {path}")
    assert isinstance(result, Failure) and "MB" in result.message
    sym("/set max_file_mb 10")
    assert isinstance(sym(f"/consult {path}"), Added)


def test_consult_stops_on_cancel_and_stores_nothing(sym, tmp_path):
    path = tmp_path / "facts.pl"
    path.write_text("".join(f"p({i}).\n" for i in range(2_000)))
    cancel = threading.Event()
    cancel.set()                              # Esc pressed while the file was being read
    sym.shell.ctx.cancel = cancel
    result = sym(f"/consult {path}")
    assert isinstance(result, Failure) and result.exit_code == 130
    assert sym("/listing").items == []
    assert isinstance(sym(f"/consult {path}"), Added)


def test_load_refuses_a_fifo(sym, fifo):
    result = sym(f"/load {fifo}")
    assert isinstance(result, Failure) and "not a regular file" in result.message
