"""The model-fault matrix (benchmarks/fault_bench.py) at CI size: a few commands × a few faults,
through the real client and a scripted server, end with no internal error and memory unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_small_fault_matrix_has_no_internal_error_and_keeps_memory():
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fault_bench.py"), "--small"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=os.environ)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 internal errors, 0 with memory changed" in proc.stdout
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in proc.stdout.splitlines() if line.startswith("| /")}
    assert rows["/llm"] == ["1 protocol", "ok", "1 too-large", "3 unreachable"], proc.stdout
    assert rows["/tell"][2] == "1 too-large" and rows["/tell"][3].startswith("3 ")
