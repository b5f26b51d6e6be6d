"""Batch mode: run a script of commands headless; results on stdout, narration on stderr.

Exit codes: 0 all commands succeeded, 1 a command failed, 2 usage or configuration,
130 interrupted.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from core.events import Warning
from repl.dispatcher import Shell, split_inputs
from repl.render import JsonRenderer, TextRenderer
from repl.results import Exit, Failure

OK, COMMAND_ERROR, USAGE, INTERRUPTED = 0, 1, 2, 130


def run_batch(source: str, *, json_lines: bool = False, bail: bool = False, echo: bool = False,
              out: TextIO | None = None, err: TextIO | None = None, debug: bool = False) -> int:
    """Run the script at `source` ('-' = standard input); returns the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    renderer = JsonRenderer(out, err) if json_lines else TextRenderer(out, err, echo=echo)
    if source == "-":
        text, base_dir = sys.stdin.read(), None
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
        base_dir = path.resolve().parent

    def narrate(event: object) -> None:
        if isinstance(event, Warning):
            renderer.narrate(f"warning: {event.message}")

    shell = Shell(emit=narrate, base_dir=base_dir, debug=debug)
    failures = 0
    try:
        for item in split_inputs(text):
            renderer.begin(item.line, item.text)
            name, result = shell.execute(item.text)
            renderer.result(item.line, item.text, name, result)
            if isinstance(result, Failure):
                failures += 1
                if bail:
                    return result.exit_code
            if isinstance(result, Exit):
                break
    except KeyboardInterrupt:
        renderer.narrate("interrupted")
        return INTERRUPTED
    return COMMAND_ERROR if failures else OK
