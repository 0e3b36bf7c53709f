"""gRPC status codes as HTTP statuses (google.rpc's mapping, as google.api.http gateways answer),
and the JSON body of an error: `{"code": "NOT_FOUND", "message": "..."}`."""

from __future__ import annotations

import json
import math

import grpc
from aiohttp import web

HTTP_STATUS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.OK: 200,
    grpc.StatusCode.CANCELLED: 499,
    grpc.StatusCode.UNKNOWN: 500,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.FAILED_PRECONDITION: 400,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.INTERNAL: 500,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DATA_LOSS: 500,
}
RETRY_TRAILER = "grpc-retry-pushback-ms"  # limits.py: how long until the quota allows a call


def error_body(code: grpc.StatusCode, message: str) -> dict[str, str]:
    return {"code": code.name, "message": message}


def error_response(
    code: grpc.StatusCode, message: str, *, retry_ms: str | None = None, status: int | None = None
) -> web.Response:
    """The answer to a call that ended with `code` (`status`: another HTTP status than the
    mapping's, 413 for a body too large); a quota's wait as `Retry-After`, in whole seconds."""
    headers = {}
    if retry_ms is not None and retry_ms.isdigit():
        headers["Retry-After"] = str(max(1, math.ceil(int(retry_ms) / 1000)))
    return web.Response(
        status=status or HTTP_STATUS.get(code, 500),
        text=json.dumps(error_body(code, message)),
        content_type="application/json",
        headers=headers,
    )
