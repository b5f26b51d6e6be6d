"""`/set engine NAME` (and `/workspace NAME --engine NAME`): move the current workspace to another
evaluation engine (native, duckdb, spark), its facts and rules with it; recorded in the workspace."""

from __future__ import annotations

from sym.core.backends.choice import check, kind, options_from, switch
from sym.core.events import SettingChanged
from sym.core.memory.workspace import workspace_dir
from sym.core.words import count
from sym.repl.context import Context
from sym.repl.results import Message


def set_engine(ctx: Context, value: str) -> Message:
    """Move the workspace to engine `value`; one line on what moved (nothing changes on an error)."""
    name = check(value)
    memory = ctx.memory
    before = kind(memory.engine)
    directory = workspace_dir(memory.workspace) if ctx.workspaces is not None and memory.store is not None else None
    moved = switch(memory, name, directory, options_from(ctx.settings))
    if ctx.settings.engine != name:
        ctx.settings.engine = name
    ctx.emit(SettingChanged("engine", name))
    if before == name:
        return Message(f"engine = {name} (already)", {"key": "engine", "value": name, "moved": 0})
    return Message(f"engine = {name}: {count(moved, 'fact')} and {count(len(memory.engine.rules), 'rule')} "
                   f"moved from {before}", {"key": "engine", "value": name, "moved": moved})


def sync_setting(ctx: Context) -> None:
    """The `engine` setting says what the open workspace evaluates on."""
    name = kind(ctx.memory.engine)
    if ctx.settings.engine != name:
        ctx.settings.engine = name
