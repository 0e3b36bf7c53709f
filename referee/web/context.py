"""What the gRPC handlers read of a call, for an HTTP request: its metadata, its peer, and an
`abort` that ends it with a status. The handlers cannot tell it from a grpc.aio context.

Headers become the gRPC metadata: `Authorization: Bearer TOKEN` is the seat's token
(`x-seat-token`), `x-seat-token`, `x-create-token`, `x-referee-table` and `Accept-Language` pass
as they are. The peer is written as gRPC writes it (`ipv4:127.0.0.1:53211`), so an address's
quotas are one over both ports.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Sequence
from typing import NoReturn

import grpc
from multidict import MultiMapping

from referee.calls.metadata import CREATE_HEADER, LANGUAGE_HEADER, TABLE_HEADER, TOKEN_HEADER

PASSED = (TOKEN_HEADER, CREATE_HEADER, LANGUAGE_HEADER, TABLE_HEADER)
BEARER = "bearer "


class CallAborted(Exception):
    """The call ended with a status that is not OK (what `context.abort` raises)."""

    def __init__(
        self, code: grpc.StatusCode, message: str, trailers: Sequence[tuple[str, str]] = ()
    ) -> None:
        super().__init__(message)
        self.code, self.message, self.trailers = code, message, tuple(trailers)

    def trailer(self, key: str) -> str | None:
        return next((value for name, value in self.trailers if name == key), None)


class HttpCallContext:
    """The part of `grpc.aio.ServicerContext` the referee's handlers use."""

    def __init__(self, metadata: tuple[tuple[str, str], ...], peer: str) -> None:
        self._metadata, self._peer = metadata, peer
        self._trailers: tuple[tuple[str, str], ...] = ()
        self.opened = asyncio.Event()  # a stream's headers went out: it is open

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self._metadata

    def peer(self) -> str:
        return self._peer

    def set_trailing_metadata(self, trailers: Sequence[tuple[str, str]]) -> None:
        self._trailers = tuple(trailers)

    async def send_initial_metadata(self, _metadata: Sequence[tuple[str, str]]) -> None:
        self.opened.set()

    async def abort(self, code: grpc.StatusCode, details: str = "") -> NoReturn:
        raise CallAborted(code, details, self._trailers)


def metadata(headers: MultiMapping[str]) -> tuple[tuple[str, str], ...]:
    """The gRPC metadata of a request with `headers` (case-insensitive), each value of a header
    sent twice; a malformed `Authorization` header is a CallAborted (UNAUTHENTICATED)."""
    found = [(name, value) for name in PASSED for value in headers.getall(name, [])]
    authorization = headers.get("authorization")
    if authorization is not None:
        if not authorization.lower().startswith(BEARER):
            raise CallAborted(
                grpc.StatusCode.UNAUTHENTICATED,
                "the `Authorization` header is `Bearer` and a seat token",
            )
        found = [(n, v) for n, v in found if n != TOKEN_HEADER]
        found.append((TOKEN_HEADER, authorization[len(BEARER) :].strip()))
    return tuple(found)


def peer(peername: object) -> str:
    """A socket's peer name as gRPC writes a peer: `ipv4:HOST:PORT`, `ipv6:[HOST]:PORT`."""
    if not isinstance(peername, tuple) or len(peername) < 2:
        return "unix:"
    host, port = str(peername[0]), peername[1]
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return f"unknown:{host}:{port}"
    if address.version == 6:
        return f"ipv6:[{host}]:{port}"
    return f"ipv4:{host}:{port}"
