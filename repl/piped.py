"""Piped input: `sym` with standard input not a terminal reads its lines and prints results.

It shares the dispatcher and renderer with batch mode; the interactive front-ends are the
prompt-toolkit REPL (`sym --plain`, repl/prompt.py) and the Textual app, over the same Shell.
"""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager

from sym.core.errors import UserError
from sym.repl.assemble import Assembler
from sym.repl.batch import failure_code, narrator
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import TextRenderer
from sym.repl.results import Exit, Failure


def run_piped(*, debug: bool = False, memory: MemoryOptions | None = None) -> int:
    renderer = TextRenderer(sys.stdout, sys.stderr)
    try:
        shell = open_shell(memory or MemoryOptions(), emit=narrator(renderer, sys.stderr), debug=debug)
    except UserError as e:
        renderer.narrate(f"sym: {e}")
        return 2 if e.exit_code == 1 else e.exit_code
    try:
        return _loop(shell, renderer)
    finally:
        # the background writer may be opening the vector store for what an earlier run left
        # pending: stopped here after its batch, not cut off by interpreter shutdown (which made
        # a sound store look broken: "can't register atexit after shutdown; run: sym repair")
        shell.close()


def _loop(shell, renderer: TextRenderer) -> int:
    interactive = sys.stdin.isatty()
    if interactive:
        print("sym — type /help for commands, /bye to leave")
    assembler = Assembler()
    code = 0
    while True:
        try:
            line = input(("… " if assembler.pending else "sym> ") if interactive else "")
        except EOFError:
            line = None
        except KeyboardInterrupt:
            assembler.reset()
            print()
            continue
        items = assembler.finish() if line is None else [
            item for part in line.removesuffix("\r").split("\r") for item in assembler.feed(part)]
        for item in items:   # a lone CR ends a line too (CR-only text from old editors and some pastes)
            try:
                with _ctrl_c_cancels(shell, renderer):
                    _, result = shell.execute(item.text)
            except KeyboardInterrupt:
                renderer.narrate("interrupted")
                continue
            renderer.result(0, item.text, "", result)
            if isinstance(result, Failure) and not interactive:
                code = max(code, failure_code(result))   # piped input exits like --batch without --bail
            if isinstance(result, Exit):
                return code
        if line is None:
            return code


@contextmanager
def _ctrl_c_cancels(shell, renderer):
    """While a job runs, Ctrl+C (SIGINT) asks it to stop through ctx.cancel, so it ends cleanly as
    "cancelled" (a /math worker killed, inference dropped); a second Ctrl+C interrupts outright."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    shell.ctx.cancel.clear()
    pressed = []

    def cancel(signum, frame) -> None:
        if pressed:
            raise KeyboardInterrupt
        pressed.append(1)
        shell.ctx.cancel.set()
        try:
            renderer.narrate("cancelling… (Ctrl+C again to interrupt)")
        except RuntimeError:      # the signal landed inside a write to stderr: the note can go
            pass

    previous = signal.signal(signal.SIGINT, cancel)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
