"""Load plugins into a command registry: the built-in ones by direct import, then every plugin
from the `sym.plugins` entry-point group.

A plugin is a callable taking the registry. One that fails to import or to register is
reported and skipped; the registry is left as it was before that plugin ran.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

from sym.plugins import export

GROUP = "sym.plugins"


def _builtin() -> list[tuple[str, Callable]]:
    return [("export", export.register)]


def load_plugins(registry, *, group: str = GROUP) -> list[str]:
    """Run every plugin's register function; returns one line per plugin that failed."""
    for _name, register in _builtin():     # part of sym: no installed metadata needed to find them
        register(registry)
    problems: list[str] = []
    for ep in sorted(entry_points(group=group), key=lambda e: e.name):
        before_cmds, before_exp = dict(registry.commands), dict(registry.exporters)
        before_alias, before_packs = dict(registry._aliases), dict(registry.prompters)
        try:
            register = ep.load()
            register(registry)
        except Exception as err:  # a broken plugin must not take the shell down
            registry.commands, registry.exporters, registry._aliases = before_cmds, before_exp, before_alias
            registry.prompters = before_packs
            problems.append(f"plugin {ep.name!r} failed and was skipped: {type(err).__name__}: {err}")
    return problems
