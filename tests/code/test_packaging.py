"""sym installs as one `sym` package (sym.core, sym.repl, …) from the design card's folders."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOPS = {"sym.core": "core", "sym.repl": "repl", "sym.plugins": "plugins", "sym.sessions": "sessions"}


def test_every_folder_with_an_init_is_a_listed_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == TOPS
    found = {package + "".join("." + part for part in init.parent.relative_to(ROOT / folder).parts)
             for package, folder in TOPS.items() for init in (ROOT / folder).rglob("__init__.py")}
    assert set(config["packages"]) == found


def test_sources_import_sym_names_only(tmp_path):
    stale = [f"{path.relative_to(ROOT)}:{n}" for top in (*TOPS.values(), "tests", "benchmarks")
             for path in (ROOT / top).rglob("*.py")
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if line.lstrip().startswith(tuple(f"{kw} {old}{end}" for kw in ("from", "import")
                                               for old in TOPS.values() for end in (".", " ")))]
    assert stale == []


def test_outside_the_checkout_only_the_sym_package_is_importable(tmp_path):
    code = ("import importlib.util as u\n"
            "print([n for n in ('core', 'repl', 'plugins', 'sessions') if u.find_spec(n)])\n"
            "from importlib import resources\n"
            "import sym.core.logic, sym.repl.cli\n"
            "print(resources.files('sym.core.logic').joinpath('grammar.lark').is_file())\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["[]", "True"]
