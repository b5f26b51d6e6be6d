"""Piped input: `sym` with standard input not a terminal reads its lines and prints results.

It shares the dispatcher and renderer with batch mode; the interactive front-ends are the
prompt-toolkit REPL (`sym --plain`, repl/prompt.py) and the Textual app, over the same Shell.
"""

from __future__ import annotations

import itertools
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from sym.core.errors import UserError
from sym.repl.assemble import Assembler, Input
from sym.repl.batch import failure_code, narrator, settle
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import TextRenderer
from sym.repl.results import Exit, Failure


def run_piped(*, debug: bool = False, memory: MemoryOptions | None = None) -> int:
    """Read standard input line by line as `--batch -` does: lines recorded as stdin:N, a search
    waits for embedding, and a pipe that starts with `/workspace NAME` never opens the other."""
    renderer = TextRenderer(sys.stdout, sys.stderr)
    interactive = sys.stdin.isatty()
    if interactive:
        print("sym — type /help for commands, /bye to leave")
    inputs = _inputs(Assembler(), interactive)
    first = next(inputs, None)
    options = memory or MemoryOptions()
    if not interactive:     # embedded only when a search needs it, as in batch mode
        options = replace(options, background=False)
    try:
        shell = open_shell(options, emit=narrator(renderer, sys.stderr), debug=debug,
                           first=first.text if first is not None else None)
    except UserError as e:
        renderer.narrate(f"sym: {e}")
        return 2 if e.exit_code == 1 else e.exit_code
    shell.ctx.patient, shell.ctx.confirms = not interactive, interactive
    try:
        return _loop(shell, renderer, itertools.chain([first] if first is not None else [], inputs), interactive)
    finally:
        # the background writer may be opening the vector store for what an earlier run left
        # pending: stopped here after its batch, not cut off by interpreter shutdown (which made
        # a sound store look broken: "can't register atexit after shutdown; run: sym repair")
        shell.close()


def _inputs(assembler: Assembler, interactive: bool) -> Iterator[Input]:
    """Whole inputs from standard input, as the lines come (Ctrl+C drops the open one)."""
    while True:
        try:
            line = input(("… " if assembler.pending else "sym> ") if interactive else "")
        except EOFError:
            yield from assembler.finish()
            return
        except KeyboardInterrupt:
            assembler.reset()
            print()
            continue
        for part in line.removesuffix("\r").split("\r"):  # a lone CR ends a line too (old editors, pastes)
            yield from assembler.feed(part)


def _loop(shell, renderer: TextRenderer, inputs: Iterator[Input], interactive: bool) -> int:
    code = 0
    for item in inputs:
        try:
            with _ctrl_c_cancels(shell, renderer):
                _, result = shell.execute(item.text, source="typed" if interactive else f"stdin:{item.line}")
        except KeyboardInterrupt:
            renderer.narrate("interrupted")
            continue
        renderer.result(0, item.text, "", result)
        if (isinstance(result, Failure) or not result.ok) and not interactive:
            code = max(code, failure_code(result))   # piped input exits like --batch without --bail
        if shell.deferred is not None and (opened := settle(shell, renderer)):
            return opened
        if isinstance(result, Exit):
            return code
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
