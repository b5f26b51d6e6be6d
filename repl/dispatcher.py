"""The dispatcher: one input (a command, a query or logic text) in, one result out.

Every front-end feeds lines here. User errors become `Failure` results; nothing a user
types can raise out of `Shell.execute`, and a failed command leaves memory as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

from sym.core.backends.choice import options_from
from sym.core.errors import UserError
from sym.core.events import Emit, InputReceived, JobFinished, JobStarted, ResultReady, Warning, ignore
from sym.core.memory.working import WorkingMemory
from sym.core.memory.workspace import Workspaces
from sym.core.settings import Settings, load_settings
from sym.plugins.loader import load_plugins
from sym.repl.commands import builtin_registry
from sym.repl.commands.engine import sync_setting
from sym.repl.context import Context, EventStream
from sym.repl.memory_options import MemoryOptions  # noqa: E402,F401  (re-exported: front-ends import it from here too)
from sym.repl.registry import Registry
from sym.repl.results import Failure, Result
from sym.repl.route import looks_like_chat, route  # noqa: F401  (front-ends import them from here too)
from sym.repl.steering import steer
from sym.sessions.log import SessionLog


def open_shell(options: MemoryOptions, *, emit: Emit = ignore, base_dir: Path | None = None,
               debug: bool = False, record: bool = True, first: str | None = None) -> Shell:
    """A shell on the workspace the options name (raises UserError if it cannot be opened).
    With `record`, everything it does is appended to a new session log. A script or pipe whose
    `first` input switches to another workspace (`/workspace NAME`) leaves the named one unopened
    (and unlocked) unless that switch fails: see Shell.settle."""
    settings = load_settings(dict(options.settings))
    session = None
    if record:
        session = SessionLog.start(workspace=options.workspace, settings=settings.model_dump(),
                                   extra={"cwd": os.getcwd(), "base_dir": str(base_dir) if base_dir else None})
    stream = EventStream(emit, session)     # the session log hears every event, memory's included
    workspaces = None
    if options.persistent:
        workspaces = Workspaces(url=options.chroma_url, embedder=options.embedder, emit=stream,
                                background=options.background,
                                ollama_host=settings.ollama_host)   # ollama:MODEL embeds on the chat server
    placeholder = None
    if workspaces is not None and _switches_away(first, options.workspace):
        placeholder = WorkingMemory(options.workspace, emit=stream)
    try:
        shell = Shell(emit=stream, base_dir=base_dir, debug=debug, workspaces=workspaces, workspace=options.workspace,
                      settings=settings, memory=placeholder)
        shell.deferred = placeholder
        return shell
    except BaseException:
        if session is not None:
            session.close()
        raise


def _switches_away(first: str | None, workspace: str) -> bool:
    """Whether an input is `/workspace NAME` for a NAME other than `workspace`."""
    if first is None:
        return False
    name, arg = route(first)
    words = arg.split()
    return name == "/workspace" and len(words) == 1 and words[0] not in ("rm", workspace) \
        and not words[0].startswith("-")


class Shell:
    """A workspace's memory, settings and registry, and the loop body of every front-end."""

    def __init__(self, *, registry: Registry | None = None, memory: WorkingMemory | None = None,
                 settings: Settings | None = None, emit: Emit = ignore, plugins: bool = True,
                 base_dir: Path | None = None, debug: bool = False, workspaces=None, workspace: str = "default"):
        """`workspaces` (a core.memory.workspace.Workspaces) makes memory persistent: `workspace`
        is opened from it (raises UserError when it cannot be). Without it memory lives in the process.
        `emit` is the front-end's subscriber, or the shell's whole event stream (open_shell's, with
        its session log)."""
        self.registry = registry or builtin_registry()
        stream = emit if isinstance(emit, EventStream) else EventStream(emit)
        settings = settings or Settings()
        if workspaces is not None:
            workspaces.engine_options = options_from(settings)    # duckdb_memory, … for the engine it opens
        if memory is None:
            memory = workspaces.open(workspace) if workspaces is not None else WorkingMemory(emit=stream)
        self.ctx = Context(memory, self.registry, settings, stream, base_dir=base_dir,
                           workspaces=workspaces)
        sync_setting(self.ctx)
        self.debug = debug
        self.deferred: WorkingMemory | None = None    # open_shell's stand-in for a workspace not opened yet
        if plugins:
            for problem in load_plugins(self.registry):
                emit(Warning(problem))

    @property
    def memory(self) -> WorkingMemory:
        return self.ctx.memory

    def settle(self) -> None:
        """After a script's first input: if it did not switch away from the workspace open_shell
        left unopened, open that one now (raises UserError, e.g. in use by another sym)."""
        placeholder, self.deferred = self.deferred, None
        if placeholder is not None and self.ctx.memory is placeholder and self.ctx.workspaces is not None:
            self.ctx.memory = self.ctx.workspaces.open(placeholder.workspace)
            sync_setting(self.ctx)

    def close(self) -> None:
        """Release the workspace (its lock) — also done by the OS when the process ends."""
        if self.ctx.workspaces is not None:
            self.ctx.workspaces.close()
        if self.ctx.session is not None:
            self.ctx.session.close()

    def execute(self, text: str, *, source: str = "typed") -> tuple[str, Result]:
        """Run one input; returns (command name, result). Never raises for user errors.
        `source` labels what it stores (typed, or SCRIPT:LINE in batch mode)."""

        self.ctx.emit(InputReceived(text, source))
        name, result = self._run(text, source)
        self.ctx.emit(ResultReady(name, result))
        return name, result

    def _run(self, text: str, source: str) -> tuple[str, Result]:
        from sym.repl.commands.logic import add_text

        name, arg = route(text)
        try:
            # inference in any command (/ask, queries, asserts) stops on Esc / Ctrl+C, past query_timeout
            # and at max_facts (the run's stop); bound per command since /use may switch the memory, /set the limits
            if not name:   # `halt.` and `listing.` are recorded as the commands they are
                run = self.ctx.start_run("assert", source=source)
                self.ctx.memory.bound(run.stop)
                done = add_text(self.ctx, text if text.rstrip().endswith(".") else text + ".", run)
                return {"exit": "/bye", "listing": "/listing"}.get(done.kind, "/assert"), done
            cmd = self.registry.lookup(name)
            if not cmd.args and arg:
                raise UserError(f"{cmd.name} takes no arguments", hint=f"/help {cmd.name}")
            self.ctx.emit(JobStarted(cmd.name))
            finished = False
            try:
                steered = steer(self.ctx, cmd, arg, source)
                run = self.ctx.start_run(cmd.name.lstrip("/") or "run", steered, source=source)
                self.ctx.memory.bound(run.stop)
                result, error = None, None
                try:
                    result = cmd.call(self.ctx, arg, run)
                except BaseException as err:
                    error = err
                    raise
                finally:
                    if steered is not None:
                        steered.close(result, error)
                finished = result.ok
                return cmd.name, result
            finally:
                self.ctx.emit(JobFinished(cmd.name, ok=finished))
        except UserError as err:
            return name or "/assert", Failure(one_line(err.message), err.hint and one_line(err.hint), err.exit_code)
        except RecursionError:
            return name or "/assert", Failure("input nests too deeply", "split it into smaller clauses")
        except Exception as err:  # a bug: report it as one line unless debugging
            if self.debug:
                raise
            return name or "/assert", Failure(f"internal error: {type(err).__name__}: {err}",
                                              "please report this; run with --debug for a traceback")


def one_line(text: str, limit: int = 300) -> str:
    """An error message as one line of bounded length (it may quote what the user typed)."""
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    return text if len(text) <= limit else text[:limit - 1] + "…"
