"""`sym --plain`: a prompt-toolkit REPL on the same dispatcher as the TUI and batch mode.

History persists under the data dir (shared with the TUI), Tab completes slash commands
and their arguments from the registry, `\"\"\"` opens a multi-line input, Ctrl+C cancels
the running job (or clears the line), Ctrl+D or /bye leaves. Commands run on one shell thread (SQLite handles stay on the
thread that opened them) so Ctrl+C reaches the job as `ctx.cancel` instead of interrupting it half-way.
A memory change a chat turn's model proposes is asked here, on the prompt's thread: the command
line whole, then `allow?` takes `y` or `n` and Enter; another line typed there is kept as the next input.
"""

from __future__ import annotations

import queue
import signal
import sys
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from typing import TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import FileHistory, InMemoryHistory

from sym.core.errors import UserError
from sym.core.events import LLMToken
from sym.repl.arguments import last_word
from sym.repl.assemble import Assembler
from sym.repl.batch import INTERRUPTED, narrator
from sym.repl.dispatcher import MemoryOptions, Shell, open_shell
from sym.repl.render import TextRenderer
from sym.repl.results import Exit
from sym.repl.tui.history import history_path


class SlashCompleter(Completer):
    """`/lo` → `/load`; after a command name, that command's own completer."""

    def __init__(self, shell: Shell):
        self.shell = shell

    def get_completions(self, document, complete_event):
        text = document.text_before_cursor
        if not text.startswith("/") or "\n" in text:
            return
        registry = self.shell.registry
        try:
            found = registry.complete(self.shell.ctx, text)
        except Exception:  # a plugin's completer failing must not break typing
            return
        if " " not in text:
            for name in found:
                cmd = registry.get(name)
                yield Completion(name, start_position=-len(text), display_meta=cmd.summary if cmd else "")
            return
        word = last_word(text.partition(" ")[2])     # completions replace the word being typed
        for option in found:
            yield Completion(option, start_position=-len(word))


class _Stream:
    """Prints streamed model text as it arrives, and remembers to end the line after it."""

    def __init__(self, out: TextIO, then):
        self.out, self.then, self.open = out, then, False

    def __call__(self, event: object) -> None:
        if isinstance(event, LLMToken):
            self.out.write(event.text)
            self.out.flush()
            self.open = True
        else:
            self.then(event)

    def close(self) -> None:
        if self.open:
            self.out.write("\n")
            self.open = False


class Turns:
    """Whole inputs from prompt lines, by the rules every front-end shares (repl.assemble):
    a line, a `\"\"\"` block, or a clause spanning lines. `next` gives None at Ctrl+D."""

    def __init__(self, session: PromptSession):
        self.session = session
        self.assembler = Assembler()
        self.ready: deque[str] = deque()
        self.ended = False

    def next(self) -> str | None:
        while not self.ready and not self.ended:
            try:
                line = self.session.prompt("… " if self.assembler.pending else "sym> ")
            except EOFError:
                self.ended = True
                self.ready.extend(item.text for item in self.assembler.finish())
                break
            except KeyboardInterrupt:      # Ctrl+C at the prompt drops what was typed so far
                self.assembler.reset()
                raise
            self.ready.extend(item.text for item in self.assembler.feed(line))
        return self.ready.popleft() if self.ready else None

    def keep(self, line: str) -> None:
        """A line typed where it was not an input (at a y/n question): the next input."""
        self.ready.extend(item.text for item in self.assembler.feed(line))


ANSWERS = {"y": True, "yes": True, "n": False, "no": False}


class Approver:
    """`shell.ctx.approver` for --plain: the shell's thread hands the question to the prompt's
    thread (which waits for the job in `execute`) and waits for the answer; a cancel declines."""

    def __init__(self, shell: Shell, session: PromptSession, out: TextIO, err: TextIO, keep) -> None:
        self.shell, self.out, self.err, self.keep = shell, out, err, keep
        self.session: PromptSession = PromptSession(history=InMemoryHistory(), input=session.input,
                                                    output=session.output)
        self.asked: queue.Queue[tuple[str, dict]] = queue.Queue()

    def __call__(self, line: str) -> bool:
        """On the shell's thread."""
        box: dict = {"done": threading.Event()}
        self.asked.put((line, box))
        while not box["done"].wait(0.05):
            if self.shell.ctx.cancel.is_set():
                return False
        return bool(box.get("allowed"))

    def serve(self) -> None:
        """On the prompt's thread, while a job runs: answer what the job asks."""
        while True:
            try:
                line, box = self.asked.get_nowait()
            except queue.Empty:
                return
            box["allowed"] = self._ask(line)
            box["done"].set()

    def _ask(self, line: str) -> bool:
        self.out.write(f"the model wants to change memory; it would run:\n  {line}\n")
        self.out.flush()
        while True:
            try:
                said = self.session.prompt("allow? y or n, then Enter: ")
            except KeyboardInterrupt:      # Ctrl+C: the turn is cancelled, so nothing is allowed
                self.shell.ctx.cancel.set()
                self.err.write("cancelling…\n")
                return False
            except EOFError:
                return False
            answer = ANSWERS.get(said.strip().lower())
            if answer is not None:
                self.out.write("allowed\n" if answer else "declined\n")
                return answer
            if said.strip():               # typed ahead (or meant for the prompt): kept, not an answer
                self.keep(said)
                self.out.write(f"(not an answer; kept as your next input: {said.strip()[:60]})\n")


