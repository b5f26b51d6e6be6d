"""Starting a worker process (the /math worker, the Z3 worker) from any front-end.

`start(proc)` starts a multiprocessing child so that neither the TUI nor a terminal's Ctrl+C can
break it: sys.stderr gets a real file descriptor while it starts (Textual replaces it with an
object whose fileno() is -1, and multiprocessing hands that number to the helper processes it
starts, failing with "bad value(s) in fds_to_keep"; they get /dev/null instead, so nothing they
print lands on the TUI's screen), and SIGINT is blocked while it starts, so the forkserver, which
spends its first second importing its preloads before it ignores Ctrl+C itself, is not killed by
a Ctrl+C the terminal sends to every process of the job. Ctrl+C is the shell's; it stops a worker
by kill. The resource tracker is started first: it unblocks SIGINT once it has started.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker
from typing import Any


@contextmanager
def stderr_with_fd() -> Iterator[None]:
    """While inside, sys.stderr has a real file descriptor (/dev/null where it had none)."""
    try:
        usable = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable:
        yield
        return
    saved = sys.stderr
    with open(os.devnull, "w", encoding="utf-8") as null:
        sys.stderr = null
        try:
            yield
        finally:
            sys.stderr = saved


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """While inside, this thread does not take SIGINT, and the processes it starts inherit that."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def start(proc: Any) -> None:
    """Start a multiprocessing Process as the module docstring says (OSError, EOFError as start does)."""
    with stderr_with_fd():
        resource_tracker.ensure_running()
        with sigint_blocked():
            proc.start()
