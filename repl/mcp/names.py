"""One naming scheme for tool arguments, the same in every tool (and the agent's tool menu).

An argument is named for what it holds: `text` (English to read), `question` (English to answer),
`clauses` (Prolog facts and rules to store), `goal` (a Prolog goal to answer or explain), `items`
(what to forget), `file` (a file to read), `program` (a program's own text); options keep the
names the command line gives them. A command's own name for a part (`/load PATH`, `--from`) is
mapped here; the names tools took before are still taken, each with a one-line note saying what
to call it now. Nothing here runs a command or imports the SDK.
"""

from __future__ import annotations

from typing import Any

# tool -> {the argument's name: the command's own name for it}
RENAMED: dict[str, dict[str, str]] = {
    "fact": {"clauses": "fact"},
    "rule": {"clauses": "rule"},
    "why": {"goal": "fact"},
    "load": {"file": "path"},
    "tell": {"file": "from"},
    "extract": {"file": "from"},
}

# tool -> {a name it took before, or one a client is likely to send: the name now}
OLD: dict[str, dict[str, str]] = {
    "fact": {"fact": "clauses"},
    "rule": {"rule": "clauses"},
    "why": {"fact": "goal"},
    "query": {"query": "goal"},
    "load": {"path": "file"},
    "consult": {"path": "file"},
    "prove": {"path": "file"},
    "tell": {"from": "file"},
    "extract": {"from": "file"},
}


def public_schema(tool: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's input schema with the command's names for its parts replaced by the scheme's."""
    back = {own: name for name, own in RENAMED.get(tool, {}).items()}
    if not back:
        return schema
    out = dict(schema)
    out["properties"] = {back.get(k, k): v for k, v in schema["properties"].items()}
    if "required" in schema:
        out["required"] = [back.get(k, k) for k in schema["required"]]
    return out


def current(tool: str, arguments: object, notes: list[str] | None = None) -> object:
    """The arguments with old names replaced by the names now (a note for each in `notes`); a name
    given both ways is left for the schema check to refuse."""
    old = OLD.get(tool)
    if not old or not isinstance(arguments, dict):
        return arguments
    out: dict[str, Any] = {}
    for key, value in arguments.items():
        now = old.get(key)
        if now is None or now in arguments:
            out[key] = value
            continue
        out[now] = value
        if notes is not None:
            notes.append(f"argument {key!r} of {tool} is deprecated: call it {now!r}")
    return out


def own(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Checked arguments under the command's own names (what the command line is built from)."""
    renamed = RENAMED.get(tool, {})
    return {renamed.get(k, k): v for k, v in arguments.items()}


def shown(tool: str, key: str) -> str:
    """The scheme's name for the command's own name of a part (for messages)."""
    back = {own: name for name, own in RENAMED.get(tool, {}).items()}
    return back.get(key, key)


def taken(tool: str) -> dict[str, str]:
    """The old names a tool still takes, each with its name now."""
    return dict(OLD.get(tool, {}))
