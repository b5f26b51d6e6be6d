"""The design's import rules: core/ never imports UI code; batch mode never imports textual."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ("repl", "textual", "prompt_toolkit")
HEAVY = ("chromadb", "ollama", "sympy", "textual", "z3")

BLOCKER = """
import sys
class Blocker:
    def __init__(self, names): self.names = names
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in self.names:
            raise ImportError(f'blocked import of {name}')
sys.meta_path.insert(0, Blocker(NAMES))
"""


def blocker(names) -> str:
    return BLOCKER.replace("NAMES", repr(set(names)))


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_never_imports_ui_code():
    offenders = {}
    for path in (ROOT / "core").rglob("*.py"):
        bad = {m for m in imported_modules(path) if m.split(".")[0] in UI}
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_every_core_module_imports_with_ui_packages_blocked():
    modules = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "core").rglob("*.py"))
    code = blocker(UI) + "\n".join(f"import {m.removesuffix('.__init__')}" for m in modules)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_batch_mode_runs_without_textual_or_prompt_toolkit(tmp_path):
    script = tmp_path / "s.sym"
    script.write_text("p(a).\nq(X) :- p(X).\n?- q(a).\n/why q(a)\n/help\n")
    code = blocker({"textual", "prompt_toolkit"}) + (
        "from repl.batch import run_batch\n"
        f"raise SystemExit(run_batch({str(script)!r}))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "true." in proc.stdout


def test_help_and_version_import_no_heavy_library():
    code = ("import sys\nfrom repl import cli\n"
            "sys.argv = ['sym', '--version']\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m == 'lark'))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"
