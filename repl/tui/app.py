"""The Textual app: wires the input, transcript, side panes and status line to one Shell.

Commands run in workers on the shell's own thread (the UI never waits on a reasoner); their events come back
through a `Bus`, which queues them without waiting and wakes the app with a `ShellEvents` message, and are
handed to the panes. The app does no reasoning and knows no command by name: it routes turns to
`Shell.execute` and events to widgets.

First paint is kept cheap: the side panes, the palette provider, results and rendering load
only after the first frame (the workspace opens after it too); imports here stay light.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING

from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.worker import Worker, WorkerState

if TYPE_CHECKING:
    from sym.core.events import WorkspaceOpened

from sym.core.errors import UserError
from sym.core.routes import Routes
from sym.repl.tui.approval import Approvals
from sym.repl.tui.bridge import Bus
from sym.repl.tui.entry import Entry
from sym.repl.tui.history import History
from sym.repl.tui.keys import BINDINGS as KEY_BINDINGS
from sym.repl.tui.keys import QUIT_WITHIN, KeyActions
from sym.repl.tui.status import StatusLine
from sym.repl.tui.transcript import ECHO_LINES, Transcript, shorten

DRAIN_EVERY = 0.1    # seconds between takes of a running job's events (see _shell_events)
COMPLETION_WAIT = 0.25   # seconds the input line waits for completions from the shell's thread
SIDE_MIN_WIDTH = 100   # below this many columns the side pane starts hidden (F9 shows it)


class ShellEvents(Message):
    """Events wait in the bus: posted from the shell's thread, drained on the UI thread."""


def _registry_commands():
    """The palette's provider, loaded when the palette first opens (not on the paint path)."""
    from sym.repl.tui.palette import RegistryCommands

    return RegistryCommands


