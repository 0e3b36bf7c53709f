"""What one client may take of the server: requests a second per peer and per seat token, tables
created per peer, open Watch streams per peer. Over a limit: RESOURCE_EXHAUSTED, with the wait
in the `grpc-retry-pushback-ms` trailer (what gRPC's own retry policy reads).

A peer is the client's address without its port: its connections share one quota. The checks
run on the server's event loop, one at a time, so the counters need no lock. Health checks are
never limited: a balancer must always hear the truth.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import grpc

from referee.server.metadata import TOKEN_HEADER, metadata_value

HEALTH_PREFIX = "/grpc.health.v1.Health/"
CREATE_TABLE = "/referee.v1.Referee/CreateTable"
MAX_TRACKED = 100_000  # peers or tokens with a bucket; the least recently seen are forgotten


@dataclass(frozen=True)
class Rate:
    """A token bucket's shape: `per_second` on average, `burst` at once."""

    per_second: float
    burst: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """`50` (50 a second, bursts of 100) or `50/10` (bursts of 10); `0`: no limit."""
        rate, _, burst = text.partition("/")
        per_second = float(rate)
        if not math.isfinite(per_second) or per_second < 0:
            raise ValueError(f"not a rate: `{text}`")
        return cls(per_second, int(burst) if burst else max(1, math.ceil(2 * per_second)))

    @property
    def unlimited(self) -> bool:
        return self.per_second == 0

    def __str__(self) -> str:
        return "no limit" if self.unlimited else f"{self.per_second:g} a second"


NO_LIMIT = Rate(0, 0)


@dataclass(frozen=True)
class Limits:
    """Every quota, each a `serve` flag. The defaults leave room for a club behind one address."""

    concurrent_rpcs: int = 4096  # grpc's maximum_concurrent_rpcs, streams included
    streams_per_peer: int = 256
    streams_per_table: int = 64  # enforced by the service, which knows the tables
    peer_rate: Rate = Rate(1000, 2000)
    token_rate: Rate = Rate(50, 100)
    create_rate: Rate = Rate(20, 200)  # tables created per peer

    def without_rates(self) -> Limits:
        """The same, with no rate quota: for clients that are bots far faster than people."""
        return replace(self, peer_rate=NO_LIMIT, token_rate=NO_LIMIT, create_rate=NO_LIMIT)


class Buckets:
    """One token bucket per key, the least recently used forgotten past `MAX_TRACKED` (a
    forgotten key starts full again: at worst a burst more for a client that cycles keys,
    which the peer's own bucket still bounds)."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate, self._clock = rate, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, stamp

    def wait_ms(self, key: str) -> int:
        """0 after taking a token for `key`; else how long until one is there (none taken)."""
        if self._rate.unlimited:
            return 0
        now = self._clock()
        tokens, stamp = self._buckets.pop(key, (float(self._rate.burst), now))
        tokens = min(float(self._rate.burst), tokens + (now - stamp) * self._rate.per_second)
        wait = 0 if tokens >= 1 else math.ceil(1000 * (1 - tokens) / self._rate.per_second)
        self._buckets[key] = (tokens - 1 if wait == 0 else tokens, now)
        if len(self._buckets) > MAX_TRACKED:
            self._buckets.popitem(last=False)
        return wait


def peer_address(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    """`ipv4:10.0.0.7:53211` -> `ipv4:10.0.0.7`; `ipv6:[::1]:53211` -> `ipv6:[::1]`."""
    peer = context.peer() or ""
    scheme, _, rest = peer.partition(":")
    if scheme in ("ipv4", "ipv6"):
        host, _, _ = rest.rpartition(":")
        return f"{scheme}:{host}"
    return peer


class Exhausted(Exception):
    def __init__(self, message: str, wait_ms: int = 0) -> None:
        super().__init__(message)
        self.message, self.wait_ms = message, wait_ms


class LimitsInterceptor(grpc.aio.ServerInterceptor):
    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self._limits = limits
        self._by_peer = Buckets(limits.peer_rate, clock)
        self._by_token = Buckets(limits.token_rate, clock)
        self._creations = Buckets(limits.create_rate, clock)
        self._streams: dict[str, int] = {}

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[Any]], details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(details)
        if handler is None or details.method.startswith(HEALTH_PREFIX):
            return handler
        token = metadata_value(details.invocation_metadata, TOKEN_HEADER)
        if handler.unary_unary is not None:
            return _unary(handler, self._checked(details.method, token))
        if handler.unary_stream is not None:
            return _stream(handler, self._checked(details.method, token), self._stream_slot)
        return handler  # the referee has no client-streaming call

    def _checked(self, method: str, token: str | None) -> Callable[[str], None]:
        def check(peer: str) -> None:
            self._admit(method, token, peer)

        return check

    def _admit(self, method: str, token: str | None, peer: str) -> None:
        limits = self._limits
        wait = self._by_peer.wait_ms(peer)
        if wait:
            raise Exhausted(
                f"too many requests from this address: at most {limits.peer_rate}", wait
            )
        wait = self._by_token.wait_ms(token) if token else 0
        if wait:
            raise Exhausted(
                f"too many requests with this seat token: at most {limits.token_rate}", wait
            )
        wait = self._creations.wait_ms(peer) if method == CREATE_TABLE else 0
        if wait:
            raise Exhausted(
                f"too many tables created from this address: at most {limits.create_rate}", wait
            )

    def _stream_slot(self, peer: str) -> _StreamSlot:
        return _StreamSlot(self._streams, peer, self._limits.streams_per_peer)


class _StreamSlot:
    """One open stream of a peer, counted while it lasts."""

    def __init__(self, counts: dict[str, int], peer: str, most: int) -> None:
        if most and counts.get(peer, 0) >= most:
            raise Exhausted(f"too many open Watch streams from this address: at most {most}")
        counts[peer] = counts.get(peer, 0) + 1
        self._counts, self._peer = counts, peer

    def release(self) -> None:
        left = self._counts[self._peer] - 1
        if left:
            self._counts[self._peer] = left
        else:
            del self._counts[self._peer]


async def _refuse(context: grpc.aio.ServicerContext[Any, Any], refused: Exhausted) -> None:
    if refused.wait_ms:
        context.set_trailing_metadata((("grpc-retry-pushback-ms", str(refused.wait_ms)),))
    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, refused.message)


def _unary(handler: Any, check: Callable[[str], None]) -> Any:
    async def behavior(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        try:
            check(peer_address(context))
        except Exhausted as refused:
            await _refuse(context, refused)
        return await handler.unary_unary(request, context)

    return grpc.unary_unary_rpc_method_handler(
        behavior,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )


def _stream(handler: Any, check: Callable[[str], None], slot: Callable[[str], _StreamSlot]) -> Any:
    async def behavior(
        request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[Any]:
        peer = peer_address(context)
        try:
            check(peer)
            held = slot(peer)
        except Exhausted as refused:
            await _refuse(context, refused)
        try:
            async for answer in handler.unary_stream(request, context):
                yield answer
        finally:
            held.release()

    return grpc.unary_stream_rpc_method_handler(
        behavior,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )
