"""`sym mcp --http HOST:PORT`: the server on the spec's Streamable HTTP transport, one process for
many clients of one workspace (their calls still run one at a time on the workspace's thread).

Loopback (127.0.0.1, ::1, localhost) is the default and the SDK checks its Host and Origin
headers; any other address needs a bearer token, from $SYM_MCP_TOKEN or a file, and a browser's
Origin is taken only from that address or loopback. The token is compared in constant time and
never written anywhere (no access log is kept). Nothing here knows sym's tools.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import uvicorn  # loaded with the SDK's server already (it serves HTTP with it)

from sym.core.errors import UserError

TOKEN_ENV = "SYM_MCP_TOKEN"
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}
GRACE = 5            # seconds a shutting-down server waits for its connections to close


def address(text: str) -> tuple[str, int]:
    """HOST:PORT (or :PORT, or PORT) as a host and port; [::1]:PORT for IPv6."""
    text = text.strip()
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    host = host.strip("[]") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise UserError(f"--http takes HOST:PORT, not {text!r}", hint="e.g. --http 127.0.0.1:8765")
    return host, number


def loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def token(token_file: str | None) -> str | None:
    """The bearer token: the file's first line, else $SYM_MCP_TOKEN, else none."""
    if token_file:
        try:
            found = Path(token_file).expanduser().read_text(encoding="utf-8").strip().splitlines()
        except OSError as err:
            raise UserError(f"cannot read the token file {token_file}: {err.strerror or err}") from None
        if not found or not found[0].strip():
            raise UserError(f"the token file {token_file} is empty")
        return found[0].strip()
    return os.environ.get(TOKEN_ENV, "").strip() or None


class Guard:
    """ASGI middleware: a request without the bearer token (when one is set) gets 401, one whose
    Origin is neither the served address nor loopback gets 403; nothing of the token is logged."""

    def __init__(self, app: Any, secret: str | None, host: str):
        self.app, self.secret, self.host = app, secret, host.lower()

    def _origin_ok(self, origin: str) -> bool:
        try:
            found = (urlsplit(origin).hostname or "").lower()
        except ValueError:
            return False
        return loopback(found) or (found == self.host and self.host not in ("0.0.0.0", "::"))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        origin = headers.get("origin")
        if origin and not self._origin_ok(origin):
            await _reply(send, 403, "this Origin may not call this server")
            return
        if self.secret is not None:
            given = headers.get("authorization", "")
            scheme, _, value = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), self.secret.encode()):
                await _reply(send, 401, "a bearer token is needed (Authorization: Bearer …)",
                             [(b"www-authenticate", b"Bearer")])
                return
        await self.app(scope, receive, send)


async def _reply(send: Any, status: int, text: str, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


def app(server: Any, host: str, secret: str | None) -> Any:
    """The ASGI app: the SDK's Streamable HTTP app for `server` at /mcp, behind the guard."""
    from mcp.server.transport_security import TransportSecuritySettings

    security = None if loopback(host) else TransportSecuritySettings(enable_dns_rebinding_protection=False)
    inner = server.streamable_http_app(host="127.0.0.1" if host == "localhost" else host,
                                       transport_security=security, session_idle_timeout=None)
    return Guard(inner, secret, host)


def run(server: Any, where: str, token_file: str | None, ready: Any = None, closing: Any = None) -> None:
    """Serve until interrupted. A non-loopback address without a token is refused (UserError).
    `closing` is called as shutdown starts, on the server's loop: it ends the streams the server
    holds open (subscriptions/listen), which would otherwise keep their connections, and the
    server, up; a connection still open GRACE seconds later is cut."""
    host, port = address(where)
    secret = token(token_file)
    if secret is None and not loopback(host):
        raise UserError(f"serving on {host} needs a bearer token",
                        hint=f"set {TOKEN_ENV} or give --token-file FILE (loopback needs none)")
    config = uvicorn.Config(app(server, host, secret), host=host, port=port, log_level="warning", access_log=False,
                            lifespan="on", ws="none", timeout_graceful_shutdown=GRACE)
    served = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host

    async def started() -> None:
        await served.serve()

    original = served.startup

    async def startup(*args: Any, **kwargs: Any) -> None:
        await original(*args, **kwargs)
        ports = [s.getsockname()[1] for srv in getattr(served, "servers", []) for s in srv.sockets]
        sys.stderr.write(f"sym: serving MCP on http://{shown}:{ports[0] if ports else port}/mcp"
                         f"{' (bearer token required)' if secret else ''}\n")
        sys.stderr.flush()
        if ready is not None:
            ready()

    served.startup = startup       # type: ignore[method-assign]
    stop = served.shutdown

    async def shutdown(*args: Any, **kwargs: Any) -> None:
        if closing is not None:
            closing()
        await stop(*args, **kwargs)

    served.shutdown = shutdown     # type: ignore[method-assign]
    anyio.run(started)
