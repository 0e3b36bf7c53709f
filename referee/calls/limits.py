"""What one client may take of the server: requests a second per peer and per seat token, tables
created per peer, open Watch streams per peer. Over a limit: RESOURCE_EXHAUSTED, with the wait
in the `grpc-retry-pushback-ms` trailer (what gRPC's own retry policy reads).

A peer is the client's address without its port: its connections share one quota. A call costs
its method's cost (`COSTS`: a replay, an explanation, a whole record cost more than a view) and
one more for every `BYTES_PER_TOKEN` its request carries; the HTTP gateway charges the peer for
the bodies it reads too (`charge`). A seat token has a bucket of its own only once it has
authenticated (a call with it ended OK), kept under the token's digest: a token never seen to
work costs its peer's bucket alone, so made-up tokens neither escape the peer's quota nor fill
the memory. The checks run on the server's event loop, one at a time, so the counters need no
lock. Health checks are never limited: a balancer must always hear the truth.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import grpc

from referee.calls.metadata import TOKEN_HEADER, metadata_value
from referee.calls.refusals import refused

HEALTH_PREFIX = "/grpc.health.v1.Health/"
CREATE_TABLE = "/referee.v1.Referee/CreateTable"
MAX_TRACKED = 100_000  # peers or tokens with a bucket; the least recently seen are forgotten
SERVICE_PREFIX = "/referee.v1.Referee/"
# what a call of each method costs of its buckets (any other: 1); docs/deploying.md, "Quotas"
COSTS = {
    "Adjudicate": 10,  # replays a whole record
    "Explain": 5,  # folds a table's log to a version
    "GetRecord": 5,  # exports a whole record, signed
}
BYTES_PER_TOKEN = 16 * 1024  # a request costs one more for each 16 KiB it carries
# the methods whose OK answer proves the seat token sent with them (each refuses a wrong one)
SEATED = frozenset({"Propose", "GetView", "GetRecord", "Explain", "Watch"})


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
    which the peer's own bucket still bounds).

    A call costing more than the burst is let through on a full bucket and leaves it in debt,
    so a large request waits for its whole cost, however the burst is set."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate, self._clock = rate, clock
        self._buckets: OrderedDict[object, tuple[float, float]] = OrderedDict()  # tokens, stamp

    def wait_ms(self, key: object, cost: int = 1) -> int:
        """0 after taking `cost` tokens for `key`; else how long until they are there (none
        taken). A cost of 0 takes nothing but is let through only while a token is there."""
        if self._rate.unlimited:
            return 0
        now = self._clock()
        tokens = self._tokens(key, now)
        needed = min(max(cost, 1), self._rate.burst)  # even a call costing 0 needs one there
        wait = (
            0 if tokens >= needed else math.ceil(1000 * (needed - tokens) / self._rate.per_second)
        )
        self._put(key, tokens - cost if wait == 0 else tokens, now)
        return wait

    def __contains__(self, key: object) -> bool:
        return key in self._buckets

    def open(self, key: object, cost: int = 1) -> None:
        """Give `key` a bucket, `cost` already taken from it (if it has none)."""
        if not self._rate.unlimited and key not in self._buckets:
            self._put(key, float(self._rate.burst - cost), self._clock())

    def _tokens(self, key: object, now: float) -> float:
        tokens, stamp = self._buckets.pop(key, (float(self._rate.burst), now))
        return min(float(self._rate.burst), tokens + (now - stamp) * self._rate.per_second)

    def _put(self, key: object, tokens: float, now: float) -> None:
        self._buckets[key] = (tokens, now)
        if len(self._buckets) > MAX_TRACKED:
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)


def cost(method: str, size: int) -> int:
    """What a call of `method` (`/referee.v1.Referee/Explain`) with a request of `size` bytes
    costs of its buckets."""
    return COSTS.get(method.rpartition("/")[2], 1) + size // BYTES_PER_TOKEN


def token_digest(token: str) -> bytes:
    """The key of a seat token's bucket: its digest, never the token (which may be 7,000 made-up
    characters, once each)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def peer_address(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    """`ipv4:10.0.0.7:53211` -> `ipv4:10.0.0.7`; `ipv6:[::1]:53211` -> `ipv6:[::1]`."""
    return address_of(context.peer() or "")


def address_of(peer: str) -> str:
    """A peer as gRPC writes it without its port: the key of its address's quotas."""
    scheme, _, rest = peer.partition(":")
    if scheme in ("ipv4", "ipv6"):
        host, _, _ = rest.rpartition(":")
        return f"{scheme}:{host}"
    return peer


class Exhausted(Exception):
    """A quota spent: which one (`quota`, the flag's name: `peer_rate`), and how long to wait."""

    def __init__(self, message: str, wait_ms: int = 0, quota: str = "peer_rate") -> None:
        super().__init__(message)
        self.message, self.wait_ms, self.quota = message, wait_ms, quota


class LimitsInterceptor(grpc.aio.ServerInterceptor):
    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float] = time.monotonic,
        *,
        every_token: bool = False,
    ) -> None:
        """`every_token`: every token string seen gets a bucket, unproven, as before issue 25
        (the control of tests/harden/test_token_buckets.py: never for serving)."""
        self._limits, self._every_token = limits, every_token
        self._by_peer = Buckets(limits.peer_rate, clock)
        self._by_token = Buckets(limits.token_rate, clock)  # authenticated tokens' digests only
        self._creations = Buckets(limits.create_rate, clock)
        self._streams: dict[str, int] = {}

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[Any]], details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(details)
        if handler is None or details.method.startswith(HEALTH_PREFIX):
            return handler
        token = metadata_value(details.invocation_metadata, TOKEN_HEADER)
        key = (token if self._every_token else token_digest(token)) if token else None
        call = _Call(self, details.method, key)
        if handler.unary_unary is not None:
            return _unary(handler, call)
        if handler.unary_stream is not None:
            return _stream(handler, call, self._stream_slot)
        return handler  # the referee has no client-streaming call

    def charge(self, peer: str, cost: int) -> None:
        """Take `cost` of `peer`'s bucket for work that is not a call (the HTTP gateway reading
        a body); an Exhausted if the bucket has not got it."""
        wait = self._by_peer.wait_ms(peer, cost)
        if wait:
            counts = f" (this request counts {cost})" if cost > 1 else ""
            raise Exhausted(
                f"too many requests from this address: at most {self._limits.peer_rate}{counts}",
                wait,
            )

    def tracked_tokens(self) -> int:
        """How many seat tokens have a bucket (each one that authenticated, recently)."""
        return len(self._by_token)

    def _admit(self, method: str, key: object, peer: str, cost: int) -> None:
        limits = self._limits
        self.charge(peer, cost)
        known = key is not None and (self._every_token or key in self._by_token)
        wait = self._by_token.wait_ms(key, cost) if known else 0
        if wait:
            counts = f" (this request counts {cost})" if cost > 1 else ""
            raise Exhausted(
                f"too many requests with this seat token: at most {limits.token_rate}{counts}",
                wait,
                "token_rate",
            )
        wait = self._creations.wait_ms(peer) if method == CREATE_TABLE else 0
        if wait:
            raise Exhausted(
                f"too many tables created from this address: at most {limits.create_rate}",
                wait,
                "create_rate",
            )

    def _authenticated(self, key: object, cost: int) -> None:
        self._by_token.open(key, cost)

    def _stream_slot(self, peer: str) -> _StreamSlot:
        return _StreamSlot(self._streams, peer, self._limits.streams_per_peer)


