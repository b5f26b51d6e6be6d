"""Files sym writes (`/save --script`, `/set --save`, policies.yaml) are replaced whole or not at all."""

from __future__ import annotations

import os

import pytest

from sym.core.files import write_text_atomic


def test_a_write_that_fails_half_way_leaves_the_old_file_and_no_temporary(tmp_path):
    folder = tmp_path / "scripts"
    folder.mkdir()
    target = folder / "replay.sym"
    target.write_text("old\n")
    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(target, "new line\n" * 1000 + "\ud800")     # fails while writing, after the first lines
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in folder.iterdir()) == ["replay.sym"]


def test_a_replaced_file_keeps_its_permissions_and_a_new_one_gets_its_folders(tmp_path):
    target = tmp_path / "config.toml"
    target.write_text("a = 1\n")
    os.chmod(target, 0o600)
    write_text_atomic(target, "a = 2\n")
    assert target.read_text() == "a = 2\n" and target.stat().st_mode & 0o777 == 0o600
    deep = tmp_path / "x" / "y" / "s.sym"
    write_text_atomic(deep, "p(a).\n")
    assert deep.read_text() == "p(a).\n"


def test_save_script_replaces_an_existing_script_whole(shells, tmp_path):
    shell = shells(record=True)
    assert shell.execute("p(a).")[1].ok
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "s.sym").write_text("stale\n")
    result = shell.execute(f"/save --script {folder / 's.sym'}")[1]
    assert result.ok, result
    assert (folder / "s.sym").read_text() == "p(a).\n"
    assert sorted(p.name for p in folder.iterdir()) == ["s.sym"]
