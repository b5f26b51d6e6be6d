"""Fixtures shared by the session-log tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """Run in an empty directory and make sure nothing was executed there (or in SYM_HOME)."""
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    home = Path(os.environ["SYM_HOME"])
    assert not [*tmp_path.rglob("PWNED"), *home.rglob("PWNED")], "something ran a payload"
    assert not (ROOT / "PWNED").exists() and not Path("PWNED").exists()
