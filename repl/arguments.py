"""A command's declared options: one spec feeds parsing, usage, /help and argument completion.

A command declares its `Option`s once, in `@command(..., options=(...))`; the registry parses the
argument text before the handler runs and hands it an `Args`. Click's parser reads the option
words (`--opt value` and `--opt=value` alike); this room only finds them in free text and words
click's errors as one line. It knows nothing of what any option means, and imports click late.
"""

from __future__ import annotations

import difflib
import os
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import click

from sym.core.errors import UserError
from sym.sessions.log import sessions_dir

# what an option's values are, for completion: a kind named here, or a function (ctx, prefix) -> values
ValueKind = str | Callable[[object, str], list[str]]
_OPTION_WORD = re.compile(r"--[A-Za-z][\w-]*(=|\Z)")


@dataclass(frozen=True)
class Option:
    name: str                               # "--depth"
    type: type = str                        # str, int, float, or bool (a flag: takes no value)
    help: str = ""
    metavar: str = ""                       # shown in usage: "N" (choices show themselves)
    choices: tuple[str, ...] = ()
    low: float | None = None                # numbers: the allowed range, both ends included
    high: float | None = None
    default: object = None
    aliases: tuple[str, ...] = ()           # other spellings: "-k"
    values: ValueKind | None = None         # completion: "file", "workspace", "session", "setting" or a function
    words: bool = False                     # the value runs to the next option, several words long
    noun: str = ""                          # what a value is, for errors: unknown refiner 'x'
    required: bool = False

    @property
    def key(self) -> str:
        """The name in `Args`: --max-steps → max_steps."""
        return self.name.lstrip("-").replace("-", "_")

    @property
    def flag(self) -> bool:
        return self.type is bool

    @property
    def shown(self) -> str:
        """`--depth N`, `--refine truth|oracle|rater`, `--add`."""
        if self.flag:
            return self.name
        return f"{self.name} {self.metavar or '|'.join(self.choices) or self.key.upper()}"

    @property
    def usage(self) -> str:
        return self.shown if self.required else f"[{self.shown}]"


@dataclass(frozen=True)
class Args:
    """What a command was given: its text without the options, and each option's value
    (its default when not given). Options read as attributes or items: args.depth, args["from"]."""

    text: str = ""                          # as typed (quotes, newlines kept), options cut out
    words: tuple[str, ...] = ()             # that text as words; a quoted phrase is one word
    values: dict = field(default_factory=dict)
    given: frozenset[str] = frozenset()     # keys of the options the user gave

    def __getitem__(self, key: str):
        return self.values[key]

    def __getattr__(self, key: str):
        try:
            return self.__dict__["values"][key]
        except KeyError:
            raise AttributeError(key) from None


# -- reading ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Token:
    value: str      # quotes of a quoted word removed
    start: int
    end: int
    quoted: bool = False    # "--depth" in quotes is a word, not an option


def tokens(text: str) -> list[_Token]:
    """Whitespace-separated words with their places. A word that starts with a quote (or
    `--opt=` and a quote) and whose quote closes before a space is one word without the quotes;
    any other quote is literal, so English ("Bob's dog") reads as it is written."""
    out: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start = i
        prefix = re.match(r"--[\w-]+=", text[i:])
        q = i + (prefix.end() if prefix else 0)
        if q < n and text[q] in "\"'":
            close = text.find(text[q], q + 1)
            if close != -1 and (close + 1 == n or text[close + 1].isspace()):
                out.append(_Token(text[i:q] + text[q + 1:close], start, close + 1, quoted=not prefix))
                i = close + 1
                continue
        while i < n and not text[i].isspace():
            i += 1
        out.append(_Token(text[start:i], start, i))
    return out


def _is_option(tok: _Token, names: dict) -> bool:
    return not tok.quoted and (bool(_OPTION_WORD.match(tok.value)) or tok.value.partition("=")[0] in names)


