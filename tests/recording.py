"""A session recorded against the scripted Ollama-protocol server, then replayed offline: what the
sampling tests use to show that every sample's call is in the session and replay is exact."""

from __future__ import annotations

import io
from typing import Any

from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.replay import replay
from sym.sessions.log import read_session


def recorded(server, *commands: str) -> tuple[list[Any], list[dict[str, Any]], Any]:
    """`commands` run in a recording shell on `server`, which is then stopped: (their results,
    the session's model calls, the session's path)."""
    shell = open_shell(MemoryOptions(persistent=False), record=True)
    shell.ctx.settings.ollama_host = server.url
    try:
        results = [shell.execute(command)[1] for command in commands]
        path = shell.ctx.session.path
    finally:
        shell.close()
    server.stop()
    return results, read_session(path).llm_calls(), path


def replays_exactly(path) -> bool:
    """Whether an offline replay of the session at `path` gives the same outputs, skipping nothing."""
    report = replay(read_session(path), offline=True, verify=True, out=io.StringIO(), err=io.StringIO())
    return report.differences == [] and not report.skipped
