"""Session commands: name the session, list sessions, resume one, write a script of it."""

from __future__ import annotations

import shlex
import time
from pathlib import Path

from sym.core.errors import UserError
from sym.core.files import write_text_atomic
from sym.core.memory.ops import restore, resumable
from sym.core.memory.store import check_workspace_name
from sym.core.run import Run
from sym.core.words import count
from sym.repl.arguments import Args, Option, completer
from sym.repl.context import Context
from sym.repl.registry import command
from sym.repl.results import Message, Table
from sym.sessions.log import find_session, list_sessions, read_session, sessions_dir
from sym.sessions.resume import ended_with, workspaces_used


def _session(ctx: Context):
    if ctx.session is None:
        raise UserError("this shell is not recording a session")
    return ctx.session


@command("/save", args="NAME", group="session",
         options=(Option("--script", metavar="FILE", values="file", help="write the session's inputs as a .sym script"),))
def save(ctx: Context, args: Args, run: Run) -> Message:
    """Name the current session (it is always being recorded), or write its inputs as a .sym script."""
    try:
        words = shlex.split(args.text) if args.text else []
    except ValueError as err:  # an unclosed quote, a trailing backslash
        raise UserError(f"cannot read the arguments: {err}", hint="/save NAME  or  /save --script FILE") from None
    session = _session(ctx)
    if args.script is not None:
        if words:
            raise UserError("give one file", hint="/save --script replay.sym")
        lines = []
        for event in read_session(session.path).inputs():
            text = event["text"]
            if text.startswith("/save"):
                continue  # saving is not part of what the script does
            lines.append(f'"""\n{text}\n"""' if "\n" in text and text.startswith("/") else text)
        try:
            path = Path(args.script).expanduser()
            write_text_atomic(path, "\n".join(lines) + "\n")   # whole or not at all, even under kill -9
        except (OSError, ValueError, RuntimeError) as err:  # ValueError: a NUL; RuntimeError: ~nosuchuser
            raise UserError(f"cannot write {args.script}: {getattr(err, 'strerror', None) or err}") from None
        return Message(f"wrote {len(lines)} inputs to {path}", {"path": str(path), "inputs": len(lines)})
    if len(words) != 1:
        raise UserError("give the session a name", hint="/save kinship-study")
    name = check_workspace_name(words[0])
    path = session.rename(name)
    return Message(f"session saved as {name}", {"name": name, "path": str(path)})


@command("/sessions", args="[rm NAME]", group="session", completer=completer("session"),
         options=(Option("--yes", bool, help="with rm: delete without asking"),))
def sessions(ctx: Context, args: Args, run: Run) -> Table | Message:
    """List recorded sessions, newest first (date, commands, size, the workspaces each used), or delete one with rm.

    Sessions nobody named are rotated: the oldest go once there are more than 200 of them or
    more than 100 MB together. A name given with /save keeps a session for good."""
    words = args.words
    if words and words[0] == "rm":
        return _remove_session(ctx, words[1:], args.yes)
    if words:
        raise UserError(f"unknown /sessions action {words[0]!r}", hint="/sessions  or  /sessions rm NAME")
    rows = []
    for path in list_sessions():
        current = " (this one)" if ctx.session is not None and ctx.session.path == path else ""
        size = _size(path)
        try:
            rec = read_session(path)
        except UserError:
            rows.append((path.stem, "unreadable", f"{size}{current}"))
            continue
        used = workspaces_used(rec)
        where = f"workspace {used[0]}" if len(used) == 1 else f"workspaces {', '.join(used)}" if used else "no workspace"
        rows.append((path.stem, _when(rec.header.get("started")),
                     f"{count(len(rec.inputs()), 'command')}, {size}, {where}{current}"))
    return Table("sessions, newest first" if rows else "no sessions recorded yet", rows)


def _remove_session(ctx: Context, words: tuple[str, ...], yes: bool) -> Message:
    if len(words) != 1:
        raise UserError("name one session to delete", hint="/sessions rm NAME  (/sessions lists them)")
    path = find_session(words[0])
    if path.parent.resolve() != sessions_dir().resolve():
        raise UserError(f"{words[0]!r} is not in the sessions folder; only recorded sessions are deleted here")
    if ctx.session is not None and ctx.session.path.resolve() == path.resolve():
        raise UserError("that is this shell's own session; it can be deleted from another shell")
    if not yes:
        return Message(f"this deletes session {path.stem} ({_size(path)}); to go ahead: /sessions rm {path.stem} --yes",
                       {"deleted": False, "name": path.stem})
    try:
        path.unlink()
    except OSError as err:
        raise UserError(f"cannot delete {path.name}: {err.strerror or err}") from None
    return Message(f"deleted session {path.stem}", {"deleted": True, "name": path.stem})


def _size(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError:
        return "? KB"
    return f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{max(1, round(size / 1000))} KB"


@command("/resume", args="NAME", group="session", completer=completer("session"),
         options=(Option("--fresh", bool, help="rebuild it in a new workspace named after the session"),))
def resume(ctx: Context, args: Args, run: Run) -> Message:
    """Rebuild the memory a session ended with (each item with its source and the English it was
    told in): in its workspace, or with --fresh in a new one named after it."""
    words, fresh = args.words, args.fresh
    if len(words) != 1:
        raise UserError("name one session", hint="/resume kinship-study  (/sessions lists them)")
    rec = read_session(find_session(words[0]))
    workspace, items = ended_with(rec)
    if ctx.workspaces is None:
        raise UserError("this shell keeps memory in the process only; resume needs workspaces")
    target = check_workspace_name(rec.path.stem if fresh else workspace)
    if fresh and target in ctx.workspaces.names():
        raise UserError(f"workspace {target!r} exists already", hint=f"/workspace {target}, or /resume without --fresh")

    wanted = resumable(items, source=rec.path.name)     # refused before the workspace changes
    if target != ctx.memory.workspace:
        ctx.memory = ctx.workspaces.open(target)
    added, removed = restore(ctx.memory, wanted, keep=items)
    return Message(f"resumed {rec.path.stem} in workspace {target}: {count(added, 'item')} added, "
                   f"{removed} removed, {len(ctx.memory.items)} in all",
                   {"workspace": target, "added": added, "removed": removed})


def _when(started: object) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(float(started)))
    except (TypeError, ValueError, OverflowError, OSError):
        return "unknown date"
