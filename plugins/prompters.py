"""Prompter packs: TOML files of prompt templates for /explore, and where each one came from.

Built-in packs live beside this module in `prompters/`; a workspace adds or overrides packs
in `<workspace dir>/prompters/*.toml`; a plugin adds them with `add_pack(registry, …)`.
Templates are `string.Template` text ($g, $context, $topic, $n, $items) — filled with
`safe_substitute`, never evaluated. A malformed pack is one warning line naming the file
and the field, and is skipped.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from string import Template

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from sym.core.errors import UserError
from sym.core.memory.workspace import workspace_dir
from sym.core.reason.explore.recursor import Prompter

BUILTIN_DIR = Path(__file__).resolve().parent / "prompters"
VARIABLES = frozenset({"g", "context", "topic", "n", "items"})


class PackError(UserError):
    """A prompter pack that cannot be used; the message names the file and the field."""


def _check_template(value: str | None, info) -> str | None:
    if value is None:
        return None
    if not value.strip():
        raise ValueError("is empty")
    t = Template(value)
    if not t.is_valid():
        raise ValueError("has a '$' that is not a variable (write $$ for a dollar sign)")
    unknown = sorted(set(t.get_identifiers()) - VARIABLES)
    if unknown:
        raise ValueError(f"uses unknown variable ${unknown[0]} (known: $g, $context, $topic, $n, $items)")
    return value


class Prompts(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    or_: str = Field(alias="or")
    and_: str = Field(alias="and")
    oracle: str | None = None
    rater: str | None = None
    constraint: str | None = None
    system: str | None = None

    _templates = field_validator("or_", "and_", "oracle", "rater", "constraint", "system")(_check_template)

    @model_validator(mode="after")
    def _goal_used(self):
        for name, value in (("or", self.or_), ("and", self.and_), ("oracle", self.oracle), ("rater", self.rater)):
            if value is not None and "g" not in Template(value).get_identifiers():
                raise ValueError(f"prompts.{name} never mentions the goal $g")
        if self.constraint is not None and "items" not in Template(self.constraint).get_identifiers():
            raise ValueError("prompts.constraint never mentions the $items to judge")
        return self


class Pack(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")
    description: str = ""
    or_items: int = Field(3, ge=1, le=10)
    and_items: int = Field(4, ge=1, le=10)
    prompts: Prompts

    def prompter(self) -> Prompter:
        p = self.prompts
        return Prompter(self.name, p.or_, p.and_, p.oracle, p.rater, p.constraint, p.system,
                        self.or_items, self.and_items)


@dataclass(frozen=True)
class PackEntry:
    pack: Pack
    origin: str                 # built-in | workspace NAME | plugin NAME
    path: str = ""              # the file it was read from, if any
    overrides: str = ""         # the origin of the pack of the same name it replaced


def _field(loc: tuple) -> str:
    return ".".join("or" if p == "or_" else "and" if p == "and_" else str(p) for p in loc) or "pack"


def parse_pack(data: dict, *, where: str, default_name: str | None = None) -> Pack:
    """A validated pack from TOML data; raises PackError naming `where` and the field."""
    if default_name and "name" not in data:
        data = {**data, "name": default_name}
    try:
        return Pack.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        msg = first["msg"].removeprefix("Value error, ")
        loc = _field(first["loc"])
        if msg.startswith("prompts."):   # a whole-section check names its own field
            loc, msg = msg.split(" ", 1)
        raise PackError(f"prompter pack {where}: {loc}: {msg}") from None


def load_pack(path: Path) -> Pack:
    """Read one `.toml` pack; its name defaults to the file name."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise PackError(f"prompter pack {path}: not valid TOML: {err}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise PackError(f"prompter pack {path}: cannot read it: {err}") from None
    stem = path.stem.lower().replace(" ", "-")
    return parse_pack(data, where=str(path), default_name=stem)


def _dir_packs(directory: Path, origin: str, found: dict[str, PackEntry], problems: list[str]) -> None:
    if not directory.is_dir():
        return
    for path in sorted(directory.glob("*.toml")):
        try:
            pack = load_pack(path)
        except PackError as err:
            problems.append(err.message)
            continue
        _put(found, PackEntry(pack, origin, str(path)))


def _put(found: dict[str, PackEntry], entry: PackEntry) -> None:
    old = found.get(entry.pack.name)
    if old is not None:
        entry = PackEntry(entry.pack, entry.origin, entry.path, old.origin)
    found[entry.pack.name] = entry


def workspace_packs_dir(ctx) -> Path | None:
    """`<workspace dir>/prompters`, or None when memory lives in the process only."""
    if getattr(ctx, "workspaces", None) is None:
        return None

    return workspace_dir(ctx.memory.workspace) / "prompters"


def available(ctx) -> tuple[dict[str, PackEntry], list[str]]:
    """Every usable pack by name (built-in, then plugins, then the workspace: later ones
    override), and one line per pack that could not be used."""
    found: dict[str, PackEntry] = {}
    problems: list[str] = []
    _dir_packs(BUILTIN_DIR, "built-in", found, problems)
    for entry in getattr(ctx.registry, "prompters", {}).values():
        _put(found, entry)
    ws = workspace_packs_dir(ctx)
    if ws is not None:
        _dir_packs(ws, f"workspace {ctx.memory.workspace}", found, problems)
    return found, problems


def add_pack(registry, source: Path | dict, *, origin: str = "plugin") -> Pack:
    """For plugins: make a pack (a `.toml` path or its data as a dict) available to /explore.
    Raises PackError for a malformed pack (the plugin loader then reports and skips it)."""
    if isinstance(source, Path):
        pack, path = load_pack(source), str(source)
    else:
        pack, path = parse_pack(dict(source), where=f"from {origin}"), ""
    packs = getattr(registry, "prompters", None)
    if packs is None:
        packs = {}
        registry.prompters = packs   # until Registry has a field of its own
    packs[pack.name] = PackEntry(pack, origin, path)
    return pack
