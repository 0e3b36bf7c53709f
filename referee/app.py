"""The referee process `serve` runs: `create_server` composes the referee service over gRPC
(`referee.server`, with health checking and server reflection) and, on request
(`Server.serve_http`), its HTTP/JSON routes and web page beside it (`referee.web`), two peers
that share only what a call is (`referee.calls`).

The server is grpc.aio, on an event loop of its own thread, so that a Watch stream waiting for
the next move holds no thread (see `server/servicer.py`); unary calls run on a bounded pool of
worker threads. `Server` drives it from synchronous code: `start()`, then `stop(grace)`. Every
call passes the quotas first (`calls/limits.py`), then, for CreateTable, the operator's token
(`server/access.py`); an HTTP request passes the very same interceptors (`calls/chain.py`), on the
same loop.

A connection is bounded in time: one that has not finished its handshake (TLS, and the client's
HTTP/2 preface and settings) within `handshake_timeout_s` is closed, and so is one that has had no
call for `idle_timeout_s` (a GOAWAY: a gRPC client reconnects by itself when it calls again),
which also ends one that sent half a request and waits. gRPC's core cannot cap the connections
of one address, only all of them (`max_connections`): a cap per address needs a proxy in front
(the HTTP port has one, `referee.web.connections`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from concurrent import futures
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from referee.api.v1 import referee_pb2
from referee.calls.chain import HandlerChain
from referee.calls.limits import Limits, LimitsInterceptor
from referee.calls.refusals import RefusalCounter
from referee.calls.wire import add_referee_servicer
from referee.server.access import CreateTokenInterceptor
from referee.server.servicer import RefereeServicer
from referee.server.tls import TlsFiles
from referee.service import RefereeService
from referee.web.gateway import HttpLimits, HttpServer, start_http

SERVICE_NAME = referee_pb2.DESCRIPTOR.services_by_name["Referee"].full_name
MAX_MESSAGE_BYTES = 1 << 20  # 1 MiB: a whole game record fits many times over
MAX_WORKERS = 16  # threads running unary calls (a Watch stream holds none)
HANDSHAKE_TIMEOUT_S = 5.0
IDLE_TIMEOUT_S = 60.0
KEEPALIVE_MS = 60_000  # a ping after a minute of silence finds a peer that vanished with a stream
KEEPALIVE_TIMEOUT_MS = 20_000
Result = TypeVar("Result")


class Server:
    """A grpc.aio server on its own event-loop thread."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        thread: threading.Thread,
        workers: futures.ThreadPoolExecutor,
    ) -> None:
        self._loop, self._thread, self._workers = loop, thread, workers
        self._server: grpc.aio.Server | None = None
        self._health: Any = None
        self._chain: HandlerChain | None = None
        self._config = ServerConfig()
        self._http: HttpServer | None = None

    def run(self, coroutine: Coroutine[Any, Any, Result]) -> Result:
        """Run `coroutine` on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def start(self) -> None:
        assert self._server is not None
        self.run(self._server.start())

    def serve_http(self, host: str, port: int) -> int:
        """Serve the HTTP routes and the web page on `host:port` too (`port=0`: any free port),
        through the same handlers; the port bound. An OSError if it cannot listen."""
        assert self._chain is not None
        config = self._config
        limits = replace(
            config.http,
            max_message_bytes=config.max_message_bytes,
            concurrent_calls=config.limits.concurrent_rpcs,
        )
        tls = config.tls.ssl_context() if config.tls else None
        self._http = self.run(start_http(self._chain, host, port, limits, tls))
        return self._http.port

    def enter_graceful_shutdown(self) -> None:
        """Health checks answer NOT_SERVING from now on."""
        if self._thread.is_alive():
            self.run(self._health.enter_graceful_shutdown())

    def stop(self, grace: float | None) -> threading.Event:
        """Health says NOT_SERVING, calls in flight get `grace` seconds, then the loop ends.
        The event is set once all is stopped."""
        stopped = threading.Event()
        if not self._thread.is_alive():
            stopped.set()
            return stopped
        assert self._server is not None
        self.enter_graceful_shutdown()
        if self._http is not None:
            self.run(self._http.stop(grace))
        self.run(self._server.stop(grace))
        self._close_loop()
        self._workers.shutdown(wait=False, cancel_futures=True)
        stopped.set()
        return stopped

    def _close_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self._loop.close()


@dataclass(frozen=True)
class ServerConfig:
    """How the server listens and what it allows (each field a `serve` flag)."""

    max_message_bytes: int = MAX_MESSAGE_BYTES  # larger requests: RESOURCE_EXHAUSTED, unread
    max_workers: int = MAX_WORKERS
    limits: Limits = Limits()
    create_token: str | None = None  # set: CreateTable needs it (metadata `x-create-token`)
    tls: TlsFiles | None = None  # not set: plaintext
    handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S  # 0: gRPC's own (120 s)
    idle_timeout_s: float = IDLE_TIMEOUT_S  # 0: never
    max_connections: int = 0  # gRPC connections open at once, from everyone (0: no cap)
    http: HttpLimits = field(default_factory=HttpLimits)  # with `serve_http`


def channel_options(config: ServerConfig) -> list[tuple[str, int]]:
    """The gRPC core's settings for `config`."""
    options = [
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.so_reuseport", 0),  # a second referee on a busy port fails, not shares
        ("grpc.keepalive_time_ms", KEEPALIVE_MS),
        ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
    ]
    if config.handshake_timeout_s:
        options.append(("grpc.server_handshake_timeout_ms", _ms(config.handshake_timeout_s)))
    if config.idle_timeout_s:
        options.append(("grpc.max_connection_idle_ms", _ms(config.idle_timeout_s)))
    if config.max_connections:  # past it, a new connection is closed as it opens
        options.append(("grpc.max_allowed_incoming_connections", config.max_connections))
    return options


