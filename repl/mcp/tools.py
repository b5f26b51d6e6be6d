"""The tools `sym mcp` serves, and how a call becomes the one command line the shell runs.

Each tool is a registry command; its schema comes from the command's declarations (mcp.schema).
A call's arguments are checked against that schema, file arguments against the folders the
server may read, and the command line built from them is read back by the command's own parser:
an argument that would be read as an option, or text that would start a second input, is
refused, never run. Nothing here runs a command or imports the SDK.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sym.core.errors import UserError
from sym.core.memory.documents import document_paths
from sym.repl.arguments import Option
from sym.repl.mcp import names
from sym.repl.mcp.consult import TABLE, table_line
from sym.repl.mcp.schema import Slot, check, describe, input_schema, slots
from sym.repl.registry import Command, Registry


@dataclass(frozen=True)
class ToolSpec:
    name: str                         # the tool's name: "tell"
    command: str                      # the registry command it runs: "/tell"
    text: str | None = None           # the name of its free-text argument (default: from the usage)
    writes: bool = False              # it changes memory: not served with --read-only
    lines: bool = False               # its text may span lines (English, clauses); others are one line
    files: tuple[str, ...] = ()       # positional arguments naming files it reads (options say so themselves)
    optional: bool = False            # its text may be left out (an option stands for it)


TOOLS = (
    ToolSpec("tell", "/tell", writes=True, lines=True),
    ToolSpec("ask", "/ask"),
    ToolSpec("query", "/query"),
    ToolSpec("why", "/why"),
    ToolSpec("prove", "/prove"),
    ToolSpec("check", "/check"),
    ToolSpec("infer", "/infer", text="steps"),
    ToolSpec("math", "/math"),
    ToolSpec("search", "/search"),
    ToolSpec("listing", "/listing"),
    ToolSpec("extract", "/extract", writes=True, lines=True),
    ToolSpec("fact", "/fact", writes=True, lines=True),
    ToolSpec("rule", "/rule", text="rule", writes=True, lines=True),
    ToolSpec("forget", "/forget", text="items", writes=True, optional=True),
    ToolSpec("consult", "/consult", writes=True, files=("file",)),
    ToolSpec("load", "/load", text="path", writes=True, files=("path",)),
)

# /prove also takes the program itself (not on a read-only server); it is written to a file of the workspace
PROGRAM: dict[str, dict[str, Any]] = {
    "program": {"type": "string", "description": "a program to check instead of a file: the Proof-of-Thought "
                                                 "JSON, or an SMT-LIB 2 script"},
    "format": {"type": "string", "enum": ["json", "smt2"],
               "description": "the program's language (default: smt2 when it starts with ( or ;, else json)"},
}


class Allowed:
    """The folders file arguments may be read from (links resolved); anything else is refused."""

    def __init__(self, folders: list[Path]):
        self.folders = [Path(f).expanduser().resolve() for f in folders]

    def inside(self, path: Path) -> bool:
        resolved = path.resolve()
        return any(resolved == f or f in resolved.parents for f in self.folders)

    def check(self, name: str, *, document: bool = False, several: bool = False) -> None:
        """Refuse a file name outside the folders, however a command reads it (as typed, without
        the quotes around it, or its first shell word). With `document`, a name that is not on disk
        is a loaded document's (the command looks it up); with `several`, a folder or glob pattern is
        checked file by file."""
        for reading in _readings(name):
            self._check(reading, document, several)

    def _check(self, name: str, document: bool, several: bool) -> None:
        shown = name if len(name) <= 60 else name[:57] + "…"
        refused = UserError(f"{shown!r} is outside the folders this server may read",
                            hint="the host can start sym mcp with --allow DIR")
        try:
            path = Path(name).expanduser()
            path = path if path.is_absolute() else Path.cwd() / path
            if document and not os.path.lexists(path):
                return
            if several:
                found = document_paths(name)
                if found is not None:
                    if not all(self.inside(p) for p, _ in found):
                        raise refused
                    return
            if not self.inside(path):
                raise refused
        except (OSError, RuntimeError, ValueError):   # ~nosuchuser, a NUL, a loop of links
            raise refused from None


def _readings(name: str) -> list[str]:
    """The file names a command may take `name` for: as typed, unquoted (/load), or the first of
    its shell words (/extract --from)."""
    typed = name.strip()
    found = [typed]
    if len(typed) >= 2 and typed[0] == typed[-1] and typed[0] in "'\"":
        found.append(typed[1:-1].strip())
    try:
        found += shlex.split(typed)
    except ValueError:
        pass
    return [r for r in dict.fromkeys(found) if r]


@dataclass
class Tool:
    """A served tool: its spec, the command it runs and the schema generated from the command."""

    spec: ToolSpec
    command: Command
    slots: list[Slot] = field(default_factory=list)
    schema: dict[str, Any] = field(default_factory=dict)     # under the scheme's names (mcp.names)

    @classmethod
    def of(cls, spec: ToolSpec, registry: Registry, *, read_only: bool = False) -> Tool:
        cmd = registry.lookup(spec.command)
        found = slots(cmd, spec.text, spec.optional)
        extra = PROGRAM if spec.name == "prove" and not read_only else TABLE if spec.name == "consult" else None
        return cls(spec, cmd, found, names.public_schema(spec.name, input_schema(cmd, found, extra)))

    @property
    def description(self) -> str:
        return describe(self.command)

    def files(self) -> list[tuple[str, bool, bool]]:
        """(argument, may name a document, may be a folder or pattern) of each argument naming a file."""
        out = [(key, False, self.spec.name == "load") for key in self.spec.files]
        out += [(o.key, "DOC" in o.metavar, False) for o in self.command.options if o.values == "file"]
        return out

    def line(self, arguments: object, allowed: Allowed, programs: Programs | None = None,
             notes: list[str] | None = None) -> str:
        """The command line for a call (UserError for arguments it cannot take). `programs` is where
        /prove's program text is written, inside the workspace (None: nowhere); an old argument name
        is taken, with a note in `notes`."""
        arguments = names.current(self.spec.name, arguments, notes)
        if isinstance(arguments, dict) and self.spec.name == "prove" and "program" in arguments and \
                "program" not in self.schema["properties"]:
            raise _no_programs()                    # a read-only server's schema leaves program out
        args = names.own(self.spec.name, check(self.schema, arguments))
        for key, value in args.items():
            if isinstance(value, str) and ("\n" in value or "\r" in value) and key != "program" and not (
                    self.spec.lines and key == self.text_key):
                raise UserError(f"argument {names.shown(self.spec.name, key)!r} must be one line")
        if "program" in args or "format" in args:
            args = (programs or Programs(None)).file(args)
        else:
            for key, document, several in self.files():
                if key in args:
                    allowed.check(args[key], document=document, several=several)
        if self.spec.name == "consult":
            return self._table(args)
        return self._build(args)

    def _table(self, args: dict[str, Any]) -> str:
        """/consult's line: a table's relation and flags as typed arguments (mcp.consult), or a file."""
        from sym.repl.dispatcher import route

        line = table_line(args)
        if line is None:
            return self._build(args)
        name, arg = route(line)
        if name != self.command.name or not line.endswith(arg.strip()):
            raise UserError("the file name cannot be written on one command line", hint="rename the file")
        return line

    @property
    def text_key(self) -> str | None:
        return next((s.key for s in self.slots if not s.choices and not s.keyword), None)

    def _build(self, args: dict[str, Any]) -> str:
        cmd = self.command
        words = []
        for slot in self.slots:
            value = args.get(slot.key)
            if value is None or value == "":
                continue
            words.append(f"{slot.keyword} {value}" if slot.keyword else str(value))
        text = " ".join(words)
        options = [(o, args[o.key]) for o in cmd.options if args.get(o.key) not in (None, False)]
        for written in _spellings(options):
            parts = [*written, text] if cmd.leading else [text, *written]
            line = " ".join(p for p in [cmd.name, *parts] if p)
            if self._reads_back(line, text, options):
                return line
        raise UserError("an argument would be read as an option or cannot be written on one command line",
                        hint="leave out words starting with -- and mixed quotes")

    def _reads_back(self, line: str, text: str, options: list[tuple[Option, Any]]) -> bool:
        """Whether the command reads `line` as the text and options it was built from."""
        from sym.repl.dispatcher import route

        name, arg = route(line)
        if name != self.command.name:
            return False
        if not self.command.options:
            return arg == text.strip()
        try:
            parsed = self.command.parse(arg)
        except UserError:
            return False
        wanted = {o.key: (True if o.flag else o.type(value) if o.type in (int, float) else str(value).strip())
                  for o, value in options}
        return parsed.text == text.strip() and parsed.given == frozenset(wanted) and \
            all(parsed.values[k] == v for k, v in wanted.items())


def _spellings(options: list[tuple[Option, Any]]):
    """Ways to write the options: values bare, then a value with spaces quoted one way or the other."""
    for quote in ("", "'", '"'):
        written = []
        for opt, value in options:
            if opt.flag:
                written.append(opt.name)
            elif opt.words or not quote:
                written.append(f"{opt.name} {value}")
            else:
                written.append(f"{opt.name} {quote}{value}{quote}")
        yield written


def _no_programs() -> UserError:
    return UserError("this server is read-only: it writes no program, so it takes no program text",
                     hint="give file: a program inside the folders it may read")


@dataclass
class Programs:
    """Where /prove's program text goes for one call: a folder of the workspace, the text at most
    `max_mb` MB (checked before anything is written), named by its content so a trusted replay finds
    it again. A program whose proof failed is removed again if this call wrote it; `folder` None
    (a read-only server) writes nothing and refuses program text."""

    folder: Path | None
    max_mb: float = 64.0
    written: Path | None = None       # the file this call wrote

    def file(self, args: dict[str, Any]) -> dict[str, Any]:
        """The arguments with the program's text replaced by the file it was written to."""
        text = args.get("program")
        if not isinstance(text, str) or not text.strip():
            raise UserError("format goes with program: the program's text",
                            hint="program: \"(declare-const p Bool) …\"")
        if "question" in args or "file" in args:
            raise UserError("give one of question, file or program")
        if self.folder is None:
            raise _no_programs()
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.max_mb * 2**20:
            shown = f"{size / 2**20:,.1f}" if size >= 2**20 else f"{size / 2**20:.2f}"
            raise UserError(f"the program is {shown} MB; programs are taken up to {self.max_mb:g} MB",
                            hint="split it, or raise the max_file_mb setting")
        fmt = args.get("format") or ("smt2" if text.lstrip()[:1] in ("(", ";") else "json")
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        path = self.folder / f"program-{digest}.{fmt}"
        try:
            if not path.exists():
                self.folder.mkdir(parents=True, exist_ok=True)
                with tempfile.NamedTemporaryFile("w", encoding="utf-8", errors="surrogatepass", newline="",
                                                 dir=self.folder, suffix=".tmp", delete=False) as tmp:
                    tmp.write(text)
                try:
                    os.replace(tmp.name, path)
                except OSError:
                    os.unlink(tmp.name)
                    raise
                self.written = path
        except OSError as err:
            raise UserError(f"cannot write the program in {self.folder}: {err.strerror or err}") from None
        return {"file": str(path)}

    def settle(self, ok: bool) -> None:
        """After the call ran: a program this call wrote stays only if its proof ran."""
        if not ok and self.written is not None:
            self.written.unlink(missing_ok=True)
        self.written = None


def tools(registry: Registry, *, read_only: bool = False) -> dict[str, Tool]:
    """The tools served, by name (without those that change memory when `read_only`)."""
    return {spec.name: Tool.of(spec, registry, read_only=read_only) for spec in TOOLS
            if not (read_only and spec.writes)}
