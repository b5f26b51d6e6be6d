"""Tool input schemas from the command registry's declarations: the same source as /help.

A command declares its arguments once, as a usage (`args="FACT"`, `"simplify|factor|… EXPR [wrt
VAR]"`) and as `Option`s; this room reads both into a JSON schema, and checks a tool call's
arguments against that schema (one line naming the argument). It knows no MCP and runs nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sym.core.errors import UserError
from sym.repl.arguments import Option
from sym.repl.registry import Command

_CHOICES = re.compile(r"[a-z]+(\|[a-z]+)+")
_KEYWORD = re.compile(r"([a-z]+)\s+([A-Z][A-Z_]*)")
_NAME = re.compile(r"[A-Z][A-Z_]*")
_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string"}


@dataclass(frozen=True)
class Slot:
    """One positional part of a command's arguments, as a tool argument."""

    key: str                          # the argument's name: "fact", "expression", "wrt"
    spec: str                         # as the usage writes it: "FACT.", "EXPR", "wrt VAR"
    required: bool = True
    choices: tuple[str, ...] = ()     # a fixed word such as /math's operation
    keyword: str = ""                 # written before the value: `wrt x`
    number: bool = False              # a count (the usage says N)


def _groups(usage: str) -> list[tuple[str, bool]]:
    """The usage's words, a bracketed part (nesting allowed) as one optional group."""
    out: list[tuple[str, bool]] = []
    depth, start = 0, 0
    word: list[str] = []
    for i, ch in enumerate(usage + " "):
        if ch == "[":
            if depth == 0:
                if word:
                    out.append(("".join(word), False))
                    word = []
                start = i + 1
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
            if depth == 0:
                out.append((usage[start:i].strip(), True))
        elif depth:
            continue
        elif ch.isspace():
            if word:
                out.append(("".join(word), False))
                word = []
        else:
            word.append(ch)
    return out


def slots(cmd: Command, text_key: str | None = None, optional: bool = False) -> list[Slot]:
    """The positional parts of `cmd`'s usage: a fixed word (`a|b|c`), the free text (named by
    `text_key`, else by its first upper-case word), and `[keyword VALUE]` parts. The text is
    optional when bracketed, when an option names a file to read it from instead, or when the
    caller knows it is (`optional`: an option such as /forget --derived stands for it)."""
    alternative = optional or any(o.values == "file" for o in cmd.options)
    out: list[Slot] = []
    text: list[str] = []
    optional_text = False
    for group, optional in _groups(cmd.args):
        if not optional and _CHOICES.fullmatch(group):
            out.append(Slot("operation", group, choices=tuple(group.split("|"))))
            continue
        keyword = _KEYWORD.fullmatch(group) if optional else None
        if keyword:
            out.append(Slot(keyword.group(1), group, required=False, keyword=keyword.group(1)))
            continue
        text.append(group)
        optional_text = optional_text or optional
    if text:
        spec = " ".join(text)
        name = _NAME.search(spec)
        key = text_key or (name.group(0).lower() if name else "text")
        out.insert(len([s for s in out if s.choices]), Slot(key, spec, required=not (optional_text or alternative),
                                                            number=spec == "N"))
    keys = [s.key for s in out] + [o.key for o in cmd.options]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{cmd.name}: two arguments named alike in {keys}")
    return out


def _slot_schema(slot: Slot, usage: str) -> dict[str, Any]:
    where = f"{slot.spec} in the usage {usage}"
    if slot.choices:
        return {"type": "string", "enum": list(slot.choices), "description": where}
    if slot.number:
        return {"type": "integer", "minimum": 0, "description": where}
    return {"type": "string", "description": where}


def option_schema(opt: Option) -> dict[str, Any]:
    """One declared option as a JSON schema property."""
    prop: dict[str, Any] = {"type": _TYPES.get(opt.type, "string")}
    if opt.choices:
        prop["enum"] = list(opt.choices)
    if opt.low is not None:
        prop["minimum"] = opt.low
    if opt.high is not None:
        prop["maximum"] = opt.high
    if opt.default is not None and not opt.flag:
        prop["default"] = opt.default
    described = opt.help or opt.shown
    prop["description"] = f"{described} ({opt.shown})" if opt.help and not opt.flag else described
    return prop


def input_schema(cmd: Command, found: list[Slot], extra: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The JSON schema of a tool that runs `cmd`: its positional parts, then its options, then
    `extra` properties the tool adds itself (none of them required)."""
    props: dict[str, Any] = {s.key: _slot_schema(s, cmd.usage) for s in found}
    props.update({o.key: option_schema(o) for o in cmd.options})
    props.update(extra or {})
    required = [s.key for s in found if s.required] + [o.key for o in cmd.options if o.required]
    schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def describe(cmd: Command) -> str:
    """A tool's description: the command's help (its docstring) and usage, as /help CMD shows them."""
    options = cmd.options_help
    return f"{cmd.doc}\n\nAs a command: {cmd.usage}" + (f"\n{options}" if options else "")


def check(schema: dict[str, Any], arguments: object) -> dict[str, Any]:
    """The arguments of a call when they fit `schema` (a UserError naming the first that does not)."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise UserError("the arguments must be a JSON object")
    props: dict[str, Any] = schema.get("properties", {})
    for key in arguments:
        if key not in props:
            raise UserError(f"unknown argument {key!r}", hint="takes: " + (", ".join(props) or "no arguments"))
    for key in schema.get("required", []):
        if arguments.get(key) is None:
            raise UserError(f"argument {key!r} is needed", hint=props[key].get("description"))
    for key, value in arguments.items():
        if value is not None:
            _check_value(key, props[key], value)
    return {k: v for k, v in arguments.items() if v is not None}


def _check_value(key: str, prop: dict[str, Any], value: object) -> None:
    kind = prop.get("type", "string")
    fits = {"boolean": isinstance(value, bool),
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, (int, float)) and not isinstance(value, bool) and value == value,
            "string": isinstance(value, str)}[kind]
    if not fits:
        raise UserError(f"argument {key!r} must be a {kind}, not {type(value).__name__}")
    if "enum" in prop and value not in prop["enum"]:
        raise UserError(f"argument {key!r} must be one of {', '.join(prop['enum'])}, not {value!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        low, high = prop.get("minimum"), prop.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            within = f"from {low} to {high}" if low is not None and high is not None else \
                f"at least {low}" if low is not None else f"at most {high}"
            raise UserError(f"argument {key!r} must be {within}, not {value}")
