"""Plugins from the `sym.plugins` entry-point group: a good one adds a command, a broken one is skipped."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sym.plugins.loader import load_plugins
from sym.repl.commands import builtin_registry

GREETER = '''
from sym.repl.registry import Command
from sym.repl.results import Message

def hello(ctx, arg, run):
    """Say hello to someone."""
    return Message(f"hello, {arg or 'world'}")

def register(registry):
    registry.add(Command("/hello", hello, args="[NAME]", group="shell"))
'''

HALF_BROKEN = '''
from sym.repl.registry import Command

def register(registry):
    registry.add(Command("/half", lambda ctx, arg, run: None))
    raise RuntimeError("database not configured")
'''


def install_fake_plugins(root: Path) -> None:
    """A dist-info directory on the path is all importlib.metadata needs to find entry points."""
    (root / "greeter_plugin.py").write_text(GREETER)
    (root / "half_plugin.py").write_text(HALF_BROKEN)
    info = root / "sym_fake_plugins-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sym-fake-plugins\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[sym.plugins]\n"
        "greeter = greeter_plugin:register\n"
        "half = half_plugin:register\n"
        "missing = no_such_module_anywhere:register\n")


def test_plugins_add_commands_and_broken_ones_are_reported_and_skipped(sym_exe, tmp_path):
    install_fake_plugins(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([*sym_exe, "--batch", "-"], input="/hello Ada\n/help\n/half\n", text=True,
                          capture_output=True, env=env, timeout=60)
    assert "hello, Ada" in proc.stdout
    assert "/hello [NAME]" in proc.stdout and "Say hello" in proc.stdout
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning: plugin")]
    assert len(warnings) == 2
    assert any("'half'" in w and "database not configured" in w for w in warnings)
    assert any("'missing'" in w and "no_such_module_anywhere" in w for w in warnings)
    assert "unknown command /half" in proc.stderr      # the broken plugin's partial work was undone
    assert proc.returncode == 1


def test_the_builtin_plugins_are_registered_by_direct_import():
    registry = builtin_registry()
    assert registry.get("/export") is None
    assert load_plugins(registry) == []
    assert registry.get("/export") is not None and "prolog" in registry.exporters


def test_a_handler_that_takes_no_run_is_refused_naming_the_shape_it_needs():
    from sym.repl.registry import Command, Registry

    registry = Registry()
    with pytest.raises(ValueError, match=r"handler of /old must take \(ctx, args, run\)"):
        registry.add(Command("/old", lambda ctx, arg: None))
    assert registry.get("/old") is None
    registry.add(Command("/new", lambda ctx, arg, run: None))
    assert registry.get("/new") is not None
