"""Public SMT-LIB files (a sample of Z3's own regression files and pysmt's, tests/prove/smt2/)
through /prove --file: sym's answer at every check is the one z3 gives for the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parent / "smt2"
EXPECTED = json.loads((FOLDER / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_public_script_gets_z3s_answers(sym, name):
    result = sym(f"/prove --file {FOLDER / name}")
    assert result.ok, getattr(result, "message", result)
    data = result.to_dict()
    assert [c["answer"] for c in data["checks"]] == EXPECTED[name]["answers"]
    for claim in data["verifications"]:        # a claim's verdict never contradicts Z3's answer
        assert claim["status"] in ("proved", "refuted", "unknown", "inconsistent")


def test_every_sample_file_has_its_source_and_answers():
    files = {p.name for p in FOLDER.glob("*.smt2")}
    assert files == set(EXPECTED) and len(files) >= 30
    assert all(e["from"].startswith("https://github.com/") and e["answers"] for e in EXPECTED.values())
