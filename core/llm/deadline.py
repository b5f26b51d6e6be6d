"""A total deadline for one HTTP call to a model server, on top of httpx's per-read timeouts.

httpx times each read, so a server that trickles a byte a second never times out. Requests
made inside `within(seconds)` get one absolute end instead: every read is given only the time
left, the body is checked between the pieces that arrive, and a timer shuts the socket when the
time is up so that a blocked read wakes. Past the end, reads raise `httpx.ReadTimeout`.
`within(..., max_bytes=N)` also caps the body: past N bytes, reading stops with `ReplyTooLarge`
(streamed or not), so a runaway reply never fills memory.
"""

from __future__ import annotations

import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import httpx

_local = threading.local()
_KEY = "sym.deadline"
_KEY_BYTES = "sym.max_bytes"


class ReplyTooLarge(Exception):
    """A reply body longer than the cap `within(max_bytes=…)` set; reading stopped there."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the reply is larger than {limit} bytes")
        self.limit = limit


class Pooled(Protocol):
    """A backend that keeps one HTTP client per timeout (see `pooled_client`)."""

    host: str
    timeout: float
    _lock: threading.Lock
    _clients: dict[float, Any]


@contextmanager
def within(seconds: float | None, *, max_bytes: int | None = None) -> Iterator[None]:
    """Requests sent by this thread inside the block must be answered within `seconds` in all,
    each with a body of at most `max_bytes` (None: no cap)."""
    previous = getattr(_local, "end", None), getattr(_local, "max_bytes", None)
    _local.end = time.monotonic() + seconds if seconds else None
    _local.max_bytes = max_bytes if max_bytes and max_bytes > 0 else None
    try:
        yield
    finally:
        _local.end, _local.max_bytes = previous


def event_hooks() -> dict[str, Any]:
    """httpx `event_hooks` that put the deadline on each request and its response body."""
    return {"request": [_on_request], "response": [_on_response]}


def _on_request(request: httpx.Request) -> None:
    cap = getattr(_local, "max_bytes", None)
    if cap is not None:
        request.extensions[_KEY_BYTES] = cap
    end = getattr(_local, "end", None)
    if end is None:
        return
    left = end - time.monotonic()
    if left <= 0:
        raise httpx.ReadTimeout("the deadline passed before the request was sent", request=request)
    given = request.extensions.get("timeout") or {}
    request.extensions["timeout"] = {k: left if given.get(k) is None else min(given[k], left)
                                     for k in ("connect", "read", "write", "pool")}
    request.extensions[_KEY] = end


def _on_response(response: httpx.Response) -> None:
    end = response.request.extensions.get(_KEY)
    cap = response.request.extensions.get(_KEY_BYTES)
    if end is not None or cap is not None:
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        assert isinstance(response.stream, httpx.SyncByteStream)   # the hooks are a sync client's
        response.stream = _Bounded(response.stream, end, sock, response.request, cap)


class _Bounded(httpx.SyncByteStream):
    """A response body that ends with ReadTimeout at `end`, however slowly it arrives, and with
    ReplyTooLarge past `cap` bytes."""

    def __init__(self, inner: httpx.SyncByteStream, end: float | None, sock: socket.socket | None,
                 request: httpx.Request, cap: int | None = None) -> None:
        self._inner, self._end, self._request, self._cap = inner, end, request, cap
        self._done = threading.Event()
        self._timer = None
        if sock is not None and end is not None:
            self._timer = threading.Timer(max(0.0, end - time.monotonic()), self._expire, (sock,))
            self._timer.daemon = True
            self._timer.start()

    def _expire(self, sock: socket.socket) -> None:
        if not self._done.is_set():      # never touch a connection that went back to the pool
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _timeout(self) -> httpx.ReadTimeout:
        return httpx.ReadTimeout("the reply did not end before the deadline", request=self._request)

    def __iter__(self) -> Iterator[bytes]:
        end, cap, read = self._end, self._cap, 0
        try:
            for piece in self._inner:
                if end is not None and time.monotonic() > end:
                    raise self._timeout()
                read += len(piece)
                if cap is not None and read > cap:
                    raise ReplyTooLarge(cap)
                yield piece
        except (httpx.ReadTimeout, ReplyTooLarge):
            raise
        except Exception:  # noqa: BLE001 — the timer shut the socket: that is the deadline, not the server
            if end is not None and time.monotonic() >= end - 0.01:
                raise self._timeout() from None
            raise
        finally:
            self._stop()

    def _stop(self) -> None:
        self._done.set()
        if self._timer is not None:
            self._timer.cancel()

    def close(self) -> None:
        self._stop()
        self._inner.close()


def pooled_client(backend: Pooled, timeout: float | None, make: Callable[[float, bool], Any]) -> Any:
    """`backend`'s HTTP client for `timeout` (one per distinct timeout, kept in `backend._clients`
    under `backend._lock`), made by `make(seconds, trust_env)` the first time. A proxy from the
    environment must not sit between us and a server on this machine, so it is not trusted then."""
    seconds = float(timeout or backend.timeout)
    with backend._lock:
        client = backend._clients.get(seconds)
        if client is None:
            name = urllib.parse.urlsplit(backend.host).hostname or ""
            local = name in ("localhost", "::1") or name.startswith("127.")
            client = backend._clients[seconds] = make(seconds, not local)
    return client


def close_clients(backend: Pooled) -> None:
    with backend._lock:
        for client in backend._clients.values():
            client.close()
        backend._clients.clear()

