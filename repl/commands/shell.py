"""Shell commands: help, settings, the memory summary, leaving."""

from __future__ import annotations

import os

from sym.core.errors import UserError
from sym.core.events import SettingChanged
from sym.core.run import Run
from sym.core.settings import dotted, save_setting
from sym.repl.arguments import Args, Option, last_word, positional, setting_values
from sym.repl.commands.logic import LISTING_PAGE, derived_page
from sym.repl.context import Context
from sym.repl.registry import command
from sym.repl.results import Exit, HelpText, Listing, Message, Table, violation_dict


def _command_names(ctx: Context, prefix: str) -> list[str]:
    return [n for n in ctx.registry.names() if n.startswith(prefix or "/")]


@command("/help", args="[CMD]", aliases=("/?",), completer=positional(_command_names), group="shell")
def help_(ctx: Context, arg: str, run: Run) -> HelpText:
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
    """Setting names for the key being typed (after --save too), then the values its type names."""
    words = [w for w in text.split() if not w.startswith("--")]
    prefix = last_word(text)
    typed = len(words) - (1 if prefix else 0)
    if typed == 0:
        return [k for k in type(ctx.settings).model_fields if k.startswith(prefix)]
    return setting_values(ctx, words[0], prefix) if typed == 1 else []


@command("/set", args="[KEY VALUE]", completer=_setting_keys, group="shell",
         options=(Option("--save", bool, help="also write it to config.toml: the default of every later session"),))
def set_(ctx: Context, args: Args, run: Run) -> Table | Message:
    """Show the settings, or change one for this session: /set world open, /set max_steps none.

    /set --save KEY VALUE also writes it to config.toml, the default of every later session (the
    file's other lines and comments are kept)."""
    parts = args.text.split(None, 1)
    if args.save and len(parts) < 2:
        raise UserError("/set --save needs a setting and its value", hint="/set --save world open")
    if args.save:
        return _save(ctx, parts[0], parts[1])
    if not parts:
        return Table("settings", [(dotted(k), v, doc) for k, (v, doc) in ctx.settings.describe().items()])
    if len(parts) == 1:
        key = parts[0].replace("-", "_").replace(".", "_")
        described = ctx.settings.describe()
        if key not in described:
            raise UserError(f"unknown setting {parts[0]!r}", hint="settings: " + ", ".join(map(dotted, described)))
        value, doc = described[key]
        return Table("", [(dotted(key), value, doc)])
    if parts[0].replace("-", "_").replace(".", "_") == "engine":     # moves the workspace's facts
        from sym.repl.commands.engine import set_engine

        return set_engine(ctx, parts[1])
    value = ctx.settings.set(parts[0], parts[1])
    key = parts[0].replace("-", "_").replace(".", "_")
    ctx.emit(SettingChanged(key, value))
    return Message(f"{dotted(key)} = {'none' if value is None else value}", {"key": parts[0], "value": value})


# settings an environment variable (what sym's --model, --ollama-host … set) decides over the file
_FROM_ENVIRONMENT = {"model": "SYM_MODEL", "ollama_host": "OLLAMA_HOST", "backend": "SYM_BACKEND",
                     "base_url": "SYM_BASE_URL"}


def _save(ctx: Context, key: str, raw: str) -> Message:
    """Check the value on a copy, write it to the config file, then set it in this session: a bad
    value or an unwritable file changes neither."""
    value = ctx.settings.model_copy().set(key, raw)
    key = key.replace("-", "_").replace(".", "_")
    path = save_setting(key, value)
    ctx.settings.set(key, raw)
    ctx.emit(SettingChanged(key, value))
    env = _FROM_ENVIRONMENT.get(key)
    note = f" (${env} is set and wins over it when sym starts)" if env and os.environ.get(env) else ""
    shown = "none" if value is None else value
    return Message(f"{dotted(key)} = {shown}, saved to {path}{note}", {"key": key, "value": value, "saved": str(path)})


_SECTIONS = ("facts", "rules", "derived", "violations", "settings")


def kind_listing(memory, part: str) -> Listing:
    """The stored facts, or the stored rules and constraints."""
    kinds = ("fact",) if part == "facts" else ("rule", "constraint")
    return Listing([it for it in memory.items.values() if it.kind in kinds])


@command("/show", args="[facts|rules|derived|violations|settings]", group="shell",
         completer=positional(_SECTIONS))
def show(ctx: Context, arg: str, run: Run):
    """Summarise the working memory, or show one part of it."""
    what = arg.strip()
    memory = ctx.memory
    if what in ("facts", "rules"):
        return kind_listing(memory, what)
    if what == "derived":      # the first page, as /listing --derived shows it (and says how to see more)
        return derived_page(memory.engine, None, [], 0, LISTING_PAGE)
    if what == "violations":
        found = memory.violations(ctx.settings.max_steps)
        text = "\n".join(f"violation: {v}" for v in found) or "no violations"
        return Message(text, {"violations": [violation_dict(v) for v in found]})
    if what == "settings":
        return set_(ctx, Args(values={"save": False}))
    if what:
        raise UserError(f"cannot show {what!r}", hint="choose one of: " + ", ".join(_SECTIONS))
    counts = memory.counts()
    memory.engine.ensure_model(ctx.settings.max_steps)
    derived = memory.engine.count_facts(derived=True)     # a relational engine counts in its database
    return Table(f"workspace {memory.workspace}", [
        ("facts", counts["fact"], "asserted"),
        ("rules", counts["rule"], ""),
        ("constraints", counts["constraint"], ""),
        ("derived", derived, f"in {memory.engine.steps} steps"),
        ("world", ctx.settings.world, ""),
    ])


@command("/bye", aliases=("/quit", "/exit"), group="shell")
def bye(ctx: Context, arg: str, run: Run) -> Exit:
    """Leave sym (in a batch script: stop reading further lines)."""
    return Exit()

