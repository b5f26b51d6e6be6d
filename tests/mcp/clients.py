"""A `sym mcp` spoken to with the SDK's high-level `mcp.Client` (stdio or Streamable HTTP, any
protocol mode, with an elicitation callback), driven from sync tests through a blocking portal."""

from __future__ import annotations

import os
import subprocess
import threading
from contextlib import asynccontextmanager
from pathlib import Path

from anyio.from_thread import start_blocking_portal

from tests.ollama_server import unused_url

GUARD = 120          # seconds: only a server that never answers waits this long (the test then fails)


def env(home: Path, **extra: str) -> dict[str, str]:
    """A server's environment: its own SYM_HOME, no model, and no warm-up (these servers live for a
    test or two: test_mcp.py's and test_mcp_wire.py's servers warm up as a host's would)."""
    return {"SYM_HOME": str(home), "SYM_CONFIG": str(home / "config.toml"), "OLLAMA_HOST": unused_url(),
            "PATH": os.environ.get("PATH", ""), "SYM_MCP_WARM": "0", **extra}


class Agent:
    """One client of a `sym mcp` server: `server` is the command's arguments (stdio) or a URL."""

    def __init__(self, server, *, mode: str = "legacy", cwd: Path | None = None, home: Path | None = None,
                 elicit=None, headers: dict[str, str] | None = None, on_message=None):
        self.server, self.mode, self.cwd, self.home = server, mode, cwd, home
        self.elicit, self.headers, self.on_message = elicit, headers, on_message
        self.errlog = (home / f"stderr-{id(self)}.txt").open("w+") if home is not None else None

    @asynccontextmanager
    async def _connect(self):
        from mcp import Client, StdioServerParameters

        if isinstance(self.server, str):
            from mcp.client.streamable_http import streamable_http_client
            from mcp.shared._httpx_utils import create_mcp_http_client

            target = streamable_http_client(self.server, http_client=create_mcp_http_client(headers=self.headers))
        else:
            target = StdioServerParameters(command=self.server[0], args=list(self.server[1:]), env=env(self.home),
                                           cwd=str(self.cwd))
        async with Client(target, mode=self.mode, elicitation_callback=self.elicit,
                          message_handler=self.on_message, read_timeout_seconds=GUARD) as client:
            yield client

    def __enter__(self) -> Agent:
        self._portal_cm = start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        self._client_cm = self.portal.wrap_async_context_manager(self._connect())
        self.client = self._client_cm.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self._client_cm.__exit__(*exc)
        finally:
            self._portal_cm.__exit__(*exc)
            if self.errlog is not None:
                self.errlog.close()

    def run(self, fn, *args):
        """Await `fn(client, *args)` on this agent's loop."""
        return self.portal.call(fn, self.client, *args)

    def call(self, tool: str, **arguments):
        return self.portal.call(lambda: self.client.call_tool(tool, arguments))


class HttpServer:
    """`sym mcp --http 127.0.0.1:0 ...` as a child; `url` once it says where it serves."""

    def __init__(self, sym_exe: list[str], home: Path, cwd: Path, *args: str, **extra_env: str):
        self.errpath = home / "http-stderr.txt"
        self.errlog = self.errpath.open("w+")
        self.proc = subprocess.Popen([*sym_exe, "mcp", "--http", "127.0.0.1:0", *args], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(home, **extra_env),
                                     cwd=cwd, text=True)
        self.url: str | None = None
        found = threading.Event()

        def read() -> None:
            for line in self.proc.stderr:
                self.errlog.write(line)
                self.errlog.flush()
                if "serving MCP on " in line and self.url is None:
                    self.url = line.split("serving MCP on ", 1)[1].split()[0]
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        found.wait(GUARD)
        assert self.url, self.stderr()

    def stderr(self) -> str:
        return self.errpath.read_text()

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(GUARD)
        finally:
            self.errlog.close()
