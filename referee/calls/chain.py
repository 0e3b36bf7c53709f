"""The referee's method handlers behind the server's own interceptors, for a caller that is not
a gRPC client: the HTTP gateway (`referee.web`) runs every request through them.

The interceptors are the gRPC server's very objects (`LimitsInterceptor`, `CreateTokenInterceptor`),
so an address's quotas count its gRPC and its HTTP requests alike, and the handlers are those of
`wire.add_referee_servicer` (bytes in, the servicer's answer out): an HTTP request is judged
exactly as the same request over gRPC would be, by the same code. The quotas' own object is there
too (`charge`), for the work an HTTP request costs before it is a call: reading its body.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NamedTuple

import grpc

from referee.calls.limits import LimitsInterceptor, address_of
from referee.calls.wire import SERVICE, method_handler


class CallDetails(NamedTuple):
    """What an interceptor reads of a call (grpc.HandlerCallDetails' two fields)."""

    method: str  # `/referee.v1.Referee/Propose`
    invocation_metadata: tuple[tuple[str, str], ...]


class HandlerChain:
    def __init__(self, servicer: Any, interceptors: Sequence[grpc.aio.ServerInterceptor]) -> None:
        self._handlers = {m.name: method_handler(m, servicer) for m in SERVICE.methods}
        self._interceptors = tuple(interceptors)
        self._quotas = next((i for i in interceptors if isinstance(i, LimitsInterceptor)), None)

    def charge(self, peer: str, cost: int) -> None:
        """Take `cost` of the quota of `peer`'s address (`ipv4:10.0.0.7:53211`); a
        `limits.Exhausted` when it has not got it."""
        if self._quotas is not None:
            self._quotas.charge(address_of(peer), cost)

    async def handler(self, rpc: str, metadata: tuple[tuple[str, str], ...]) -> Any:
        """The handler of `rpc` (`Propose`) for a call with `metadata`, as the gRPC server
        would run it, the first interceptor outermost: a `grpc.RpcMethodHandler` whose
        `unary_unary` (or `unary_stream`) takes the request's bytes and a call context."""
        details = CallDetails(f"/{SERVICE.full_name}/{rpc}", metadata)
        return await self._through(0, details)

    async def _through(self, index: int, details: CallDetails) -> Any:
        if index == len(self._interceptors):
            return self._handlers[details.method.rpartition("/")[2]]
        following: Callable[[Any], Awaitable[Any]] = functools.partial(self._through, index + 1)
        return await self._interceptors[index].intercept_service(following, details)  # type: ignore[arg-type]
