"""The HTTP server of `serve --http`: every route of the proto (`routes.py`), the web page at `/`.

It runs on the gRPC server's event loop and calls the gRPC server's own handlers, interceptors
included (`referee.server.chain`): the same service, the same quotas and the same refusals, over
HTTP. A request over the largest message size is refused unread (413); a call that ends with a
status gets its HTTP status and `{code, message}`; no request of a client's makes a 500 (one is
a bug of the referee, logged with its traceback).
"""

from __future__ import annotations

import json
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import structlog
from aiohttp import web

from referee.errors import InvalidArgument
from referee.server.chain import HandlerChain
from referee.server.status import INTERNAL_MESSAGE
from referee.web.context import CallAborted, HttpCallContext, metadata, peer
from referee.web.messages import answer_data, request_message
from referee.web.routes import Route, routes
from referee.web.statuses import RETRY_TRAILER, error_response
from referee.web.streams import serve_stream

log = structlog.get_logger("referee.web")

STATIC = Path(__file__).resolve().parent / "static"
API_PREFIX = "/v1/"
SHUTDOWN_S = 2.0  # open requests get this long when the server stops (Watch streams end first)
# the page loads nothing but its own files; no frame may embed it
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
TOO_LARGE = "the request is larger than the largest message the referee accepts"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class HttpLimits:
    max_message_bytes: int
    concurrent_calls: int  # 0: no limit


@dataclass
class HttpServer:
    runner: web.AppRunner
    port: int

    async def stop(self, _grace: float | None) -> None:
        await self.runner.cleanup()


async def start_http(
    chain: HandlerChain,
    host: str,
    port: int,
    limits: HttpLimits,
    tls: ssl.SSLContext | None = None,
) -> HttpServer:
    """Listen on `host:port` (HTTPS with `tls`); an OSError if it cannot."""
    # a client that goes away cancels its request: an open stream stops queueing for it
    runner = web.AppRunner(
        application(chain, limits),
        access_log=None,
        handler_cancellation=True,
        shutdown_timeout=SHUTDOWN_S,
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port, ssl_context=tls)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    bound = runner.addresses[0][1]
    return HttpServer(runner, int(bound))


def application(chain: HandlerChain, limits: HttpLimits) -> web.Application:
    app = web.Application(
        client_max_size=limits.max_message_bytes,
        middlewares=[_errors_as_json, _page_headers, _concurrency(limits.concurrent_calls)],
    )
    for route in routes():
        serve = serve_stream if route.streaming else serve_unary
        app.router.add_route(route.verb, route.path, _bound(serve, chain, route))
    app.router.add_get("/", _index)
    app.router.add_static("/web/", STATIC, show_index=False, follow_symlinks=False)
    return app


def _bound(
    serve: Callable[[HandlerChain, Route, web.Request], Awaitable[web.StreamResponse]],
    chain: HandlerChain,
    route: Route,
) -> Handler:
    async def handle(request: web.Request) -> web.StreamResponse:
        try:
            return await serve(chain, route, request)
        except CallAborted as aborted:
            return error_response(
                aborted.code, aborted.message, retry_ms=aborted.trailer(RETRY_TRAILER)
            )
        except web.HTTPRequestEntityTooLarge:  # refused unread, as gRPC refuses it
            return error_response(grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_LARGE, status=413)
        except InvalidArgument as invalid:
            return error_response(grpc.StatusCode.INVALID_ARGUMENT, invalid.message)

    return handle


async def serve_unary(chain: HandlerChain, route: Route, request: web.Request) -> web.Response:
    context = call_context(request)
    body = await request.read()
    message = request_message(route, request.match_info, request.query.items(), body)
    handler = await chain.handler(route.rpc, context.invocation_metadata())
    answer = await handler.unary_unary(message.SerializeToString(), context)
    return web.Response(text=json.dumps(answer_data(answer)), content_type="application/json")


def call_context(request: web.Request) -> HttpCallContext:
    peername = request.transport.get_extra_info("peername") if request.transport else None
    return HttpCallContext(metadata(request.headers), peer(peername))


async def _index(_request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


@web.middleware
async def _errors_as_json(request: web.Request, handler: Handler) -> web.StreamResponse:
    """aiohttp's own refusals (no such route, a method it does not take) as the API's JSON
    errors; a bug as INTERNAL, logged."""
    try:
        return await handler(request)
    except web.HTTPException as refused:
        if not request.path.startswith(API_PREFIX) or refused.status < 400:
            raise
        code = _STATUS_CODES.get(refused.status, grpc.StatusCode.INVALID_ARGUMENT)
        return error_response(code, refused.reason.lower(), status=refused.status)
    except Exception as bug:  # the boundary: a bug answers INTERNAL, logged
        log.error("internal_error", path=request.path, exc_info=bug)
        return error_response(grpc.StatusCode.INTERNAL, INTERNAL_MESSAGE)


_STATUS_CODES = {
    404: grpc.StatusCode.NOT_FOUND,
    405: grpc.StatusCode.UNIMPLEMENTED,
    413: grpc.StatusCode.RESOURCE_EXHAUSTED,
}


@web.middleware
async def _page_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    if not request.path.startswith(API_PREFIX):
        response.headers.update(PAGE_HEADERS)
    return response


def _concurrency(most: int) -> Any:
    """At most `most` calls in progress at once, streams included (as gRPC's
    `maximum_concurrent_rpcs`); over it: RESOURCE_EXHAUSTED."""
    in_progress = 0

    @web.middleware
    async def limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        nonlocal in_progress
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        if most and in_progress >= most:
            return error_response(
                grpc.StatusCode.RESOURCE_EXHAUSTED, f"too many calls in progress: at most {most}"
            )
        in_progress += 1
        try:
            return await handler(request)
        finally:
            in_progress -= 1

    return limit
