"""The design's import rules: core/ never imports UI code; batch mode never imports textual."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ("sym.repl", "textual", "prompt_toolkit")
HEAVY = ("chromadb", "ollama", "sympy", "textual", "z3", "mcp", "mcp_types")

BLOCKER = """
import sys
class Blocker:
    def __init__(self, names): self.names = names
    def find_spec(self, name, path=None, target=None):
        if any(name == n or name.startswith(n + '.') for n in self.names):
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
        bad = {m for m in imported_modules(path) if any(m == u or m.startswith(u + ".") for u in UI)}
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_every_core_module_imports_with_ui_packages_blocked():
    modules = sorted("sym." + ".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "core").rglob("*.py"))
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


# -- duck typing: core/ must not reach into the front-end's Context either ---------------------

# Context members a library may legitimately name for its own things (a memory, an emit callback,
# a cancel event, a session log, a run id, a path …)
SHARED = {"memory", "settings", "emit", "cancel", "session", "source", "base_dir", "run_id", "path",
          "progress", "check_cancel", "llm", "workspaces", "stream"}
CONTEXT_NAMES = {"ctx", "context"}


def context_members() -> set[str]:
    """The names repl.context.Context defines (fields, properties, methods)."""
    tree = ast.parse((ROOT / "repl" / "context.py").read_text())
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Context"]
    names = set()
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("__"):
            names.add(node.name)
    return names


def front_end_uses(path: Path, members: set[str]) -> list[str]:
    """Places in one core module that use a shell's Context: a parameter named ctx, an attribute
    of something named ctx/context that a Context has, or a member only a Context has (by
    attribute or by getattr/setattr/hasattr with its name), reached on anything but self."""
    own = members - SHARED
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        where = f"{name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.arguments):
            for arg in (*node.posonlyargs, *node.args, *node.kwonlyargs, node.vararg, node.kwarg):
                if arg is not None and arg.arg == "ctx":
                    found.append(f"{where}: parameter ctx")
        elif isinstance(node, ast.Attribute):
            base = node.value.id if isinstance(node.value, ast.Name) else None
            if base in CONTEXT_NAMES and (base == "ctx" or node.attr in members):
                found.append(f"{where}: {base}.{node.attr}")
            elif node.attr in own and base not in ("self", "cls"):
                found.append(f"{where}: .{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in own):
            found.append(f"{where}: {node.func.id}(…, {node.args[1].value!r})")
    return found


def test_core_never_reaches_into_the_front_ends_context():
    members = context_members()
    assert {"registry", "clients", "session", "workspaces"} <= members     # the scan knows what to look for
    offenders = [use for path in sorted((ROOT / "core").rglob("*.py")) for use in front_end_uses(path, members)]
    assert offenders == []


def test_the_context_scan_catches_duck_typing(tmp_path):
    members = context_members()
    sample = tmp_path / "sample.py"
    sample.write_text("def steer(ctx, cmd):\n    return ctx.settings\n\n"
                      "def build(context):\n    return context.registry\n\n"
                      "def peek(shell):\n    return getattr(shell, 'clients', None), shell.policy_state\n\n"
                      "class Fine:\n    def __init__(self, context: str):\n        self.clients = context.strip()\n")
    uses = [u.split(": ", 1)[1] for u in front_end_uses(sample, members)]
    assert sorted(uses) == sorted(["parameter ctx", "ctx.settings", "context.registry", "getattr(…, 'clients')",
                                   ".policy_state"])


def test_a_one_line_script_imports_no_schema_library_and_no_vector_store(tmp_path):
    """What `sym --batch` of `p(a).` loads: settings are checked by pydantic only when one is set;
    numpy waits for a program big enough to need it."""
    script = tmp_path / "one.sym"
    script.write_text("p(a).\n?- p(a).\n")
    code = ("import sys\nfrom sym.repl import cli\n"
            f"sys.argv = ['sym', '--batch', {str(script)!r}]\n"
            "try:\n    cli.main()\nexcept SystemExit as exit:\n    assert exit.code == 0, exit.code\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'typer', 'chromadb', 'textual', 'numpy'}))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "SYM_HOME": str(tmp_path / "home")})
    assert proc.returncode == 0, proc.stderr
    assert "true." in proc.stdout and proc.stdout.strip().splitlines()[-1] == "[]"
