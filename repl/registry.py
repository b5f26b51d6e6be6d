"""The one command registry every front-end reads: names, aliases, arguments, help, completers.

Commands are plain functions `(ctx, arg_text) -> Result`, registered once with `@command`;
their docstring is their help. Plugins add to a registry through `Registry.add`.
"""

from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass, field
from typing import Callable

from core.errors import UserError

Completer = Callable[[object, str], list[str]]


@dataclass(frozen=True)
class Command:
    name: str                           # "/why"
    handler: Callable
    args: str = ""                      # argument spec shown in help, e.g. "FACT"
    aliases: tuple[str, ...] = ()
    completer: Completer | None = None
    group: str = "logic"

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.handler) or ""

    @property
    def summary(self) -> str:
        """The docstring's first paragraph, on one line."""
        return " ".join(self.doc.split("\n\n", 1)[0].split())

    @property
    def usage(self) -> str:
        return f"{self.name} {self.args}".rstrip()


_BUILTINS: list[Command] = []


def command(name: str, *, args: str = "", aliases: tuple[str, ...] = (), completer: Completer | None = None,
            group: str = "logic"):
    """Register a built-in command; the decorated function's docstring is its help."""
    def wrap(fn):
        _BUILTINS.append(Command(name, fn, args, aliases, completer, group))
        return fn
    return wrap


@dataclass
class Registry:
    commands: dict[str, Command] = field(default_factory=dict)
    _aliases: dict[str, str] = field(default_factory=dict)
    exporters: dict[str, Callable] = field(default_factory=dict)
    prompters: dict = field(default_factory=dict)     # name -> prompter pack (plugins/prompters.py)

    def add(self, cmd: Command) -> None:
        for name in (cmd.name, *cmd.aliases):
            if not name.startswith("/") or len(name) < 2:
                raise ValueError(f"command names start with '/': {name!r}")
            if name in self.commands or name in self._aliases:
                raise ValueError(f"command {name} is already registered")
        self.commands[cmd.name] = cmd
        for alias in cmd.aliases:
            self._aliases[alias] = cmd.name

    def command(self, name: str, **kwargs):
        """Decorator form of `add`, for plugins."""
        def wrap(fn):
            self.add(Command(name, fn, **kwargs))
            return fn
        return wrap

    def get(self, name: str) -> Command | None:
        return self.commands.get(self._aliases.get(name, name))

    def lookup(self, name: str) -> Command:
        cmd = self.get(name)
        if cmd is None:
            close = difflib.get_close_matches(name, self.names(), n=1)
            hint = f"did you mean {close[0]}?" if close else "/help lists commands"
            raise UserError(f"unknown command {name}", hint=hint)
        return cmd

    def names(self) -> list[str]:
        return sorted([*self.commands, *self._aliases])

    def complete(self, ctx, text: str) -> list[str]:
        """Completions for a partial input line: command names, then the command's own completer."""
        if " " not in text:
            return [n for n in self.names() if n.startswith(text)]
        name, _, rest = text.partition(" ")
        cmd = self.get(name)
        if cmd is None or cmd.completer is None:
            return []
        return cmd.completer(ctx, rest)


def builtin_registry() -> Registry:
    """A registry holding every built-in command (plugins are loaded separately)."""
    import repl.commands  # noqa: F401  (registers the built-ins)

    reg = Registry()
    for cmd in _BUILTINS:
        reg.add(cmd)
    return reg
