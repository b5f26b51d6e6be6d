"""The MCP server: one workspace's shell served over stdin/stdout with the official `mcp` SDK.

Tool calls become command lines (mcp.tools) run through `Shell.execute`, like every other
front-end's input, so the session log records them and they replay. Commands run one at a time
on the thread that opened the workspace; an MCP cancel notification sets the shell's cancel
flag, as Esc or Ctrl+C does. stdout is the protocol: anything else goes to stderr.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated

from sym.core import __version__
from sym.core.errors import UserError
from sym.core.events import Progress, Warning
from sym.core.routes import Routes
from sym.repl.dispatcher import MemoryOptions, Shell, open_shell
from sym.repl.mcp import approve, foresight, resources, wire
from sym.repl.mcp import http as web
from sym.repl.mcp.caps import Caps
from sym.repl.mcp.outputs import output_schema
from sym.repl.mcp.prompts import PROMPTS, prompt_text
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
        self.subscribers: dict[str, dict[int, Any]] = {}     # uri -> the sessions that subscribed to it
        self.bus = InMemorySubscriptionBus()      # 2026-07-28: changes to the open subscriptions/listen streams
        self.listen = ListenHandler(self.bus)
        self.closing = False
        self._routes = Routes({Warning: self._warn, Progress: self._progress})   # before the shell emits
        try:
            self.shell: Shell = self.pool.submit(self._open, options).result()
        except BaseException:
            self.pool.shutdown()
            raise
        skip = os.environ.get(NO_WARM, "").strip().lower() in ("0", "off", "no", "false")
        self._warming = iter(()) if skip else warm_steps(self.shell)
        self._warm_next()
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

    def _warm_next(self, _done: object = None) -> None:
        """Queue the next warm-up step on the shell's thread once the last one is done: a call that
        comes meanwhile goes before the rest, waiting at most for the step that is running."""
        step = None if self.closing else next(self._warming, None)
        if step is None:
            return
        try:
            self.pool.submit(step).add_done_callback(self._warm_next)
        except RuntimeError:      # the pool has shut down: the server is going away
            pass

    def _hear(self, event: object) -> None:
        """The shell's events (on any thread): warnings to stderr, progress to the running call."""
        self._routes(event)

    def _warn(self, event: Warning) -> None:
        sys.stderr.write(f"sym: warning: {event.message}\n")
        sys.stderr.flush()

    def _progress(self, event: Progress) -> None:
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

    async def changed(self) -> None:
        """After a call that changed memory: resources/updated to each client subscribed to what it
        changed, by resources/subscribe (a client that has gone is dropped) or, on 2026-07-28, on a
        subscriptions/listen stream naming it."""
        for uri in ("sym://memory", "sym://schema"):
            await self.bus.publish(ResourceUpdated(uri))
            sessions = self.subscribers.get(uri, {})
            for key, session in list(sessions.items()):
                try:
                    await session.send_resource_updated(uri)
                except Exception:      # a closed connection: nothing left to tell
                    sessions.pop(key, None)

    def close(self) -> None:
        self.closing = True
        with self.lock:
            if self.current is not None:
                self.shell.ctx.cancel.set()
        self.pool.submit(self.shell.close).result()
        self.pool.shutdown()


NO_WARM = "SYM_MCP_WARM"     # "0": no warm-up (a script or test suite starting many short-lived servers)
WARM_UP = ("/query big(bob)", "/tell Bob is big.", "/prove", "/math factor x**2 - 1")


def warm_steps(shell: Shell) -> Iterator[Callable[[], None]]:
    """What the first calls would otherwise load on the request path (the English reader's grammar
    and lexicon, Z3, the /math worker), one step per command of WARM_UP run on a throwaway
    in-process shell (no workspace, no session log). The server answers initialize before any of it
    (Served queues the steps behind the calls): a host's first call then waits at most for the step
    in progress (benchmarks/mcp_first_call.py). Whatever fails here is left for the command that
    needs it to report."""
    scratch: list[Shell] = []

    def run(line: str) -> None:
        try:
            if not scratch:
                scratch.append(Shell(registry=shell.registry, settings=shell.ctx.settings, plugins=False))
            if line != "/prove":
                scratch[0].execute(line)
                return
            with tempfile.TemporaryDirectory(prefix="sym-warm-") as folder:
                program = Path(folder) / "warm.smt2"
                program.write_text("(declare-const p Bool) (assert p) (check-sat-assuming (p))\n", encoding="utf-8")
                scratch[0].execute(f"/prove --file {program}")
        except Exception:       # the command that needs it says what is wrong, in one line
            pass

    for line in WARM_UP:
        yield functools.partial(run, line)


# -- the protocol ------------------------------------------------------------------------

def tool_result(command: str, text: str, result: Result, notes: list[str] | None = None) -> types.CallToolResult:
    """A result as the shell shows it (text) and as `--json` prints it (structured content, matching
    the tool's output schema), with a copy of that JSON in the content for clients that read only
    text; a failed command is a tool error with its one-line message and hint. `notes` are the
    deprecation notes of the call's arguments."""
    payload = {"input": text, "command": command, "ok": result.ok, "kind": result.kind, **result.to_dict()}
    if notes:
        payload["deprecated"] = notes
    structured = json.loads(json.dumps(payload, ensure_ascii=False, default=str))
    body = to_text(result) or ("done" if result.ok else "failed")
    if notes:
        body += "".join(f"\nnote: {n}" for n in notes)
    return _result(body, structured, not result.ok)


