"""The MCP server: one workspace's shell served over stdin/stdout with the official `mcp` SDK.

Tool calls become command lines (mcp.tools) run through `Shell.execute`, like every other
front-end's input, so the session log records them and they replay. Commands run one at a time
on the thread that opened the workspace; an MCP cancel notification sets the shell's cancel
flag, as Esc or Ctrl+C does. stdout is the protocol: anything else goes to stderr.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

from sym.core import __version__
from sym.core.errors import UserError
from sym.core.events import Progress, Warning
from sym.repl.dispatcher import MemoryOptions, Shell, open_shell
from sym.repl.mcp import resources, wire
from sym.repl.mcp.caps import Caps
from sym.repl.mcp.tools import Allowed, Programs, Tool, tools
from sym.repl.render import to_text
from sym.repl.results import Failure, Result

INSTRUCTIONS = """sym keeps a working memory of facts, rules and documents and reasons over it: a Datalog \
engine with proof trees (query, why, infer), English turned into logic (tell, ask: true / false / unknown \
with the steps that justify it), Z3 proofs of programs in JSON or SMT-LIB (prove: proved / refuted with a \
counter-model / unknown / inconsistent with an unsat core), memory consistency (check), SymPy algebra \
(math) and search over loaded documents. Facts are Prolog syntax: parent_of(ann, ben). Rules: \
grandparent_of(X, Z) :- parent_of(X, Y), parent_of(Y, Z). Every result comes as the text sym shows and \
as structured content."""

Report = Callable[[float, "float | None", "str | None"], None]


@dataclass
class Call:
    """One tool call on its way through the shell's thread."""

    text: str                     # the command line
    report: Report                # progress to the caller (thread-safe)
    cancelled: bool = False


