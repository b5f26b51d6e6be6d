"""Shell commands: help, settings, the memory summary, leaving."""

from __future__ import annotations

from sym.core.errors import UserError
from sym.core.events import SettingChanged
from sym.repl.context import Context
from sym.repl.registry import command
from sym.repl.results import Exit, HelpText, Listing, Message, Table, violation_dict


def _command_names(ctx: Context, text: str) -> list[str]:
    return [n for n in ctx.registry.names() if n.startswith(text.strip() or "/")]


@command("/help", args="[CMD]", aliases=("/?",), completer=_command_names, group="shell")
def help_(ctx: Context, arg: str) -> HelpText:
    """List the commands, or show one command in full (/? CMD)."""
    name = arg.strip()
    if name:
        cmd = ctx.registry.lookup(name if name.startswith("/") else "/" + name)
        aliases = f"\n  aliases: {', '.join(cmd.aliases)}" if cmd.aliases else ""
        options = f"\n  options:\n{cmd.options_help}" if cmd.options else ""
        return HelpText([(cmd.usage, cmd.summary, cmd.doc + options + aliases)], detailed=True)
    order = {"logic": 0, "memory": 1, "session": 2, "shell": 3}
    cmds = sorted(ctx.registry.commands.values(), key=lambda c: (order.get(c.group, 3), c.name))
    return HelpText([(c.usage, c.summary, c.doc) for c in cmds])


def _setting_keys(ctx: Context, text: str) -> list[str]:
    return [k for k in type(ctx.settings).model_fields if k.startswith(text.strip())]


@command("/set", args="[KEY VALUE]", completer=_setting_keys, group="shell")
def set_(ctx: Context, arg: str) -> Table | Message:
    """Show the settings, or change one: /set world open, /set max_steps 3, /set max_steps none."""
    parts = arg.split(None, 1)
    if not parts:
        return Table("settings", [(k, v, doc) for k, (v, doc) in ctx.settings.describe().items()])
    if len(parts) == 1:
        key = parts[0].replace("-", "_")
        described = ctx.settings.describe()
        if key not in described:
            raise UserError(f"unknown setting {parts[0]!r}", hint="settings: " + ", ".join(described))
        value, doc = described[key]
        return Table("", [(key, value, doc)])
    value = ctx.settings.set(parts[0], parts[1])
    ctx.emit(SettingChanged(parts[0].replace("-", "_").replace(".", "_"), value))
    return Message(f"{parts[0]} = {'none' if value is None else value}", {"key": parts[0], "value": value})


_SECTIONS = ("facts", "rules", "derived", "violations", "settings")


def kind_listing(memory, part: str) -> Listing:
    """The stored facts, or the stored rules and constraints."""
    kinds = ("fact",) if part == "facts" else ("rule", "constraint")
    return Listing([it for it in memory.items.values() if it.kind in kinds])


@command("/show", args="[facts|rules|derived|violations|settings]", group="shell",
         completer=lambda ctx, text: [s for s in _SECTIONS if s.startswith(text.strip())])
def show(ctx: Context, arg: str):
    """Summarise the working memory, or show one part of it."""
    what = arg.strip()
    memory = ctx.memory
    if what in ("facts", "rules"):
        return kind_listing(memory, what)
    if what == "derived":
        return Listing([], [str(f) for f in memory.engine.facts(derived=True)])
    if what == "violations":
        found = memory.violations(ctx.settings.max_steps)
        text = "\n".join(f"violation: {v}" for v in found) or "no violations"
        return Message(text, {"violations": [violation_dict(v) for v in found]})
    if what == "settings":
        return set_(ctx, "")
    if what:
        raise UserError(f"cannot show {what!r}", hint="choose one of: " + ", ".join(_SECTIONS))
    counts = memory.counts()
    memory.engine.ensure_model(ctx.settings.max_steps)
    derived = sum(1 for _ in memory.engine.facts(derived=True))
    return Table(f"workspace {memory.workspace}", [
        ("facts", counts["fact"], "asserted"),
        ("rules", counts["rule"], ""),
        ("constraints", counts["constraint"], ""),
        ("derived", derived, f"in {memory.engine.steps} steps"),
        ("world", ctx.settings.world, ""),
    ])


@command("/bye", aliases=("/quit", "/exit"), group="shell")
def bye(ctx: Context, arg: str) -> Exit:
    """Leave sym (in a batch script: stop reading further lines)."""
    return Exit()

