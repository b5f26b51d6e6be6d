"""The Textual front-end. Importing this package is cheap: textual loads inside `run_tui`."""

from __future__ import annotations


def run_tui(*, debug: bool = False, memory=None) -> int:
    """Open the TUI on the workspace `memory` (a MemoryOptions) names; returns the exit code."""
    from sym.repl.tui.app import SymApp

    app = SymApp(options=memory, debug=debug)
    code = app.run()
    app.close_shell()
    return code if isinstance(code, int) else (app.return_code or 0)
