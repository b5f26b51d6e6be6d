"""What the Spark engine's tests need: pyspark and a Java 17+ runtime (each test module skips with
the reason where either is missing), and the process's one Spark session, started once for every
Spark test module (starting one costs seconds)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest


def java_major() -> int | None:
    """The major version of the `java` on PATH (None: none, or it does not say)."""
    java = shutil.which("java")
    if java is None:
        return None
    try:
        shown = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60).stderr
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r'version "(\d+)(?:\.(\d+))?', shown)
    if not found:
        return None
    major = int(found.group(1))
    return int(found.group(2) or 0) if major == 1 else major


def require_spark() -> None:
    """Skip the calling test module where the Spark engine cannot run here."""
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[spark]')")
    if (java_major() or 0) < 17:
        pytest.skip("the spark engine needs Java 17 or later (a JRE), and none is installed", allow_module_level=True)
