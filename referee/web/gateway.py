"""The HTTP server of `serve --http`: every route of the proto (`routes.py`), the web page at `/`,
the director's desk at `/desk`.

It runs on the gRPC server's event loop and calls the gRPC server's own handlers, interceptors
included (`referee.calls.chain`): the same service, the same quotas and the same refusals, over
HTTP. A body is bounded by its route, read within a deadline and parsed off the loop
(`bodies.py`); a connection must send its request's headers within `header_timeout_s` (an idle
keep-alive connection is closed after as long), and one address may hold only so many
(`connections.py`). A state-changing route refuses a request from another site's page unless it
carries a token (`Origin`: a page elsewhere may post, but it cannot set a token header without
the referee's leave, which CORS never gives). A call that ends with a status gets its HTTP status
and `{code, message}`; no request of a client's makes a 500 (one is a bug of the referee, logged
with its traceback).
"""

from __future__ import annotations

import asyncio
import json
import ssl
import urllib.parse
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import structlog
from aiohttp import web

from referee.calls.chain import HandlerChain
from referee.calls.limits import Exhausted
from referee.calls.metadata import CREATE_HEADER, TOKEN_HEADER
from referee.calls.status import INTERNAL_MESSAGE
from referee.errors import InvalidArgument
from referee.web.bodies import Bodies, BodyRefused
from referee.web.connections import PeerConnections
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
SAFE_VERBS = frozenset({"GET", "HEAD", "OPTIONS"})
TOKEN_HEADERS = (TOKEN_HEADER, CREATE_HEADER, "authorization")
CROSS_ORIGIN = (
    "a request from another site's page changes nothing here without a seat token "
    "or the operator's token"
)
BACKLOG = 128  # aiohttp's own
AIOHTTP_KEEPALIVE_S = 3630.0  # aiohttp's own idle timeout (0 would close every idle connection)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class HttpLimits:
    """What the HTTP server allows (each a `serve` flag; 0: no limit)."""

    max_message_bytes: int = 1 << 20  # the gRPC limit: no body is larger
    concurrent_calls: int = 0
    body_bytes: int = 64 * 1024  # the largest body of a route (a move, a table's options)
    record_bytes: int = 512 * 1024  # Adjudicate's: a whole record
    body_timeout_s: float = 10.0  # a body arrives whole within this
    header_timeout_s: float = 5.0  # a request's headers arrive within this (and idle: closed)
    connections_per_peer: int = 256  # open connections from one address


@dataclass
class HttpServer:
    runner: web.AppRunner
    listening: asyncio.Server
    bodies: Bodies
    port: int

    async def stop(self, _grace: float | None) -> None:
        self.listening.close()
        await self.runner.cleanup()
        self.bodies.close()


async def start_http(
    chain: HandlerChain,
    host: str,
    port: int,
    limits: HttpLimits,
    tls: ssl.SSLContext | None = None,
) -> HttpServer:
    """Listen on `host:port` (HTTPS with `tls`); an OSError if it cannot."""
    bodies = Bodies(
        min(limits.body_bytes, limits.max_message_bytes),
        min(limits.record_bytes, limits.max_message_bytes),
        limits.body_timeout_s,
    )
    # a client that goes away cancels its request: an open stream stops queueing for it; a
    # connection idle (or still sending its headers) for header_timeout_s is closed (0: after
    # aiohttp's own hour); a body left unread is not read on: the connection closes after the
    # answer
    runner = web.AppRunner(
        application(chain, limits, bodies),
        access_log=None,
        handler_cancellation=True,
        shutdown_timeout=SHUTDOWN_S,
        keepalive_timeout=limits.header_timeout_s or AIOHTTP_KEEPALIVE_S,
        lingering_time=0,
    )
    await runner.setup()
    assert runner.server is not None
    connections = PeerConnections(runner.server, limits.connections_per_peer)
    try:
        listening = await asyncio.get_running_loop().create_server(
            connections,
            host,
            port,
            ssl=tls,
            ssl_handshake_timeout=(limits.header_timeout_s or None) if tls else None,
            backlog=BACKLOG,
            reuse_address=True,
        )
    except BaseException:
        await runner.cleanup()
        bodies.close()
        raise
    bound = listening.sockets[0].getsockname()[1]
    return HttpServer(runner, listening, bodies, int(bound))


