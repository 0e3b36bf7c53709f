"""Who may create tables: with `serve --create-token`, only a caller that sends the operator's
token (metadata `x-create-token`); everyone else gets PERMISSION_DENIED. Seats need no such
token: each acts with the token CreateTable gave it. The same token makes a caller the operator,
who gets the full record of a table in play (GetRecord)."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from referee.calls.limits import CREATE_TABLE
from referee.calls.metadata import CREATE_HEADER, metadata_value
from referee.calls.refusals import refused
from referee.errors import PermissionDenied

REFUSAL = f"CreateTable needs the operator's create token (request metadata `{CREATE_HEADER}`)"


class CreateTokenInterceptor(grpc.aio.ServerInterceptor):
    def __init__(self, create_token: str) -> None:
        self._expected = create_token.encode("utf-8")

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[Any]], details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(details)
        if handler is None or details.method != CREATE_TABLE:
            return handler
        given = metadata_value(details.invocation_metadata, CREATE_HEADER) or ""
        if hmac.compare_digest(given.encode("utf-8"), self._expected):  # no timing oracle
            return handler

        async def refuse(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            refused(grpc.StatusCode.PERMISSION_DENIED, "create_token")
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, REFUSAL)

        return grpc.unary_unary_rpc_method_handler(
            refuse,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )


class OperatorToken:
    """Whether a call comes from the operator: it sends the create token (`x-create-token`).
    A token sent that is not the operator's is refused, not taken for a seat's or nobody's."""

    def __init__(self, expected: str | None) -> None:
        self._expected = None if expected is None else expected.encode("utf-8")

    def given(self, token: str | None) -> bool:
        if not token:
            return False
        if self._expected is None or not hmac.compare_digest(token.encode("utf-8"), self._expected):
            raise PermissionDenied(f"`{CREATE_HEADER}` is not the operator's token")
        return True
