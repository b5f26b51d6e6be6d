"""The one command registry every front-end reads: names, aliases, arguments, help, completers.

Commands are plain functions `(ctx, arg_text, run) -> Result`, registered once with `@command`;
their docstring is their help. `ctx` is the shell (what lives as long as it does: memory,
settings, session), `run` the command's own run (core/run.py: its settings, events, Stop, model
client), where it starts and the one value that can stop it. A command that declares options
(repl.arguments.Option) is given a parsed `Args` instead of the text. Plugins add to a registry
through `Registry.add`; a handler of another shape is refused there, naming the one it needs.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.repl.arguments import Args, Option, describe, parse
from sym.repl.arguments import complete as complete_option

if TYPE_CHECKING:
    from sym.core.run import Run

Completer = Callable[[object, str], list[str]]


def _takes_three(fn: Callable) -> bool:
    """Whether `fn` can be called as fn(ctx, args, run) (a callable with no signature is trusted)."""
    try:
        inspect.signature(fn).bind(None, None, None)
    except TypeError:
        return False
    except ValueError:   # a builtin or a callable object without a signature
        return True
    return True


@dataclass(frozen=True)
class Command:
    name: str                           # "/why"
    handler: Callable
    args: str = ""                      # argument spec shown in help, e.g. "FACT"
    aliases: tuple[str, ...] = ()
    completer: Completer | None = None
    group: str = "logic"
    options: tuple[Option, ...] = ()    # declared once: parsing, usage, /help and completion read them
    leading: bool = False               # options only before the text (free text after them is the user's)
    steerable: bool = True              # policies apply to it and it counts as a run (not for managing the shell)
    function: Callable = field(default=None, init=False, repr=False, compare=False)   # the handler as written

    def __post_init__(self):
        if not _takes_three(getattr(self.handler, "__wrapped__", self.handler)):
            raise ValueError(f"the handler of {self.name} must take (ctx, args, run)")
        object.__setattr__(self, "function", getattr(self.handler, "__wrapped__", self.handler)
                           if getattr(self.handler, "parses_arguments", False) else self.handler)
        if self.options and not getattr(self.handler, "parses_arguments", False):
            fn = self.handler

            @functools.wraps(fn)
            def parsing(ctx, arg: str, run):
                return fn(ctx, self.parse(arg), run)

            parsing.parses_arguments = True
            object.__setattr__(self, "handler", parsing)    # callers keep calling handler(ctx, text, run)

    def call(self, ctx, arg: str, run: Run):
        """Run the command on the argument text (read against its options when it declares them)
        as `run`."""
        given = self.parse(arg) if self.options else arg
        return self.function(ctx, given, run)

    def parse(self, arg: str) -> Args:
        """The argument text read against the declared options (UserError naming a bad one)."""
        return parse(self.options, arg, leading=self.leading, usage=self.usage)

    def complete(self, ctx, arg_text: str) -> list[str]:
        """Completions of the last word of `arg_text`: option names, an option's values, or
        what the command's own completer offers."""
        found = complete_option(self.options, ctx, arg_text)
        if found is not None:
            return found
        return self.completer(ctx, arg_text) if self.completer is not None else []

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.handler) or ""

    @property
    def summary(self) -> str:
        """The docstring's first paragraph, on one line."""
        return " ".join(self.doc.split("\n\n", 1)[0].split())

    @property
    def usage(self) -> str:
        options = [o.usage for o in self.options]
        parts = [self.name, *options, self.args] if self.leading else [self.name, self.args, *options]
        return " ".join(p for p in parts if p)

    @property
    def options_help(self) -> str:
        """The declared options, one a line, for /help CMD."""
        return describe(self.options)


_BUILTINS: list[Command] = []
_EXPORTERS: dict[str, Callable] = {}


def command(name: str, *, args: str = "", aliases: tuple[str, ...] = (), completer: Completer | None = None,
            group: str = "logic", options: tuple[Option, ...] = (), leading: bool = False, steerable: bool = True):
    """Register a built-in command; the decorated function's docstring is its help. With
    `options`, the function is given an `Args` (repl.arguments) instead of the argument text;
    `steerable=False` keeps the workspace's policies off it (commands that manage the shell)."""
    def wrap(fn):
        _BUILTINS.append(Command(name, fn, args, aliases, completer, group, tuple(options), leading, steerable))
        return fn
    return wrap


def exporter(name: str):
    """Register a built-in `/export NAME` format: the decorated function is given the shell's
    context and returns the text."""
    def wrap(fn):
        _EXPORTERS[name] = fn
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
            close = suggestions(name, self.names())
            hint = f"did you mean {' or '.join(close)}?" if close else "/help lists commands"
            raise UserError(f"unknown command {name}", hint=hint)
        return cmd

    def names(self) -> list[str]:
        return sorted([*self.commands, *self._aliases])

    def complete(self, ctx, text: str) -> list[str]:
        """Completions for a partial input line: command names, then the last word of the
        command's arguments (Command.complete)."""
        if " " not in text:
            return [n for n in self.names() if n.startswith(text)]
        name, _, rest = text.partition(" ")
        cmd = self.get(name)
        return [] if cmd is None else cmd.complete(ctx, rest)


def registry_of_builtins() -> Registry:
    """A registry holding every command and exporter registered with `@command` / `@exporter` so
    far (sym.repl.commands.builtin_registry imports them all first)."""
    reg = Registry()
    for cmd in _BUILTINS:
        reg.add(cmd)
    reg.exporters.update(_EXPORTERS)
    return reg


def suggestions(typed: str, names: list[str], most: int = 3) -> list[str]:
    """Commands the user may have meant: those `typed` begins (shortest first), else those
    within a few edits of it (about one per three letters), nearest first."""
    if len(typed) > 2:
        begun = sorted((n for n in names if n.startswith(typed)), key=len)
        if begun:
            return begun[:most]
    limit = max(1, (len(typed) - 1) // 3)
    near = sorted((d, n) for n in names if (d := edits(typed, n)) <= limit)
    return [n for _, n in near[:most]]


def edits(a: str, b: str) -> int:
    """Edit distance: insertions, deletions, substitutions and swaps of two neighbours."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]
