"""A session log on a disk that fills (a small tmpfs under the sessions folder): every line it
keeps is whole, recording stops with one warning, the session goes on, and `/save NAME` after it
is one line saying "disk full"."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest


def test_a_full_disk_stops_the_session_log_at_a_whole_line_and_says_so_once(sym_exe, sym_home):
    sessions = sym_home / "sessions"
    sessions.mkdir(parents=True)
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(sessions)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        lines = [f"note({n}, '{'words of a long note ' * 8}{n}')." for n in range(400)]
        script = "\n".join(lines) + "\n/save kept\n?- note(399, X).\n"
        proc = subprocess.run([*sym_exe, "--batch", "-"], input=script, capture_output=True, text=True, timeout=300,
                              env={**os.environ, "SYM_HOME": str(sym_home)})
        (log,) = sessions.glob("*.jsonl")
        text = log.read_text()
    finally:
        subprocess.run(["umount", "-l", str(sessions)], capture_output=True)
    errors = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    stopped = [line for line in errors if "session log stopped recording" in line]
    assert len(stopped) == 1 and stopped[0].startswith("warning: disk full"), errors
    save = [line for line in errors if "line 401" in line]
    assert len(save) == 1 and save[0].startswith("error: line 401: disk full"), errors
    assert proc.returncode == 1 and proc.stdout.rstrip().endswith("1 answer.")      # the session went on
    assert text.endswith("\n")
    events = [json.loads(line) for line in text.splitlines()]           # every line kept is whole
    assert events[0]["t"] == "header" and [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len(events) < 400 * 2          # it did stop
