"""Refusals counted: each call the referee ends with an error status, by RPC, status and reason.

Where a call is refused, the refusing code says so (`refused`): the one map from errors to
statuses (`status.abort`, the reason the error's code), the quotas (`limits`, the reason the
quota's name), the create token (`access`). The outermost interceptor (`RefusalCounter`) reads
it once the call has ended and counts it. The word travels in a context variable, which each
call has its own of (a grpc.aio call, an HTTP request: a task each), so neither the handlers nor
the interceptors need to know the metrics.
"""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc

SERVICE_PREFIX = "/referee.v1.Referee/"

Count = Callable[[str, str, str], None]  # rpc, status name, reason

_refusal: contextvars.ContextVar[tuple[grpc.StatusCode, str] | None] = contextvars.ContextVar(
    "refusal", default=None
)


def refused(status: grpc.StatusCode, reason: str) -> None:
    """The call in progress ends with `status`, for `reason` (a stable snake_case word)."""
    _refusal.set((status, reason))


class RefusalCounter(grpc.aio.ServerInterceptor):
    """Counts, through `count`, each call of the Referee service that ends refused."""

    def __init__(self, count: Count) -> None:
        self._count = count

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[Any]], details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(details)
        if handler is None or not details.method.startswith(SERVICE_PREFIX):
            return handler
        rpc = details.method[len(SERVICE_PREFIX) :]
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(
                self._unary(rpc, handler.unary_unary),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(
                self._stream(rpc, handler.unary_stream),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler  # the referee has no client-streaming call

    def _unary(self, rpc: str, behaviour: Any) -> Any:
        async def counted(request: Any, context: Any) -> Any:
            _refusal.set(None)
            try:
                return await behaviour(request, context)
            except Exception:  # an abort raises: counted in the call's own context
                self._counted(rpc)
                raise

        return counted

    def _stream(self, rpc: str, behaviour: Any) -> Any:
        async def counted(request: Any, context: Any) -> AsyncIterator[Any]:
            _refusal.set(None)
            try:
                async for answer in behaviour(request, context):
                    yield answer
            except Exception:  # not a client that went away (CancelledError, GeneratorExit)
                self._counted(rpc)
                raise

        return counted

    def _counted(self, rpc: str) -> None:
        said = _refusal.get()
        if said is not None:
            status, reason = said
            self._count(rpc, status.name, reason)
