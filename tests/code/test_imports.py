"""Imports inside sym: no module takes part in an import cycle, and an import is at the top of its
module unless it loads something heavy when a command first needs it.

An import inside a function is allowed for
- the heavy third-party modules in LAZY (each costs tens to hundreds of milliseconds, or is an
  optional extra), and
- a sym module whose own top-level imports reach one of them (a "heavy room": the proof DSL
  needs pydantic and z3, the English bridge lark, …), and
- the start-up paths in STARTUP, which load each command's or pane's code when it is first used
  (so that `sym --help` answers, and the TUI paints, before anything else is imported).
Imports under `if TYPE_CHECKING:` never run and are not counted. Package parents are not
edges: `from sym.a import b` is an edge to the module `sym.a.b` when `b` is one.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"core": "sym.core", "repl": "sym.repl", "sessions": "sym.sessions", "plugins": "sym.plugins"}

# heavy or optional third-party packages that a function may import when it first needs them
LAZY = frozenset({
    "chromadb", "z3", "sympy", "numpy", "lark", "lemminflect", "pydantic", "yaml",      # solvers, grammar, schemas
    "textual", "rich", "prompt_toolkit",                                               # front-ends
    "ollama", "httpx", "openai", "mcp",                                                 # model and protocol SDKs
    "sentence_transformers", "static_model", "pypdf",                                   # optional extras
    "duckdb", "pyspark",     # the relational backends and the import of tables (#52)
    "platformdirs",          # the data directories: the English bridge's parse cache loads it when it first writes
})

# start-up paths: `sym --help` (the CLI imports each subcommand when it runs) and the TUI's first
# paint (its app and the widgets painted first load the shell, the renderers and the panes when
# they are first used; tests/tui/test_app.py keeps that path short)
STARTUP = frozenset({"sym.repl.cli", "sym.repl.tui", "sym.repl.tui.app", "sym.repl.tui.side", "sym.repl.tui.bridge",
                     "sym.repl.tui.entry", "sym.repl.tui.history", "sym.repl.tui.status", "sym.repl.tui.transcript",
                     "sym.repl.tui.completion"})

# modules other work was changing when issue 28 landed: their cycles and inner imports are theirs
# to remove (each names the cycle or the habit it still has); nothing else may join this list
NOT_YET = {
}
NOT_YET_PACKAGES: tuple[str, ...] = ()


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = [*FOLDERS[rel.parts[0]].split("."), *rel.parts[1:]]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))}


class Imports(ast.NodeVisitor):
    """One module's imports: (target, line, inside a function), TYPE_CHECKING blocks skipped."""

    def __init__(self, name: str) -> None:
        self.name, self.depth, self.found = name, 0, []

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def _scope(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _scope

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.append((alias.name, node.lineno, self.depth > 0))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        known = modules()
        for alias in node.names:
            sub = f"{node.module}.{alias.name}"
            self.found.append((sub if sub in known else node.module, node.lineno, self.depth > 0))


@cache
def imports(name: str) -> list[tuple[str, int, bool]]:
    visitor = Imports(name)
    visitor.visit(ast.parse(modules()[name].read_text(encoding="utf-8")))
    return visitor.found


def internal(target: str) -> str | None:
    """The sym module an import names (a name inside a module counts as that module)."""
    known = modules()
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for name in modules():
        for target, _, _ in imports(name):
            mod = internal(target) if target.startswith("sym.") else None
            if mod and mod != name:
                edges[name].add(mod)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@cache
def heavy(name: str) -> bool:
    """Whether importing sym module `name` loads a LAZY package (through top-level imports)."""
    seen, todo = set(), [name]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        for target, _, inner in imports(mod):
            if inner:
                continue
            if target.split(".")[0] in LAZY:
                return True
            sub = internal(target) if target.startswith("sym.") else None
            if sub:
                todo.append(sub)
    return False


def waived(name: str) -> bool:
    return name in NOT_YET or name.startswith(NOT_YET_PACKAGES)


def test_no_module_takes_part_in_an_import_cycle():
    found = [c for c in cycles(graph()) if not all(waived(m) for m in c)]
    assert found == [], "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


def test_imports_inside_functions_are_only_for_heavy_modules():
    found = []
    for name in modules():
        if name in STARTUP or waived(name):
            continue
        for target, line, inner in imports(name):
            if not inner:
                continue
            mod = internal(target) if target.startswith("sym.") else None
            if (mod and heavy(mod)) or (not mod and target.split(".")[0] in LAZY):
                continue
            found.append(f"{modules()[name].relative_to(ROOT)}:{line} imports {target}")
    assert found == [], f"{len(found)} imports inside functions should be at the top:\n" + "\n".join(found)


def test_the_waivers_name_real_modules_only():
    assert set(NOT_YET) <= set(modules()) and STARTUP <= set(modules())


def test_the_scan_sees_a_cycle_and_an_inner_import(tmp_path):
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    visitor = Imports("x")
    visitor.visit(ast.parse("import os\nif TYPE_CHECKING:\n    import z3\ndef f():\n    import json\n"))
    assert visitor.found == [("os", 1, False), ("json", 5, True)]
