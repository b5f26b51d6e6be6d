"""What `sym mcp` offers to read besides its tools: the memory, the schema, the last proof and the
session log, each as the text the shell shows and the object `--json` prints; and the guard that
keeps a read-only server's memory as it is. Read on the shell's thread; nothing here changes memory.
"""

from __future__ import annotations

import json
from typing import Any

from sym.core.errors import UserError
from sym.repl.commands.memory import schema_table
from sym.repl.render import to_text
from sym.repl.results import Listing

RESOURCES = {
    "sym://memory": ("memory", "Every fact, rule and constraint in the working memory, with its id (as /listing)."),
    "sym://schema": ("schema", "The predicates (arity, uses, NL template) and objects of the memory (as /schema)."),
    "sym://program": ("program", "The last program /prove checked, and its verdicts with their models and "
                                 "counter-models."),
    "sym://session": ("session", "This server's session log: one JSON event a line (inputs, outputs, memory "
                                 "changes, model calls); `sym replay` re-runs it."),
}


def read(uri: str, shell: Any, last_proof: Any) -> tuple[str, dict[str, Any] | None]:
    """(text, JSON object or None) of the resource at `uri`."""
    if uri == "sym://memory":
        listing = Listing(list(shell.memory.items.values()))
        return to_text(listing), listing.to_dict()
    if uri == "sym://schema":
        table = schema_table(shell.memory)
        return to_text(table), table.to_dict()
    if uri == "sym://program":
        return _program(shell, last_proof)
    session = shell.ctx.session
    path = getattr(session, "path", None)
    if path is None:
        return "this server keeps no session log", None
    return path.read_text(encoding="utf-8", errors="replace"), None


def _program(shell: Any, last_proof: Any) -> tuple[str, dict[str, Any] | None]:
    last = shell.ctx.recall.program                # what commands remember between runs
    if last is None:
        return "no program yet: prove one first", {"program": None}
    program = last.program.model_dump(exclude_defaults=True)
    shown = program["smt2"] if set(program) == {"smt2"} else None
    if shown is None:
        shown = json.dumps(program, indent=2)
    text = f"% {last.source}\n{shown}"
    data: dict[str, Any] = {"source": last.source, "program": program}
    if last_proof is not None:
        text += "\n\n" + to_text(last_proof)
        data["report"] = last_proof.to_dict()
    return text, data


def refuse_changes(memory: Any) -> None:
    """A read-only server's memory: adding or removing an item is a user error (a model's soft
    rule in /ask included), so nothing a tool does changes what is stored."""
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise UserError("this server is read-only: memory stays as it is", hint="start sym mcp without --read-only")

    for name in ("add", "remove"):
        setattr(memory, name, refuse)
