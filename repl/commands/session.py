"""Session commands: name the session, list sessions, resume one, write a script of it."""

from __future__ import annotations

import shlex
import time
from pathlib import Path

from core.errors import UserError
from core.memory.store import check_workspace_name
from repl.context import Context
from repl.registry import command
from repl.results import Message, Table


def _session(ctx: Context):
    if ctx.session is None:
        raise UserError("this shell is not recording a session")
    return ctx.session


@command("/save", args="NAME | --script FILE", group="session")
def save(ctx: Context, arg: str) -> Message:
    """Name the current session (it is always being recorded), or write its inputs as a .sym script."""
    from sessions.log import read_session

    try:
        words = shlex.split(arg) if arg.strip() else []
    except ValueError as err:  # an unclosed quote, a trailing backslash
        raise UserError(f"cannot read the arguments: {err}", hint="/save NAME  or  /save --script FILE") from None
    session = _session(ctx)
    if words[:1] == ["--script"]:
        if len(words) != 2:
            raise UserError("give one file", hint="/save --script replay.sym")
        lines = []
        for event in read_session(session.path).inputs():
            text = event["text"]
            if text.startswith("/save"):
                continue  # saving is not part of what the script does
            lines.append(f'"""\n{text}\n"""' if "\n" in text and text.startswith("/") else text)
        try:
            path = Path(words[1]).expanduser()
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        except (OSError, ValueError, RuntimeError) as err:  # ValueError: a NUL; RuntimeError: ~nosuchuser
            raise UserError(f"cannot write {words[1]}: {getattr(err, 'strerror', None) or err}") from None
        return Message(f"wrote {len(lines)} inputs to {path}", {"path": str(path), "inputs": len(lines)})
    if len(words) != 1:
        raise UserError("give the session a name", hint="/save kinship-study")
    name = check_workspace_name(words[0])
    path = session.rename(name)
    return Message(f"session saved as {name}", {"name": name, "path": str(path)})


@command("/sessions", group="session")
def sessions(ctx: Context, arg: str) -> Table:
    """List recorded sessions: name, date, commands, workspace."""
    from sessions.log import read_session, sessions_dir

    rows = []
    folder = sessions_dir()
    for path in sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []:
        try:
            rec = read_session(path)
        except UserError:
            rows.append((path.stem, "unreadable", ""))
            continue
        when = _when(rec.header.get("started"))
        current = " (this one)" if ctx.session is not None and ctx.session.path == path else ""
        rows.append((path.stem, when, f"{len(rec.inputs())} commands, workspace {rec.header.get('workspace')}{current}"))
    return Table("sessions" if rows else "no sessions recorded yet", rows)


@command("/resume", args="NAME [--fresh]", group="session")
def resume(ctx: Context, arg: str) -> Message:
    """Rebuild the memory a session ended with: in its workspace, or with --fresh in a new one named after it."""
    from core.logic.parser import parse_program
    from sessions.log import final_state, find_session, read_session

    words = arg.split()
    fresh = "--fresh" in words
    words = [w for w in words if w != "--fresh"]
    if len(words) != 1:
        raise UserError("name one session", hint="/resume kinship-study  (/sessions lists them)")
    rec = read_session(find_session(words[0]))
    workspace, items = final_state(rec)
    if ctx.workspaces is None:
        raise UserError("this shell keeps memory in the process only; resume needs workspaces")
    target = check_workspace_name(rec.path.stem if fresh else workspace)
    if fresh and target in ctx.workspaces.names():
        raise UserError(f"workspace {target!r} exists already", hint=f"/workspace {target}, or /resume without --fresh")
    clauses = parse_program("\n".join(e["text"] for e in items.values()), source=rec.path.name) if items else []
    if target != ctx.memory.workspace:
        ctx.memory = ctx.workspaces.open(target)
    memory = ctx.memory
    wanted = [(loc.clause, e.get("source", "resumed")) for loc, e in zip(clauses, items.values())]
    from core.logic.strata import stratify
    from core.logic.terms import Rule
    from core.memory.working import SOFT

    stratify([c for c, src in wanted if isinstance(c, Rule) and c.head is not None
              and not str(src).startswith(SOFT)])          # refuse before anything changes
    extra = [i for i in memory.items if i not in items]
    removed = memory.remove(extra)
    try:
        outcome = memory.add(wanted, merge="off")
    except BaseException:   # put back what was removed: a failed resume changes nothing
        for it in removed:
            memory.add([(it.clause, it.source)], nl=it.nl, merge="off")
        raise
    return Message(f"resumed {rec.path.stem} in workspace {target}: {len(outcome.items)} items added, "
                   f"{len(extra)} removed, {len(memory.items)} in all",
                   {"workspace": target, "added": len(outcome.items), "removed": len(extra)})


def _when(started: object) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(float(started)))
    except (TypeError, ValueError, OverflowError, OSError):
        return "unknown date"
