"""kill -9 during /consult, /load, /tell, /save --script and the background writer
(benchmarks/crash_bench.py) at CI size: one trial each on small inputs; every reopened workspace
(or written script) holds all of what the command wrote or none of it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_one_kill_of_each_kind_leaves_all_or_nothing():
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "crash_bench.py"), "--small"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT, env=os.environ)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "5 trials in" in proc.stdout and ": 0 violations" in proc.stdout, proc.stdout
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ") and not line.startswith("| command")]
    assert [r.split("|")[1].strip() for r in rows] == ["consult", "load", "tell", "save", "writer"]