def application(chain: HandlerChain, limits: HttpLimits, bodies: Bodies) -> web.Application:
    app = web.Application(
        client_max_size=limits.max_message_bytes,
        middlewares=[
            _errors_as_json,
            _page_headers,
            _same_origin,
            _concurrency(limits.concurrent_calls),
        ],
    )
    for route in routes():
        serve = serve_stream if route.streaming else serve_unary
        app.router.add_route(route.verb, route.path, _bound(serve, chain, route, bodies))
    app.router.add_get("/", _index)
    app.router.add_get("/desk", _desk)
    app.router.add_static("/web/", STATIC, show_index=False, follow_symlinks=False)
    return app


def _bound(
    serve: Callable[[HandlerChain, Route, web.Request, Bodies], Awaitable[web.StreamResponse]],
    chain: HandlerChain,
    route: Route,
    bodies: Bodies,
) -> Handler:
    async def handle(request: web.Request) -> web.StreamResponse:
        try:
            return await serve(chain, route, request, bodies)
        except BodyRefused as refused:  # unread: the connection closes after the answer
            return error_response(refused.code, refused.message, status=refused.status)
        except CallAborted as aborted:
            return error_response(
                aborted.code, aborted.message, retry_ms=aborted.trailer(RETRY_TRAILER)
            )
        except Exhausted as refused:  # a body's cost, before it is parsed
            return error_response(
                grpc.StatusCode.RESOURCE_EXHAUSTED, refused.message, retry_ms=str(refused.wait_ms)
            )
        except InvalidArgument as invalid:
            return error_response(grpc.StatusCode.INVALID_ARGUMENT, invalid.message)

    return handle


async def serve_unary(
    chain: HandlerChain, route: Route, request: web.Request, bodies: Bodies
) -> web.Response:
    context = call_context(request)
    variables, query = dict(request.match_info), list(request.query.items())

    def parse(body: bytes) -> bytes:
        return request_message(route, variables, query, body).SerializeToString()

    raw = await bodies.request(chain, route, request, context.peer(), parse)
    handler = await chain.handler(route.rpc, context.invocation_metadata())
    answer = await handler.unary_unary(raw, context)
    text = await bodies.run(_answer_json, answer)
    return web.Response(text=text, content_type="application/json")


def _answer_json(answer: Any) -> str:
    return json.dumps(answer_data(answer))


def call_context(request: web.Request) -> HttpCallContext:
    peername = request.transport.get_extra_info("peername") if request.transport else None
    return HttpCallContext(metadata(request.headers), peer(peername))


async def _index(_request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


async def _desk(_request: web.Request) -> web.FileResponse:
    """The director's desk (docs/desk.md): its calls need the operator's token, not the page."""
    return web.FileResponse(STATIC / "desk.html")


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


@web.middleware
async def _same_origin(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A state-changing route refuses a request that another site's page sent (its `Origin` not
    this server's) and that carries no token: a browser's simple cross-site POST."""
    if request.method in SAFE_VERBS or not request.path.startswith(API_PREFIX):
        return await handler(request)
    origin = request.headers.get("Origin")
    if origin is None or is_own(origin, request) or carries_token(request.headers):
        return await handler(request)
    return error_response(grpc.StatusCode.PERMISSION_DENIED, CROSS_ORIGIN)


def is_own(origin: str, request: web.Request) -> bool:
    """Whether `origin` is the page's own: the host (and port) the request was sent to. The
    scheme is not compared: behind a proxy that ends TLS, the page's is `https` and the
    request's `http`."""
    host = urllib.parse.urlsplit(origin).netloc
    return bool(host) and host.lower() == request.host.lower()


def carries_token(headers: Mapping[str, str]) -> bool:
    return any(headers.get(name, "").strip() for name in TOKEN_HEADERS)


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
