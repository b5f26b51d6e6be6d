"""Random stratified programs with arithmetic and aggregates (benchmarks/numbers_vs_swi.py, a
seeded CI-sized sample) derive the same relations in sym as in SWI-Prolog, when swipl is installed."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

SWIPL = shutil.which("swipl")
SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "numbers_vs_swi.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("numbers_vs_swi", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module         # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(SWIPL is None, reason="swipl is not installed (CI installs it best-effort)")
def test_thirty_random_programs_with_numbers_agree_with_swi_prolog():
    differ = _benchmark().compare(30, 2024, SWIPL)
    assert not differ, "\n".join(f"{what}\n{g.text}sym {ours}\nswi {theirs}" for g, what, ours, theirs in differ)
