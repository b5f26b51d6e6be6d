"""The README's main job: examples/tour.sym runs offline (no model) and says what it should."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import ROOT
from tests.ollama_server import unused_url


def test_the_tour_runs_offline_and_answers(sym_exe, sym_home):
    env_host = {"OLLAMA_HOST": unused_url()}      # any model call would fail: none may happen
    import os

    run = subprocess.run([*sym_exe, "--batch", str(ROOT / "examples" / "tour.sym"), "--json"],
                         capture_output=True, text=True, timeout=300, env={**os.environ, **env_host})
    assert run.returncode == 0, run.stderr
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert all(r["ok"] for r in results)
    asked = {r["input"]: r for r in results if r["command"] == "/ask"}
    assert asked["/ask Bob is strong."]["answer"] == "true"
    assert asked["/ask Is Bob young?"]["answer"] == "false"
    assert asked["/ask The dog is kind."]["answer"] == "unknown"
    assert set(asked["/ask What is contained in Box 1?"]["answer"].split(", ")) == {"the pen", "the cup"}
    assert all(r["llm_calls"] == 0 for r in asked.values())
    told = [s for r in results if r["command"] == "/tell" for s in r["sentences"]]
    assert {s["path"] for s in told} <= {"fast", "state"}
    proof = next(r for r in results if r["command"] == "/prove")
    assert [v["status"] for v in proof["verifications"]] == ["refuted"]
    math = [r for r in results if r["command"] == "/math"]
    assert "d + (x - y)*(a + b - c)" in json.dumps(math[0])
