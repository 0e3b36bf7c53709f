"""At most so many open HTTP connections from one address: one past it is closed as it opens.

A protocol of its own wraps aiohttp's for each connection, counting the connections of each
address (the peer's host, its port aside), so a client that opens a thousand connections and
sends nothing holds a few hundred descriptors at most; the rest are closed at once, before they
hold a request handler. (gRPC's core has no such cap: `referee.app` closes its idle and
unfinished connections instead.)
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import cast


class PeerConnections:
    """The protocol factory of the HTTP server: aiohttp's (`factory`), at most `most` open
    connections from one address (0: no limit)."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], most: int) -> None:
        self._factory, self._most = factory, most
        self._open: Counter[str] = Counter()

    def __call__(self) -> asyncio.Protocol:
        return _Counted(self, self._factory())

    def enter(self, host: str) -> bool:
        if self._most and self._open[host] >= self._most:
            return False
        self._open[host] += 1
        return True

    def leave(self, host: str) -> None:
        self._open[host] -= 1
        if not self._open[host]:
            del self._open[host]


class _Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, counted against its address while it is open."""

    def __init__(self, connections: PeerConnections, inner: asyncio.Protocol) -> None:
        self._connections, self._inner = connections, inner
        self._host: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peername = transport.get_extra_info("peername")
        host = str(peername[0]) if isinstance(peername, tuple) and peername else ""
        if not self._connections.enter(host):
            cast(asyncio.Transport, transport).abort()
            return
        self._host = host
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._host is None:
            return
        self._connections.leave(self._host)
        self._host = None
        self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._host is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._host is not None else None

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()
