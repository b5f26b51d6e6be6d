"""Keeping the sessions folder in hand: unnamed sessions rotate, /sessions lists newest first,
/sessions rm deletes one after a confirmation."""

from __future__ import annotations

import os

from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.results import Failure, Message, Table
from sym.sessions.log import rotate, sessions_dir


def fake_session(folder, name: str, age: int, size: int = 100):
    path = folder / f"{name}.jsonl"
    path.write_text('{"t": "header", "seq": 1, "format": 1, "workspace": "default", "started": 0}\n'
                    + "x" * size + "\n")
    os.utime(path, (1_000_000 + age, 1_000_000 + age))
    return path


def test_rotation_keeps_the_newest_unnamed_and_every_named_session(tmp_path):
    unnamed = [fake_session(tmp_path, f"20260101-0000{i:02d}-1", age=i) for i in range(10)]
    named = fake_session(tmp_path, "kinship-study", age=-5)          # the oldest of all
    removed = rotate(tmp_path, keep=4)
    assert sorted(removed) == sorted(unnamed[:6])
    assert named.exists() and all(p.exists() for p in unnamed[6:])


def test_rotation_by_size(tmp_path):
    unnamed = [fake_session(tmp_path, f"20260101-0000{i:02d}-1", age=i, size=400_000) for i in range(5)]
    rotate(tmp_path, keep=100, keep_mb=1.0)                            # two fit in 1 MB
    assert [p.exists() for p in unnamed] == [False, False, False, True, True]


def test_a_new_session_rotates_the_folder(sym_home, monkeypatch):
    import sym.sessions.log as log

    folder = sessions_dir()
    folder.mkdir(parents=True)
    old = [fake_session(folder, f"20260101-0000{i:02d}-1", age=i) for i in range(3)]
    monkeypatch.setattr(log, "KEEP_UNNAMED", 2)
    shell = open_shell(MemoryOptions("default"), record=True)
    try:
        assert [p.exists() for p in old] == [False, False, True]        # with the new one: two
    finally:
        shell.close()


def test_sessions_newest_first_and_rm_asks_first(sym_home):
    folder = sessions_dir()
    folder.mkdir(parents=True)
    fake_session(folder, "older", age=1)
    fake_session(folder, "newer", age=2)
    shell = open_shell(MemoryOptions("default"), record=True)
    try:
        _, listing = shell.execute("/sessions")
        assert isinstance(listing, Table)
        names = [row[0] for row in listing.rows]
        assert names[0] == shell.ctx.session.path.stem and names[1:] == ["newer", "older"]
        assert "this one" in listing.rows[0][2] and "KB" in listing.rows[1][2]

        _, asked = shell.execute("/sessions rm older")
        assert isinstance(asked, Message) and "--yes" in asked.text and (folder / "older.jsonl").exists()
        _, done = shell.execute("/sessions rm older --yes")
        assert isinstance(done, Message) and not (folder / "older.jsonl").exists()

        _, own = shell.execute(f"/sessions rm {shell.ctx.session.path.stem} --yes")
        assert isinstance(own, Failure) and shell.ctx.session.path.exists()
        _, missing = shell.execute("/sessions rm nosuch --yes")
        assert isinstance(missing, Failure) and "no session" in missing.message
        _, outside = shell.execute(f"/sessions rm {sym_home / 'elsewhere.jsonl'} --yes")
        assert isinstance(outside, Failure)
    finally:
        shell.close()