class SymApp(KeyActions, App):
    TITLE = "sym"
    CSS = """
    #main { height: 1fr; }
    #left { width: 3fr; }
    #side { width: 2fr; border-left: solid $primary; }
    Screen.-narrow #side { display: none; width: 3fr; }   /* F9 shows it: half the screen */
    #side > .note { color: $text-muted; padding: 1 1; }
    Entry { margin: 0 1; }
    """
    BINDINGS = KEY_BINDINGS
    COMMANDS = App.COMMANDS | {_registry_commands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (SIDE_MIN_WIDTH, "-wide")]

    def __init__(self, shell=None, *, bus: Bus | None = None, options=None, debug: bool = False,
                 ping_every: float | None = 30.0, history: History | None = None) -> None:
        """Give `shell` (built with `emit=bus`) to drive an existing shell, as the tests do; without
        one the app opens the workspace `options` names in a worker after the first paint."""
        super().__init__()
        self.shell = shell
        self.bus = bus or Bus()
        self.options = options
        self.debug_mode = debug
        self.ping_every = ping_every
        self.history = history if history is not None else History(None)   # read when the workspace opens
        self._load_history = history is None
        # every call into the shell runs on this one thread: SQLite handles (snapshot, call log)
        # belong to the thread that opened them
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sym-shell")
        self.job: Worker | None = None
        self.jobs: list[str] = []          # commands running now, outermost first (JobStarted / JobFinished)
        self.queue: list[str] = []
        self.cancelling = False
        self.counts = {"fact": 0, "rule": 0, "constraint": 0}   # kept from ItemAdded / ItemRemoved
        self._panes: dict = {}
        self._drained_at = 0.0
        self._drain_timer = None
        self._routes: Routes | None = None     # built on the first event (the events module loads late)
        self.approvals = Approvals(self)     # y/n on a memory change a chat turn's model proposes
        self._interrupted = -QUIT_WITHIN     # when Ctrl+C last found nothing to stop

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Transcript(id="transcript")
                yield Entry(self.history, self._complete, id="entry", disabled=self.shell is None)
            with Vertical(id="side"):
                if self.shell is not None:   # an open shell: nothing to wait for, build the panes now
                    from sym.repl.tui.side import SidePanes

                    yield SidePanes()
                else:                        # filled after the first paint (on_ready)
                    from textual.widgets import Static

                    yield Static("opening the workspace…", classes="note")
        yield StatusLine(id="status")

    @property
    def transcript(self) -> Transcript:
        return self.query_one(Transcript)

    @property
    def entry(self) -> Entry:
        return self.query_one(Entry)

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    def pane(self, name: str):
        """The side pane `memory`, `trace` or `models`; None before it is mounted (or once closing).
        Kept once found: a DOM query per event would cost a bulk add more than its rows do."""
        pane = self._panes.get(name)
        if pane is None or not pane.is_attached:
            found = self.query(f"#{name}")
            pane = self._panes[name] = found.first() if found else None
        return pane

    def on_mount(self) -> None:
        self.bus.attach(lambda: self.post_message(ShellEvents()))
        if self.shell is not None:
            self._opened(self.shell, None)
        else:
            self.status.show(workspace=getattr(self.options, "workspace", "default") + " (opening…)")

    async def on_ready(self) -> None:
        """After the first paint: build the side panes, then open the workspace (importing Chroma
        takes a while) in the shell's thread."""
        if self.shell is None:
            from sym.repl.tui.side import SidePanes

            side = self.query_one("#side")
            await side.remove_children()
            await side.mount(SidePanes())
            self.run_worker(self.in_shell_thread(self._open), group="open", exit_on_error=False)

    async def in_shell_thread(self, fn, *args):
        """Await `fn(*args)` run on the shell's thread (the UI stays free meanwhile)."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(fn, *args))

    def close_shell(self) -> None:
        """Release the workspace and the session log, on the thread that opened them."""
        if self.shell is not None:
            self.executor.submit(self.shell.close).result()
        self.executor.shutdown(wait=False)

    def _open(self):
        from sym.core.memory.workspace import opened
        from sym.repl.dispatcher import MemoryOptions, open_shell

        shell = open_shell(self.options or MemoryOptions(), emit=self.bus, debug=self.debug_mode)
        if self._load_history:
            from sym.repl.tui.history import history_path

            self.history.load(history_path())
        return shell, opened(shell.memory)     # the workspace as it is now, read on the shell's thread

    def _opened(self, shell, snapshot) -> None:
        self.shell = shell
        shell.ctx.approver = self.approvals.ask
        shell.ctx.streams = True          # LLMToken text is shown as it arrives: results need not repeat it
        pane = self.pane("memory")
        if pane is None or pane.workspace is None:    # no WorkspaceOpened came (it opened before we ran)
            if snapshot is None:          # a shell handed over ready: its memory is read on the shell's thread too
                from sym.core.memory.workspace import opened

                snapshot = self.executor.submit(opened, shell.memory).result()
            self._show_workspace(snapshot)
        self.status.show(model=shell.ctx.settings.model)
        self.entry.disabled = False
        self.entry.focus()
        self.transcript.add_note("sym — type a fact, a rule, ?- a query, or /help. F1 keys and commands · "
                                 "Esc cancels the running job")
        if self.ping_every:
            self.ping_ollama()
            self.set_interval(self.ping_every, self.ping_ollama)
        self._next_turn()

    def _complete(self, text: str) -> list[str]:
        """Completions, worked out on the shell's thread (completers read memory, settings and
        workspaces, which belong to it); none when it stays busy past COMPLETION_WAIT."""
        from sym.repl.tui.completion import candidates

        if self.shell is None:
            return []
        found = self.executor.submit(candidates, self.shell, text)
        try:
            return found.result(timeout=COMPLETION_WAIT)
        except TimeoutError:
            found.cancel()
            return []

    # -- running turns ----------------------------------------------------------------

    def on_entry_turn(self, message: Entry.Turn) -> None:
        self.transcript.follow()          # the user's own input: back to the end
        self.run_turn(message.text)

    def run_turn(self, text: str) -> None:
        """Run one input in a worker thread, or queue it while another is still running."""
        if self.shell is None or self.job is not None:
            self.queue.append(text)
            if self.job is not None:          # typed ahead: it waits, in order, and says so
                shown = shorten(text)
                self.transcript.add_note(f"queued until the cancelled job stops: {shown}" if self.cancelling
                                         else f"queued: {shown}")
            return
        self.transcript.add_input(shorten(text, ECHO_LINES))
        self.pane("trace").start_job(text)
        self.shell.ctx.cancel.clear()
        self.cancelling = False
        self.jobs = []
        self.status.show(job=text.split(None, 1)[0] if text.startswith("/") else text)
        self.job = self.run_worker(self.in_shell_thread(self.shell.execute, text), name=text, group="job",
                                   exit_on_error=False)

    def _next_turn(self) -> None:
        if self.queue and self.job is None:
            self.run_turn(self.queue.pop(0))

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        from sym.repl.results import Exit, Failure

        worker = event.worker
        if worker.group == "open":
            if event.state == WorkerState.SUCCESS:
                self._opened(*worker.result)
            elif event.state == WorkerState.ERROR:
                err = worker.error
                message = f"sym: {err}" if isinstance(err, UserError) else f"sym: cannot open the workspace: {err!r}"
                self.exit(return_code=2, message=message)
            return
        if worker is not self.job or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR,
                                                          WorkerState.CANCELLED):
            return
        await self.drain_events()        # what the job emitted is shown before its result
        await self.transcript.end_stream()
        if event.state == WorkerState.SUCCESS:
            _, result = worker.result
            self.transcript.add_result(result)     # errors too: said once, there (no toast)
        else:
            self.transcript.add_result(Failure(f"internal error: {worker.error!r}", "run with --debug"))
            result = None
        self.job = None
        self.cancelling = False
        self.status.show(job="", cancelling=False)
        if isinstance(result, Exit):
            self.exit(return_code=0)
            return
        self.entry.disabled = False
        if self.focused is None:          # a pane the user is in (F2, F3, F4) keeps the focus: keys go on there
            self.entry.focus()
        self._next_turn()

    def _show_workspace(self, opened: WorkspaceOpened) -> None:
        """Show a workspace from scratch (the snapshot its opening carried): its memory in the pane,
        its name and counts below."""
        pane = self.pane("memory")
        if pane is not None:
            pane.load(opened)
        self.counts = {"fact": 0, "rule": 0, "constraint": 0, **opened.counts}
        self.status.show(workspace=opened.workspace)
        self._show_counts()

    def _show_counts(self) -> None:
        counts = self.counts
        self.status.show(facts=counts["fact"], rules=counts["rule"] + counts["constraint"])

    # -- events from the shell (on the UI thread) -----------------------------------------

    @on(ShellEvents)
    async def _shell_events(self, _message: ShellEvents) -> None:
        """Events wait in the bus. While a job runs they are taken at most every DRAIN_EVERY seconds
        (the bus posts nothing more until then), so a bulk add's thousands come in a few batches
        and the UI leaves the shell's thread the CPU; otherwise at once."""
        wait = self._drained_at + DRAIN_EVERY - time.monotonic()
        if self.job is not None and wait > 0:
            if self._drain_timer is None:
                self._drain_timer = self.set_timer(wait, self.drain_events)
            return
        await self.drain_events()

    async def drain_events(self) -> None:
        """Show everything the bus holds, in order (memory rows and streamed text on a short path;
        the counts redrawn once)."""
        from textual.css.query import NoMatches

        try:
            await self._drain()
        except NoMatches:   # the app is closing (its screen is gone): nobody is left to show them
            pass

    async def _drain(self) -> None:
        from sym.core.events import ItemAdded, ItemRemoved, LLMToken

        if self._drain_timer is not None:
            self._drain_timer.stop()
            self._drain_timer = None
        self._drained_at = time.monotonic()
        counted = self.counts.copy()
        memory = self.pane("memory")
        text: list[str] = []            # LLMToken texts in a row are one write
        for event in self.bus.drain():
            kind = type(event)
            if kind is LLMToken:
                text.append(event.text)
                continue
            if text:
                await self.transcript.stream("".join(text))
                text = []
            if kind is ItemAdded or kind is ItemRemoved:
                self.counts[event.kind] += 1 if kind is ItemAdded else -1
                if memory is not None:     # events before the panes exist (opening) are read from memory later
                    memory.apply(event)
            else:
                await self._show_event(event)
        if text:
            await self.transcript.stream("".join(text))
        if self.counts != counted:
            self._show_counts()

    async def _show_event(self, event: object) -> None:
        if self._routes is None:
            self._routes = self._event_routes()
        self._routes(event)

    def _event_routes(self) -> Routes:
        """What the app does with each event the panes' own routes do not take (one table)."""
        from sym.core.events import (
            DocumentsChanged,
            EmbeddingProgress,
            JobFinished,
            JobStarted,
            LLMCall,
            LLMProgress,
            ModelShown,
            PolicyApplied,
            Progress,
            SchemaChanged,
            SettingChanged,
            TraceNode,
            Warning,
            WorkspaceOpened,
        )

        return Routes({
            (SchemaChanged, DocumentsChanged): lambda event: self._to_pane("memory", event),
            WorkspaceOpened: self._show_workspace,
            (TraceNode, LLMCall, PolicyApplied): lambda event: self._to_pane("trace", event),
            ModelShown: self._show_model,
            Warning: lambda event: self.transcript.add_note(f"warning: {event.message}"),
            Progress: lambda event: self.status.show(job=f"{event.task} {event.done}/{event.total}"),
            EmbeddingProgress: self._show_embedding,
            LLMProgress: self._show_llm_progress,
            JobStarted: self._job_started,
            JobFinished: self._job_finished,
            SettingChanged: self._setting_changed,
        })

    def _show_model(self, event) -> None:
        models = self.pane("models")
        if models is not None:
            models.show(event.kind, event.title, event.text)

    def _show_embedding(self, event) -> None:
        self.status.show(embedding=event.error[:80] if event.error else
                         f"embedding {event.total - event.pending:,}/{event.total:,}" if event.pending else "")

    def _show_llm_progress(self, event) -> None:
        jobs = " › ".join(self.jobs)
        shown = "" if event.done else f"{event.purpose}: {event.tokens} tokens, {event.seconds:.0f}s"
        self.status.show(job=f"{jobs} · {shown}" if jobs and shown else jobs or shown)

    def _job_started(self, event) -> None:
        self.jobs.append(event.name)
        self.status.show(job=" › ".join(self.jobs))

    def _job_finished(self, event) -> None:
        if event.name in self.jobs:
            del self.jobs[len(self.jobs) - 1 - self.jobs[::-1].index(event.name):]
        self.status.show(job=" › ".join(self.jobs))

    def _setting_changed(self, event) -> None:
        if event.key == "model":
            self.status.show(model=event.value)
        if event.key in ("model", "ollama_host", "backend", "base_url") and self.ping_every:
            self.ping_ollama()

    def _to_pane(self, name: str, event: object) -> None:
        pane = self.pane(name)
        if pane is not None:     # events before the panes exist (opening) are read from memory later
            pane.apply(event)

    # -- the Ollama ping ----------------------------------------------------------------

    def ping_ollama(self) -> None:
        from sym.core.llm.backends import liveness_url

        if self.shell is not None:
            url = liveness_url(self.shell.ctx.settings)
            self.run_worker(partial(self._ping, url), thread=True, group="ping", exclusive=True)

    def _ping(self, host: str) -> None:
        from sym.repl.tui.status import ping

        up = ping(host)
        try:
            self.call_from_thread(self._show_ping, up)   # widgets are looked up on the UI thread
        except RuntimeError:
            pass

    def _show_ping(self, up: bool) -> None:
        from textual.css.query import NoMatches

        try:
            self.status.show(ollama=up)
        except NoMatches:   # the app is closing
            pass

    # -- keys: repl/tui/keys.py ------------------------------------------------------------

    def choose_command(self, cmd) -> None:
        """From the palette: run a command that needs nothing, else start typing it."""
        if cmd.args and not cmd.args.startswith("["):
            self.entry.value = cmd.name + " "
            self.entry.cursor_position = len(self.entry.value)
            self.entry.focus()
        else:
            self.run_turn(cmd.name)