def _result(body: str, structured: dict[str, Any], is_error: bool) -> types.CallToolResult:
    copy = json.dumps(structured, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=body),
                                         types.TextContent(type="text", text=copy)],
                                structured_content=structured, is_error=is_error)


def refused(message: str, hint: str | None = None) -> types.CallToolResult:
    failure = Failure(message, hint)
    return _result(to_text(failure), {"ok": False, "kind": "error", **failure.to_dict()}, True)


def build(served: Served, approval: str = "host") -> Server[Any]:
    """The SDK's low-level server with sym's tools, prompts and resources; `approval` "elicit" asks
    the client's user before a change (mcp.approve)."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=name, description=tool.description, input_schema=tool.schema,
                       output_schema=output_schema(name), annotations=types.ToolAnnotations(read_only_hint=not tool.spec.writes,
                                                         destructive_hint=name == "forget",
                                                         open_world_hint=False))
            for name, tool in served.tools.items()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> \
            types.CallToolResult | types.InputRequiredResult:
        tool = served.tools.get(params.name)
        if tool is None:
            hint = "this server is read-only" if served.read_only else None
            return refused(f"unknown tool {params.name!r}", hint or "tools/list names the tools")
        programs = Programs(None if served.read_only else served.programs, served.shell.ctx.settings.max_file_mb)
        notes: list[str] = []
        try:
            if served.caps is not None:
                served.caps.check_text(params.name, params.arguments)
            line = tool.line(params.arguments, served.allowed, programs, notes)
        except UserError as err:
            note(params.name, err)
            return refused(err.message, err.hint)
        if approval == "elicit" and tool.spec.writes and approve.wanted(ctx.session):
            answer = approve.answered(params, line) if approve.modern(ctx) else None
            clash = None if answer is not None else await served.on_thread(foresight.clash, served.shell, line)
            if approve.modern(ctx):
                if answer is None:
                    return approve.request(params.name, line, clash)
            else:
                try:
                    answer = await approve.ask(ctx, params.name, line, clash)
                except Exception as err:     # the client failed to ask: nothing changes
                    return refused(f"the change was not approved: the client could not ask ({type(err).__name__})")
            why = approve.declined(answer)
            if why is not None:
                return refused(why)
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
        if tool.spec.writes and result.ok:
            await served.changed()
        return tool_result(name, line, result, notes)

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[
            types.Prompt(name=p.name, description=p.description, arguments=[
                types.PromptArgument(name=a.name, description=a.description, required=a.required)
                for a in p.arguments]) for p in PROMPTS])

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        from mcp.shared.exceptions import MCPError

        try:
            prompt, text = prompt_text(params.name, params.arguments)
        except UserError as err:
            raise MCPError(code=types.INVALID_PARAMS, message=err.message + (f" ({err.hint})" if err.hint else "")) from None
        return types.GetPromptResult(description=prompt.description, messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))])

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        key = id(getattr(ctx.session, "_connection", ctx.session))
        served.subscribers.setdefault(str(params.uri), {})[key] = ctx.session
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        key = id(getattr(ctx.session, "_connection", ctx.session))
        served.subscribers.get(str(params.uri), {}).pop(key, None)
        return types.EmptyResult()

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
                  on_call_tool=call_tool, on_list_resources=list_resources, on_read_resource=read_resource,
                  on_list_prompts=list_prompts, on_get_prompt=get_prompt, on_subscribe_resource=subscribe,
                  on_unsubscribe_resource=unsubscribe, on_subscriptions_listen=served.listen)


def note(tool: str, err: UserError) -> None:
    """A refused call, on stderr (the host's log of the server): it never became a command, so the
    session log, which records what the shell runs, has nothing of it."""
    sys.stderr.write(f"sym: refused a call of {tool}: {err.message}\n")
    sys.stderr.flush()


def serve(memory: MemoryOptions | str = "default", *, read_only: bool = False, allow: list[str] | None = None,
          http: str | None = None, token_file: str | None = None, approval: str = "host") -> int:
    """`sym mcp`: serve `memory` (a workspace, or its options: a Chroma server, the model given
    on the command line) until the host closes stdin, or with `http` (HOST:PORT) on Streamable HTTP
    until interrupted; the exit code."""
    if http is not None:
        try:
            web.address(http)
        except UserError as err:
            sys.stderr.write(f"sym: {err}\n")
            return 2
    folders = [Path(a) for a in allow] if allow else [Path.cwd()]
    options = memory if isinstance(memory, MemoryOptions) else MemoryOptions(memory)
    try:
        served = Served(options, read_only=read_only, allow=folders)
    except UserError as err:
        sys.stderr.write(f"sym: {err}\n")
        return 2 if err.exit_code == 1 else err.exit_code
    server = build(served, approval)

    async def main() -> None:
        async with wire.stdio() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        if http is not None:
            web.run(server, http, token_file, closing=served.listen.close)
        else:
            anyio.run(main)
    except UserError as err:
        sys.stderr.write(f"sym: {err}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        served.close()
    return 0
