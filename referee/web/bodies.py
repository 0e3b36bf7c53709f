"""A request's body read within bounds, and turned into the method's request off the event loop.

The HTTP server shares its event loop with every gRPC call (`referee.app`), so nothing
a client sends may hold that loop. A body is bounded by its route (`HttpLimits`: a move or a
table's options are small, a record for Adjudicate larger, both far below the gRPC message
limit; over it, 413 unread) and read within a deadline (408). It is charged to its address's
quota by its size before anything parses it (one token for each `BODY_BYTES_PER_TOKEN`), then
parsed into the request message on a thread of the gateway's own, as the answers are written
out as JSON there: JSON and `json_format` are slow Python on large inputs, and one thread
makes a flood of bodies wait its turn there rather than on the loop. A body refused (too large,
too slow, not the message) costs its address a call, as a refused call does.

Why not the HTTP server on a loop of its own: its calls go through the gRPC loop's handlers,
quotas and Watch subscriptions, so every call and every event would hop between loops, while
the loop was only ever held by reading and parsing, which this moves off it. The thread still
takes the GIL from the loop's thread; `serve` shortens the interpreter's switch interval
(`SWITCH_INTERVAL_S`), so the loop waits for it a fraction of a millisecond, not 5 ms, each time
(60 KB bodies parsed back to back: health p99 300 ms at 5 ms, 13 ms at 0.5 ms).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from concurrent import futures
from typing import Any, TypeVar

import grpc
from aiohttp import web

from referee.calls.chain import HandlerChain
from referee.calls.limits import Exhausted
from referee.errors import InvalidArgument
from referee.web.context import CallAborted
from referee.web.routes import Route

BODY_BYTES_PER_TOKEN = 4096  # a body costs its address one token for each 4 KiB, before parsing
RECORD_ROUTES = frozenset({"Adjudicate"})  # a whole record in the body: the larger bound
TOO_LARGE = "the request is larger than the largest body this route accepts"
Result = TypeVar("Result")


class BodyRefused(CallAborted):
    """A body not read: too large (413) or too slow (408). The connection is closed after."""

    def __init__(self, code: grpc.StatusCode, message: str, status: int) -> None:
        super().__init__(code, message)
        self.status = status


class Bodies:
    """Reads bodies for the gateway and parses them on its thread."""

    def __init__(self, body_bytes: int, record_bytes: int, timeout_s: float) -> None:
        self._body_bytes, self._record_bytes, self._timeout_s = body_bytes, record_bytes, timeout_s
        self._thread = futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="referee-http")

    def limit(self, route: Route) -> int:
        """The largest body read for `route` (one that takes none refuses it read, 400)."""
        return self._record_bytes if route.rpc in RECORD_ROUTES else self._body_bytes

    async def request(
        self,
        chain: HandlerChain,
        route: Route,
        request: web.Request,
        peer: str,
        parse: Callable[[bytes], bytes],
    ) -> bytes:
        """The request message's bytes: the body read, charged to `peer`, and `parse`d on the
        thread. A refusal (BodyRefused, InvalidArgument, CallAborted) costs `peer` a call;
        `limits.Exhausted` when its quota has not got the body's cost."""
        try:
            body = await read_body(request, self.limit(route), self._timeout_s)
        except BodyRefused:
            _charge_refused(chain, peer)
            raise
        chain.charge(peer, len(body) // BODY_BYTES_PER_TOKEN)
        try:
            return await self.run(parse, body)
        except (InvalidArgument, CallAborted):
            _charge_refused(chain, peer)
            raise

    async def run(self, work: Callable[..., Result], *args: Any) -> Result:
        """`work(*args)` on the gateway's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, functools.partial(work, *args))

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)


async def read_body(request: web.Request, limit: int, timeout_s: float) -> bytes:
    """The whole body, at most `limit` bytes, within `timeout_s` seconds (0: no deadline)."""
    declared = request.content_length
    if declared is not None and declared > limit:
        raise _too_large(limit)
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout_s or None):
            while chunk := await request.content.readany():
                size += len(chunk)
                if size > limit:
                    raise _too_large(limit)
                chunks.append(chunk)
    except TimeoutError:
        raise BodyRefused(
            grpc.StatusCode.DEADLINE_EXCEEDED,
            f"the request's body did not arrive within {timeout_s:g} s",
            408,
        ) from None
    return b"".join(chunks)


def _too_large(limit: int) -> BodyRefused:
    return BodyRefused(grpc.StatusCode.RESOURCE_EXHAUSTED, f"{TOO_LARGE} ({limit} bytes)", 413)


def _charge_refused(chain: HandlerChain, peer: str) -> None:
    with contextlib.suppress(Exhausted):  # refused already: the next call finds it empty
        chain.charge(peer, 1)