def execute(shell: Shell, text: str, err: TextIO, worker: ThreadPoolExecutor, approver: Approver | None = None):
    """Run one input on the shell's thread; Ctrl+C sets ctx.cancel and waits for the job to stop cleanly."""
    shell.ctx.cancel.clear()
    notes = []

    def cancel(*_args) -> None:
        shell.ctx.cancel.set()
        if not notes:
            notes.append(1)
            err.write("cancelling…\n")
            err.flush()

    # While a job runs, Ctrl+C only asks it to stop: a handler (not KeyboardInterrupt, which
    # could land anywhere in this loop) sets ctx.cancel.
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, cancel) if main else None
    try:
        job = worker.submit(shell.execute, text)
        while True:
            try:
                return job.result(timeout=0.05)  # re-raises an internal error (only with --debug)
            except FutureTimeout:
                if approver is not None:
                    approver.serve()
                continue
            except KeyboardInterrupt:        # SIGINT arriving where no handler could be set
                cancel()
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def run_prompt(*, debug: bool = False, memory: MemoryOptions | None = None, shell: Shell | None = None,
               input=None, output=None, out: TextIO | None = None, err: TextIO | None = None,
               history=None, stream: _Stream | None = None) -> int:
    """The REPL loop; returns the exit code. `shell`, `input`/`output` (prompt-toolkit) and
    `out`/`err` are for tests (with a given shell, pass the `_Stream` it emits to as `stream`);
    by default it opens the workspace and talks to the terminal."""
    out, err = out or sys.stdout, err or sys.stderr
    renderer = TextRenderer(out, err)
    shows_tokens = shell is None or stream is not None   # the shell emits to our _Stream
    stream = stream or _Stream(out, narrator(renderer, err))
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sym-shell")
    owned = shell is None
    if shell is None:
        interrupted: list[int] = []
        try:
            with _interrupts_noted(interrupted):     # Ctrl+C while it opens: leave once it is open
                shell = worker.submit(open_shell, memory or MemoryOptions(), emit=stream, debug=debug).result()
        except UserError as e:
            renderer.narrate(f"sym: {e}")
            worker.shutdown()
            return 2 if e.exit_code == 1 else e.exit_code
        if interrupted:
            worker.submit(shell.close).result()
            worker.shutdown()
            renderer.narrate("interrupted")
            return INTERRUPTED
    if shows_tokens:
        shell.ctx.streams = True    # streamed text is printed as it arrives: results need not repeat it
    approver = shell.ctx.approver
    try:
        return _loop(shell, _session(shell, history, input, output), renderer, stream, out, err, worker)
    finally:
        shell.ctx.approver = approver
        if owned:
            worker.submit(shell.close).result()
        worker.shutdown(wait=False)


@contextmanager
def _interrupts_noted(noted: list[int]) -> Iterator[None]:
    """While inside, Ctrl+C is noted instead of raised (on the main thread; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda *_: noted.append(1))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _session(shell: Shell, history, input, output) -> PromptSession:
    if history is None:
        path = history_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            history = FileHistory(str(path))
        except OSError:
            history = InMemoryHistory()
    return PromptSession(history=history, completer=SlashCompleter(shell), complete_while_typing=False,
                         input=input, output=output)


def _loop(shell, session, renderer, stream, out, err, worker) -> int:
    out.write("sym — type /help for commands, Ctrl+D or /bye to leave\n")
    out.flush()
    turns = Turns(session)
    approver = Approver(shell, session, out, err, turns.keep)
    shell.ctx.approver = approver
    while True:
        try:
            text = turns.next()
            if text is None:
                return 0
            if not text:
                continue
            _, result = execute(shell, text, err, worker, approver)
            stream.close()
            renderer.result(0, text, "", result)
        except KeyboardInterrupt:  # Ctrl+C at the prompt (or as a result prints): drop the line, keep going
            continue
        if isinstance(result, Exit):
            return 0