class _Call:
    """One call's passage through the quotas: admitted by its cost, and its seat token given a
    bucket once the call proved it (it ended OK, or its stream opened)."""

    def __init__(self, limits: LimitsInterceptor, method: str, key: object) -> None:
        self._limits, self._method, self._key = limits, method, key  # the token's digest
        self._cost = 1

    def admit(self, peer: str, request: object) -> None:
        size = len(request) if isinstance(request, bytes) else 0  # the wire handlers take bytes
        self._cost = cost(self._method, size)
        self._limits._admit(self._method, self._key, peer, self._cost)

    def succeeded(self) -> None:
        seated = self._method.startswith(SERVICE_PREFIX) and (
            self._method[len(SERVICE_PREFIX) :] in SEATED
        )
        if self._key is not None and seated:
            self._limits._authenticated(self._key, self._cost)


class _StreamSlot:
    """One open stream of a peer, counted while it lasts."""

    def __init__(self, counts: dict[str, int], peer: str, most: int) -> None:
        if most and counts.get(peer, 0) >= most:
            raise Exhausted(
                f"too many open Watch streams from this address: at most {most}",
                quota="streams_per_peer",
            )
        counts[peer] = counts.get(peer, 0) + 1
        self._counts, self._peer = counts, peer

    def release(self) -> None:
        left = self._counts[self._peer] - 1
        if left:
            self._counts[self._peer] = left
        else:
            del self._counts[self._peer]


async def _refuse(context: grpc.aio.ServicerContext[Any, Any], exhausted: Exhausted) -> None:
    refused(grpc.StatusCode.RESOURCE_EXHAUSTED, exhausted.quota)
    if exhausted.wait_ms:
        context.set_trailing_metadata((("grpc-retry-pushback-ms", str(exhausted.wait_ms)),))
    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, exhausted.message)


def _unary(handler: Any, call: _Call) -> Any:
    async def behavior(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        try:
            call.admit(peer_address(context), request)
        except Exhausted as refused:
            await _refuse(context, refused)
        answer = await handler.unary_unary(request, context)  # a refusal raises
        call.succeeded()
        return answer

    return grpc.unary_unary_rpc_method_handler(
        behavior,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )


def _stream(handler: Any, call: _Call, slot: Callable[[str], _StreamSlot]) -> Any:
    async def behavior(
        request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[Any]:
        peer = peer_address(context)
        try:
            call.admit(peer, request)
            held = slot(peer)
        except Exhausted as refused:
            await _refuse(context, refused)
        try:
            async for answer in handler.unary_stream(request, context):
                call.succeeded()  # the stream opened: its token is a seat's
                yield answer
        finally:
            held.release()

    return grpc.unary_stream_rpc_method_handler(
        behavior,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )
