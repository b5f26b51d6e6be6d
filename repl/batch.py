"""Batch mode: run a script of commands headless; results on stdout, narration on stderr.

Exit codes: 0 all commands succeeded, 1 a command failed, 2 usage or configuration,
3 the model server could not be reached, 4 a model or solver call timed out, 130 interrupted.
With --bail the run stops at the first failure and exits with its code; without it every
command runs and the exit code is the highest any failure had (so a run that met a dead server
exits 3 even when a later command only failed with 1).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from sym.core.errors import UserError
from sym.core.events import Progress, Warning
from sym.core.routes import Routes
from sym.repl.assemble import assemble
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import JsonRenderer, TextRenderer
from sym.repl.results import Exit, Failure, Result

OK, COMMAND_ERROR, USAGE, INTERRUPTED = 0, 1, 2, 130


def run_batch(source: str, *, json_lines: bool = False, bail: bool = False, echo: bool = False,
              out: TextIO | None = None, err: TextIO | None = None, debug: bool = False,
              memory: MemoryOptions | None = None) -> int:
    """Run the script at `source` ('-' = standard input); returns the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    renderer = JsonRenderer(out, err) if json_lines else TextRenderer(out, err, echo=echo)
    if source == "-":
        text, base_dir, label = sys.stdin.read(), None, "stdin"
    else:
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            err.write(f"sym: no such batch file: {source}\n")
            return USAGE
        except (OSError, UnicodeDecodeError) as e:
            err.write(f"sym: cannot read {source}: {getattr(e, 'strerror', None) or e}\n")
            return USAGE
        base_dir, label = path.resolve().parent, path.name

    narrate = narrator(renderer, err)
    items = assemble(text)
    try:
        # records a script stores are embedded for search later (the next interactive start, or a
        # /search, which waits for them), so a script that never searches never imports chromadb
        options = replace(memory or MemoryOptions(), background=False)
        shell = open_shell(options, emit=narrate, base_dir=base_dir, debug=debug,
                           first=items[0].text if items else None)
    except UserError as e:
        renderer.narrate(f"sym: {e}")
        return e.exit_code if e.exit_code != COMMAND_ERROR else USAGE
    shell.ctx.patient, shell.ctx.confirms = True, False
    try:
        return _run(shell, renderer, items, label, bail)
    finally:
        shell.close()


def _run(shell, renderer, items: list, label: str, bail: bool) -> int:
    code = OK
    try:
        for item in items:
            renderer.begin(item.line, item.text)
            name, result = shell.execute(item.text, source=f"{label}:{item.line}")
            renderer.result(item.line, item.text, name, result)
            if shell.deferred is not None:
                if (opened := settle(shell, renderer)) != OK:
                    return opened
            if isinstance(result, Failure) or not result.ok:     # a chat turn that did nothing, too
                failed = failure_code(result)
                if bail:
                    return failed
                code = max(code, failed)
            if isinstance(result, Exit):
                break
    except KeyboardInterrupt:
        renderer.narrate("interrupted")
        return INTERRUPTED
    return code


def settle(shell, renderer) -> int:
    """After the first input: open the workspace a script did not switch away from (exit 2 when
    it cannot be, as at the start)."""
    try:
        shell.settle()
    except UserError as e:
        renderer.narrate(f"sym: {e}")
        return e.exit_code if e.exit_code != COMMAND_ERROR else USAGE
    return OK


def failure_code(result: Result) -> int:
    """The exit code a failed result stands for (3 unreachable, 4 timeout, …; 1 when it names none).
    A run without --bail exits with the highest of these (see the module docstring)."""
    code = getattr(result, "exit_code", COMMAND_ERROR)
    return code if isinstance(code, int) and not isinstance(code, bool) and code > 0 else COMMAND_ERROR


def narrator(renderer, err: TextIO):
    """The event subscriber of a headless front-end: warnings always, progress on a terminal."""
    show_progress = hasattr(err, "isatty") and err.isatty()

    def progress(event: Progress) -> None:
        if show_progress and event.total >= 1000:
            width = 30
            filled = width * event.done // max(event.total, 1)
            end = "\n" if event.done >= event.total else ""
            err.write(f"\r{event.task} [{'#' * filled}{'.' * (width - filled)}] {event.done}/{event.total}{end}")
            err.flush()

    return Routes({Warning: lambda event: renderer.narrate(f"warning: {event.message}"), Progress: progress})