def parse(options: tuple[Option, ...], text: str, *, leading: bool = False, usage: str = "") -> Args:
    """Read `text` against `options` (raises UserError naming the option). With `leading`, options
    come only before the text, which starts at the first word that is not one of them."""
    names = {n: opt for opt in options for n in (opt.name, *opt.aliases)}
    toks = tokens(text)
    argv: list[str] = []                    # the option words, for click
    raw: dict[str, str] = {}                # option key -> the value as typed
    cuts: list[tuple[int, int]] = []
    positional: list[_Token] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if not _is_option(tok, names):
            if leading:
                positional = toks[i:]
                break
            positional.append(tok)
            i += 1
            continue
        name, eq, inline = tok.value.partition("=")
        opt = names.get(name)
        if opt is None and leading:         # free text may start with a word such as --fromage
            positional = toks[i:]
            break
        if opt is None:
            close = difflib.get_close_matches(name, list(names), n=1)
            hint = f"did you mean {close[0]}?" if close else usage
            raise UserError(f"unknown option {name}", hint=hint or None)
        if opt.key in raw:
            raise UserError(f"{opt.name} is given twice", hint=usage or None)
        end = tok.end
        if opt.flag:
            if eq:
                raise UserError(f"{opt.name} takes no value", hint=usage or None)
            argv.append(opt.name)
            raw[opt.key] = ""
            i += 1
        elif eq:
            argv.append(f"{opt.name}={inline}")
            raw[opt.key] = inline
            i += 1
        elif opt.words:
            j = i + 1
            while j < len(toks) and not _is_option(toks[j], names):
                j += 1
            if j == i + 1:
                raise UserError(f"{opt.name} needs a value", hint=usage or None)
            value = text[toks[i + 1].start:toks[j - 1].end].strip()
            argv.append(f"{opt.name}={value}")
            raw[opt.key], end, i = value, toks[j - 1].end, j
        else:
            if i + 1 >= len(toks):
                raise UserError(f"{opt.name} needs a value", hint=usage or None)
            value = toks[i + 1].value
            argv.append(f"{opt.name}={value}")
            raw[opt.key], end, i = value, toks[i + 1].end, i + 2
        cuts.append((tok.start, end))
    values = _convert(options, tuple(argv), raw, usage)
    for opt in options:
        if opt.required and opt.key not in raw:
            raise UserError(f"{opt.shown} is needed", hint=usage or None)
    return Args(_uncut(text, cuts, positional, leading), tuple(t.value for t in positional), values,
                frozenset(raw))


def _uncut(text: str, cuts: list[tuple[int, int]], positional: list[_Token], leading: bool) -> str:
    if leading or not cuts:
        return text[positional[0].start:].strip() if positional else ""
    pieces, at = [], 0
    for start, end in cuts:
        pieces.append(text[at:start])
        at = end
    pieces.append(text[at:])
    return " ".join(p.strip() for p in pieces if p.strip())


def _convert(options: tuple[Option, ...], argv: tuple[str, ...], raw: dict[str, str], usage: str) -> dict:
    """Click reads the option words; its errors become one line naming the option."""
    try:
        params = _click_command(options).make_context("sym", list(argv)).params
    except click.BadParameter as err:
        opt = next((o for o in options if err.param is not None and o.key == err.param.name), None)
        if opt is None:
            raise UserError(err.format_message(), hint=usage or None) from None
        raise _bad_value(opt, raw.get(opt.key, ""), usage) from None
    except click.ClickException as err:     # no other is expected: the words were checked above
        raise UserError(err.format_message(), hint=usage or None) from None
    for opt in options:
        value = params.get(opt.key)
        if opt.type is float and value is not None and value != value and (opt.low, opt.high) != (None, None):
            raise _bad_value(opt, raw[opt.key], usage)     # NaN passes click's range check
    return {opt.key: params.get(opt.key) if opt.key in raw else (bool(opt.default) if opt.flag else opt.default)
            for opt in options}


def _bad_value(opt: Option, value: str, usage: str) -> UserError:
    if opt.choices:
        noun = opt.noun or opt.key.replace("_", " ")
        return UserError(f"unknown {noun} {value!r}", hint=f"{opt.name} {'|'.join(opt.choices)}")
    try:
        opt.type(value)
    except ValueError:
        return UserError(f"{opt.name} wants a number, not {value!r}", hint=usage or None)
    if opt.low is not None and opt.high is not None:
        within = f"from {opt.low} to {opt.high}"
    else:
        within = f"at least {opt.low}" if opt.low is not None else f"at most {opt.high}"
    return UserError(f"{opt.name} must be {within}, not {value}", hint=usage or None)


@cache
def _click_command(options: tuple[Option, ...]):
    def kind(opt: Option):
        if opt.choices:
            return click.Choice(opt.choices)
        if opt.type is int:
            return click.IntRange(opt.low, opt.high) if (opt.low, opt.high) != (None, None) else click.INT
        if opt.type is float:
            return click.FloatRange(opt.low, opt.high) if (opt.low, opt.high) != (None, None) else click.FLOAT
        return click.STRING

    params = [click.Option([opt.name, *opt.aliases], is_flag=True, default=False) if opt.flag else
              click.Option([opt.name, *opt.aliases], type=kind(opt), default=None) for opt in options]
    for param, opt in zip(params, options):
        param.name = opt.key        # click would name `--no-fallback` no_fallback too; be sure
    return click.Command("sym", params=params, add_help_option=False)


# -- help and completion ----------------------------------------------------------------------