def _ms(seconds: float) -> int:
    return max(1, round(1000 * seconds))


def create_server(
    service: RefereeService,
    host: str = "127.0.0.1",
    port: int = 0,
    config: ServerConfig = ServerConfig(),
) -> tuple[Server, int]:
    """A server, not yet started, and the port it bound (`port=0`: any free port)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="referee-grpc", daemon=True)
    thread.start()
    workers = futures.ThreadPoolExecutor(
        max_workers=config.max_workers, thread_name_prefix="referee"
    )
    server = Server(loop, thread, workers)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"  # an IPv6 literal
    try:
        bound = server.run(_build(server, service, workers, address, config))
    except BaseException:
        server._close_loop()
        workers.shutdown(wait=False)
        raise
    return server, bound


async def _build(
    server: Server,
    service: RefereeService,
    workers: futures.Executor,
    address: str,
    config: ServerConfig,
) -> int:
    interceptors: list[grpc.aio.ServerInterceptor] = [
        RefusalCounter(service.metrics.count_refusal),  # outermost: it sees every refusal
        LimitsInterceptor(config.limits),
    ]
    if config.create_token is not None:
        interceptors.append(CreateTokenInterceptor(config.create_token))
    aio_server = grpc.aio.server(
        interceptors=interceptors,
        maximum_concurrent_rpcs=config.limits.concurrent_rpcs or None,
        options=channel_options(config),
    )
    servicer = RefereeServicer(service, workers, config.create_token)
    add_referee_servicer(servicer, aio_server)  # parses its own requests
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, aio_server)
    for name in ("", SERVICE_NAME):  # "": the server as a whole
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), aio_server
    )
    bound = (
        aio_server.add_secure_port(address, config.tls.credentials())
        if config.tls
        else aio_server.add_insecure_port(address)
    )
    if bound == 0:  # older grpc versions report a failed bind this way instead of raising
        raise RuntimeError(f"cannot listen on {address}")
    server._server, server._health = aio_server, health_servicer
    server._chain, server._config = HandlerChain(servicer, interceptors), config
    return bound