class Served:
    """The shell behind the server and the one thread its commands run on (SQLite handles stay
    on the thread that opened them); calls queue there in the order they came."""

    def __init__(self, options: MemoryOptions, *, read_only: bool, allow: list[Path]):
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="sym-mcp")
        self.lock = threading.Lock()
        self.current: Call | None = None
        self.read_only = read_only
        self.last_proof: Result | None = None
        self.caps: Caps | None = None
        try:
            self.shell: Shell = self.pool.submit(self._open, options).result()
        except BaseException:
            self.pool.shutdown()
            raise
        self.tools: dict[str, Tool] = tools(self.shell.registry, read_only=read_only)
        self.allowed = Allowed(allow)
        from sym.core.memory.workspace import workspace_dir

        self.programs = workspace_dir(options.workspace) / "mcp"

    def _open(self, options: MemoryOptions) -> Shell:
        shell = open_shell(options, emit=self._hear)
        if self.read_only:
            resources.refuse_changes(shell.memory)
        else:
            self.caps = Caps(shell.memory, lambda: shell.ctx.settings)
        return shell

    def _hear(self, event: object) -> None:
        """The shell's events (on any thread): warnings to stderr, progress to the running call."""
        if isinstance(event, Warning):
            sys.stderr.write(f"sym: warning: {event.message}\n")
            sys.stderr.flush()
        elif isinstance(event, Progress):
            call = self.current
            if call is not None:
                call.report(event.done, event.total or None, event.task)

    # -- running -----------------------------------------------------------------------

    def _run(self, call: Call) -> tuple[str, Result] | None:
        """On the shell's thread: the command, unless its call was cancelled while it waited."""
        with self.lock:
            if call.cancelled:
                return None
            self.shell.ctx.cancel.clear()
            self.current = call
        if self.caps is not None:
            self.caps.start()
        try:
            name = call.text.partition(" ")[0]
            call.report(0, None, f"running {name}")
            return self.shell.execute(call.text, source="mcp")
        finally:
            with self.lock:
                self.current = None

    def cancel(self, call: Call) -> None:
        """Stop a call: before it starts it never runs; while it runs, the shell's cancel flag
        stops the command as Esc / Ctrl+C would (it ends as "cancelled")."""
        with self.lock:
            call.cancelled = True
            if self.current is call:
                self.shell.ctx.cancel.set()

    async def on_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.wrap_future(self.pool.submit(fn, *args))

    async def execute(self, text: str, progress: Callable[[float, float | None, str | None], Any]) -> \
            tuple[str, Result] | None:
        """Run one command line; `progress` (a coroutine function) hears it start and advance."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, float | None, str | None]] = asyncio.Queue()

        def report(done: float, total: float | None, task: str | None) -> None:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, (done, total, task))
            except RuntimeError:      # the loop has closed: the server is going away
                pass

        call = Call(text, report)

        async def forward() -> None:
            while True:
                await progress(*(await queue.get()))

        done: tuple[str, Result] | None = None
        async with anyio.create_task_group() as tg:
            tg.start_soon(forward)
            try:
                done = await self.on_thread(self._run, call)
            except BaseException:       # the caller cancelled (notifications/cancelled), or shutdown
                self.cancel(call)
                raise
            finally:
                tg.cancel_scope.cancel()
        return done

    def close(self) -> None:
        with self.lock:
            if self.current is not None:
                self.shell.ctx.cancel.set()
        self.pool.submit(self.shell.close).result()
        self.pool.shutdown()


# -- the protocol ------------------------------------------------------------------------

def tool_result(command: str, text: str, result: Result) -> types.CallToolResult:
    """A result as the shell shows it (text) and as `--json` prints it (structured content);
    a failed command is a tool error with its one-line message and hint."""
    payload = {"input": text, "command": command, "ok": result.ok, "kind": result.kind, **result.to_dict()}
    structured = json.loads(json.dumps(payload, ensure_ascii=False, default=str))
    body = to_text(result) or ("done" if result.ok else "failed")
    return types.CallToolResult(content=[types.TextContent(type="text", text=body)], structured_content=structured,
                                is_error=not result.ok)


def refused(message: str, hint: str | None = None) -> types.CallToolResult:
    failure = Failure(message, hint)
    return types.CallToolResult(content=[types.TextContent(type="text", text=to_text(failure))],
                                structured_content={"ok": False, "kind": "error", **failure.to_dict()}, is_error=True)


def build(served: Served) -> Server[Any]:
    """The SDK's low-level server with sym's tools and resources."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=name, description=tool.description, input_schema=tool.schema,
                       annotations=types.ToolAnnotations(read_only_hint=not tool.spec.writes,
                                                         destructive_hint=name == "forget",
                                                         open_world_hint=False))
            for name, tool in served.tools.items()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = served.tools.get(params.name)
        if tool is None:
            hint = "this server is read-only" if served.read_only else None
            return refused(f"unknown tool {params.name!r}", hint or "tools/list names the tools")
        programs = Programs(None if served.read_only else served.programs, served.shell.ctx.settings.max_file_mb)
        try:
            if served.caps is not None:
                served.caps.check_text(params.name, params.arguments)
            line = tool.line(params.arguments, served.allowed, programs)
        except UserError as err:
            note(params.name, err)
            return refused(err.message, err.hint)
        done = None
        try:
            done = await served.execute(line, ctx.session.report_progress)
        finally:
            programs.settle(done is not None and done[1].ok)
        if done is None:       # cancelled before it ran (the caller no longer waits for an answer)
            return refused("cancelled")
        name, result = done
        if name == "/prove" and result.ok:
            served.last_proof = result
        return tool_result(name, line, result)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(uri=uri, name=name, description=description, mime_type="text/plain")
            for uri, (name, description) in resources.RESOURCES.items()])

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri not in resources.RESOURCES:
            from mcp.shared.exceptions import MCPError

            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown resource {uri}")
        text, data = await served.on_thread(resources.read, uri, served.shell, served.last_proof)
        contents: list[types.TextResourceContents | types.BlobResourceContents] = [
            types.TextResourceContents(uri=uri, mime_type="text/plain", text=text)]
        if data is not None:
            contents.append(types.TextResourceContents(uri=uri, mime_type="application/json",
                                                       text=json.dumps(data, ensure_ascii=False, default=str)))
        return types.ReadResourceResult(contents=contents)

    return Server("sym", version=__version__, instructions=INSTRUCTIONS, on_list_tools=list_tools,
                  on_call_tool=call_tool, on_list_resources=list_resources, on_read_resource=read_resource)


def note(tool: str, err: UserError) -> None:
    """A refused call, on stderr (the host's log of the server): it never became a command, so the
    session log, which records what the shell runs, has nothing of it."""
    sys.stderr.write(f"sym: refused a call of {tool}: {err.message}\n")
    sys.stderr.flush()


def serve(memory: MemoryOptions | str = "default", *, read_only: bool = False, allow: list[str] | None = None) -> int:
    """`sym mcp`: serve `memory` (a workspace, or its options: a Chroma server, the model given
    on the command line) until the host closes stdin; the exit code."""
    folders = [Path(a) for a in allow] if allow else [Path.cwd()]
    options = memory if isinstance(memory, MemoryOptions) else MemoryOptions(memory)
    try:
        served = Served(options, read_only=read_only, allow=folders)
    except UserError as err:
        sys.stderr.write(f"sym: {err}\n")
        return 2 if err.exit_code == 1 else err.exit_code
    server = build(served)

    async def main() -> None:
        async with wire.stdio() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    except KeyboardInterrupt:
        return 130
    finally:
        served.close()
    return 0