def describe(options: tuple[Option, ...]) -> str:
    """The options as /help lists them, one a line."""
    if not options:
        return ""
    rows = [(", ".join([o.shown, *o.aliases]), o.help) for o in options]
    width = min(max(len(r[0]) for r in rows), 28)
    return "\n".join(f"    {a.ljust(width)}  {h}".rstrip() for a, h in rows)


def complete(options: tuple[Option, ...], ctx, text: str) -> list[str] | None:
    """Completions of the last word of `text` when it is an option or an option's value;
    None when it is neither (the command's own completer decides)."""
    names = {n: opt for opt in options for n in (opt.name, *opt.aliases)}
    words = text.split()
    last = last_word(text)
    before = words[-1] if last == "" and words else (words[-2] if len(words) > 1 else "")
    if last.startswith("--") and "=" in last:
        name, _, prefix = last.partition("=")
        opt = names.get(name)
        return [f"{name}={v}" for v in option_values(opt, ctx, prefix)] if opt and not opt.flag else []
    opt = names.get(before)
    if opt is not None and not opt.flag:
        return option_values(opt, ctx, last)
    if last.startswith("-"):
        given = {w.partition("=")[0] for w in words[:-1]}
        return [o.name for o in options if o.name.startswith(last) and o.name not in given]
    return None


def option_values(opt: Option, ctx, prefix: str) -> list[str]:
    """The values an option can take that start with `prefix`."""
    if opt.choices:
        return [c for c in opt.choices if c.startswith(prefix)]
    return values(opt.values, ctx, prefix)


def last_word(text: str) -> str:
    """The word being typed at the end of `text` ("" after a space)."""
    return "" if not text or text[-1].isspace() else text.split()[-1]


def completer(kind: ValueKind):
    """A command completer offering values of one kind for the word being typed: a positional
    FILE, workspace NAME or session NAME completes like an option's value."""
    return lambda ctx, text: values(kind, ctx, last_word(text))


def positional(*kinds: ValueKind | tuple[str, ...]):
    """A command completer for its words in order: the first word offers values of the first kind
    (a kind, or a tuple of fixed words), the second of the second…; nothing past the last. A word
    once typed (a space after it) is never offered again. Option words (--x) are not counted."""
    def complete(ctx, text: str) -> list[str]:
        last = last_word(text)
        done = [w for w in text.split() if not w.startswith("--")]
        at = len(done) - (1 if last and not last.startswith("--") else 0)
        if at >= len(kinds):
            return []
        kind = kinds[at]
        if isinstance(kind, tuple):
            return [w for w in kind if w.startswith(last)]
        return values(kind, ctx, last)
    return complete


def setting_values(ctx, key: str, prefix: str) -> list[str]:
    """The values a setting can be given that its type names (choices, true/false, none)."""
    key = key.replace("-", "_")
    hints = typing.get_type_hints(type(ctx.settings)) if key in type(ctx.settings).model_fields else {}

    def named(kind) -> list[str]:
        origin = typing.get_origin(kind)
        if origin is typing.Literal:
            return [str(v) for v in typing.get_args(kind)]
        if origin in (typing.Union, types.UnionType):
            return [v for k in typing.get_args(kind) for v in named(k)]
        return ["true", "false"] if kind is bool else ["none"] if kind is type(None) else []

    return [v for v in (named(hints[key]) if key in hints else []) if v.startswith(prefix)]


def values(kind: ValueKind | None, ctx, prefix: str) -> list[str]:
    """Values of `kind` that start with `prefix` (nothing for a kind this room does not know)."""
    if callable(kind):
        return [v for v in kind(ctx, prefix) if v.startswith(prefix)]
    if kind == "file":
        return file_names(prefix)
    if kind == "workspace":
        ws = getattr(ctx, "workspaces", None)
        return [n for n in (ws.names() if ws is not None else []) if n.startswith(prefix)]
    if kind == "session":
        folder = sessions_dir()
        return sorted(p.stem for p in folder.glob("*.jsonl") if p.stem.startswith(prefix)) if folder.is_dir() else []
    if kind == "setting":
        return [k for k in type(ctx.settings).model_fields if k.startswith(prefix)]
    return []


def file_names(prefix: str, limit: int = 200) -> list[str]:
    """Paths that start with `prefix` (folders end in /); hidden ones only when asked for."""
    head, tail = os.path.split(prefix)
    folder = os.path.expanduser(head) if head else "."
    try:
        with os.scandir(folder) as found:
            entries = sorted((e.name, e.is_dir()) for e in found
                             if e.name.startswith(tail) and (tail.startswith(".") or not e.name.startswith(".")))
    except OSError:
        return []
    return [os.path.join(head, name) + ("/" if is_dir else "") for name, is_dir in entries[:limit]]
