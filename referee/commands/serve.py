"""Run the referee gRPC service until SIGTERM or SIGINT.

Prints one JSON line on stdout, `{"address": "HOST:PORT", "event": "listening", ...}`, once the
port is bound (`--port 0` picks a free one), and with `--http PORT` a second, `{"url":
"http://HOST:PORT/", "event": "http_listening", ...}` (the HTTP/JSON routes and the web page,
docs/web.md), then logs JSON lines on stderr: every line either stream carries is a JSON object
(referee.server.logging). A stop takes at most
15 seconds (5 for the calls in flight to finish, then 10 more at the most). Tables live in an SQLite file (`--db`) and resume
after any stop, `kill -9` included (a claim window left open gets a full new deadline at startup); one
process serves a file, a second refuses to start (`referee.store.sqlite_claim`);
`--store postgresql://...` keeps them in PostgreSQL, shared by several referee processes, once
it has checked the database is durable (`referee.store.durability`); `--store` given several
times partitions the tables across those databases, each table in one (`referee.store.partitioned`:
the databases in their first order always); `--memory` keeps them in memory only.

Limits (docs/security.md): requests a second per address and per seat token, tables
created per address, open Watch streams per address and per table, concurrent calls; how long a
connection may take over its handshake or its request's headers, or sit idle; HTTP bodies' sizes
and deadline, HTTP connections per address. At start the descriptor soft limit is raised to the
hard limit (each connection holds a descriptor; systemd's soft default is 1,024), said in the
log (`--keep-fd-limit`: left as it is). Binding to
an address other than loopback needs `--create-token` (or `--open-create`, said out loud), so
that strangers cannot fill the store with tables.

Every flag can also be set by an environment variable, `REFEREE_` and the flag's name in capitals
(`--port` -> `REFEREE_PORT`, `--max-live-tables` -> `REFEREE_MAX_LIVE_TABLES`; a switch such as
`--memory` takes `REFEREE_MEMORY=1`); a flag given beats its variable. The referee refuses to
start with no games to serve (exit status 2), as it does on a busy port.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import faulthandler
import ipaddress
import resource
import signal
import socket
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

from referee.app import (
    HANDSHAKE_TIMEOUT_S,
    IDLE_TIMEOUT_S,
    MAX_MESSAGE_BYTES,
    MAX_WORKERS,
    Server,
    ServerConfig,
    create_server,
)
from referee.calls.limits import Limits, Rate
from referee.commands.arguments import (
    Several,
    from_environment,
    non_negative,
    port,
    positive,
    seconds,
)
from referee.engine.game import Game
from referee.errors import RefereeError, SpecErrors
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.proofs.typecheck import property_errors
from referee.records.signing import signing_key
from referee.server.logging import (
    announce,
    configure_logging,
    log_descriptor_limit,
    log_started,
    log_stopped,
)
from referee.server.native_stderr import stderr_as_log
from referee.server.tls import TlsFiles
from referee.service import MAX_LIVE_TABLES, MAX_STREAMS_PER_TABLE, RefereeService
from referee.service.metrics import serve_metrics
from referee.store.base import Store
from referee.store.memory import MemoryStore
from referee.store.partitioned import open_databases
from referee.store.postgres import url_problem
from referee.store.sqlite import SqliteStore
from referee.store.sqlite_claim import ServingClaim
from referee.web.gateway import HttpLimits

GRACE_S = 5.0  # in-flight calls get this long to finish on shutdown
# a shutdown not over this long after the signal prints every thread's stack and exits (status
# 1): nothing is lost, every accepted move is stored before its verdict, and nobody has to kill -9
STOP_WITHIN_S = GRACE_S + 10.0
SIGNAL_POLL_S = 0.2  # how soon a stop signal is acted on, at the latest
POSTGRES_SCHEMES = ("postgresql://", "postgres://")  # the URLs libpq reads
# how long a thread holding the GIL (parsing a large HTTP body, an Explain folding a table) may
# keep the event loop's thread waiting for it; Python's 5 ms default, paid at each of the loop's
# several waits in a call, made a health check wait 300 ms beside one busy thread (tests/harden)
SWITCH_INTERVAL_S = 0.0005


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=port, default=50051, help="port (0: any free port)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", default="var/referee.db", help="SQLite file of the tables")
    where.add_argument("--memory", action="store_true", help="keep tables in memory only")
    where.add_argument(
        "--store",
        type=postgres_urls,
        action=Several,
        metavar="URL",
        help="a PostgreSQL database of the tables, `postgresql://...`, "
        "shared by every referee process serving on it; given several times (the variable: "
        "URLs apart by spaces), the tables are partitioned across the databases, in this "
        "order always",
    )
    parser.add_argument(
        "--unsafe-durability",
        action="store_true",
        help="serve on a --store database that may lose commits in a crash "
        "(fsync or synchronous_commit off): acknowledged moves may be lost",
    )
    parser.add_argument(
        "--max-message-bytes",
        type=positive,
        default=MAX_MESSAGE_BYTES,
        help="largest request accepted",
    )
    parser.add_argument(
        "--workers",
        type=positive,
        default=MAX_WORKERS,
        help="threads running unary calls (an open Watch stream holds none)",
    )
    parser.add_argument(
        "--max-live-tables",
        type=positive,
        default=MAX_LIVE_TABLES,
        help="tables kept in memory; the least recently used are dropped and "
        "replayed from the store when asked for again",
    )
    parser.add_argument(
        "--specs",
        default=str(DEFAULT_SPECS),
        help="folder of game specs (default: those shipped with the referee)",
    )
    parser.add_argument(
        "--allow-stacked",
        action="store_true",
        help="allow CreateTable a chosen `seed` or a stacked `deal` (test and "
        "dispute mode; every view shows it); off: every table is dealt fair",
    )
    parser.add_argument(
        "--metrics-port",
        type=port,
        default=0,
        help="serve Prometheus metrics over HTTP on this port, on --host (0: no metrics)",
    )
    parser.add_argument(
        "--http",
        type=port,
        default=None,
        help="serve the HTTP/JSON routes and the web page on this port too, on --host "
        "(0: any free port; docs/web.md)",
    )
    parser.add_argument(
        "--log-level", default="info", choices=["debug", "info", "warning", "error"]
    )
    parser.add_argument(
        "--keep-fd-limit",
        action="store_true",
        help="leave the descriptor soft limit as it is (default: raised to the hard limit "
        "at start, said in the log)",
    )
    _add_limits(parser.add_argument_group("limits (0: none)"))
    _add_connection_limits(parser.add_argument_group("connections and HTTP bodies (0: none)"))
    access = parser.add_argument_group("access")
    token = access.add_mutually_exclusive_group()
    token.add_argument(
        "--create-token",
        help="CreateTable needs this secret (metadata "
        "x-create-token); prefer --create-token-file, argv is public",
    )
    token.add_argument("--create-token-file", type=Path, help="a file holding the create token")
    token.add_argument(
        "--open-create",
        action="store_true",
        help="anyone may create tables, even on a non-loopback address",
    )
    access.add_argument(
        "--signing-key",
        type=Path,
        help="sign game records with this Ed25519 key (PEM, or its seed in hex); "
        "default: a key made on first start and kept in the store",
    )
    access.add_argument("--tls-cert", type=Path, help="PEM certificate chain: serve TLS")
    access.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    access.add_argument(
        "--tls-client-ca",
        type=Path,
        help="PEM CA: clients must show a certificate it signed (mutual TLS)",
    )
    from_environment(parser)


def _add_limits(group: argparse._ArgumentGroup) -> None:
    default = Limits()
    group.add_argument(
        "--max-concurrent-rpcs",
        type=non_negative,
        default=default.concurrent_rpcs,
        help="calls in progress at once, open streams included",
    )
    group.add_argument(
        "--max-streams-per-peer",
        type=non_negative,
        default=default.streams_per_peer,
        help="open Watch streams from one address",
    )
    group.add_argument(
        "--max-streams-per-table",
        type=non_negative,
        default=MAX_STREAMS_PER_TABLE,
        help="open Watch streams on one table",
    )
    group.add_argument(
        "--peer-rate",
        type=Rate.parse,
        default=default.peer_rate,
        help="requests a second from one address, `RATE` or `RATE/BURST`",
    )
    group.add_argument(
        "--token-rate",
        type=Rate.parse,
        default=default.token_rate,
        help="requests a second with one seat token, `RATE` or `RATE/BURST`",
    )
    group.add_argument(
        "--create-rate",
        type=Rate.parse,
        default=default.create_rate,
        help="tables created a second from one address, `RATE` or `RATE/BURST`",
    )


def _add_connection_limits(group: argparse._ArgumentGroup) -> None:
    http = HttpLimits()
    group.add_argument(
        "--handshake-timeout",
        type=seconds,
        default=HANDSHAKE_TIMEOUT_S,
        help="seconds a connection has to finish its handshake (gRPC: TLS and HTTP/2's "
        "preface; HTTP: a request's headers; an idle HTTP connection is closed after as long)",
    )
    group.add_argument(
        "--idle-timeout",
        type=seconds,
        default=IDLE_TIMEOUT_S,
        help="seconds a gRPC connection may go without a call before it is closed "
        "(clients reconnect by themselves)",
    )
    group.add_argument(
        "--max-grpc-connections",
        type=non_negative,
        default=0,
        help="gRPC connections open at once, from all addresses (a new one past it is closed; "
        "keep it under the descriptor limit so that the HTTP port and the store always get one)",
    )
    group.add_argument(
        "--max-connections-per-peer",
        type=non_negative,
        default=http.connections_per_peer,
        help="open HTTP connections from one address (gRPC's cannot be capped: "
        "use a proxy in front)",
    )
    group.add_argument(
        "--max-body-bytes",
        type=positive,
        default=http.body_bytes,
        help="largest HTTP request body (a move, a table's options)",
    )
    group.add_argument(
        "--max-record-body-bytes",
        type=positive,
        default=http.record_bytes,
        help="largest HTTP body of Adjudicate (a whole record)",
    )
    group.add_argument(
        "--body-timeout",
        type=seconds,
        default=http.body_timeout_s,
        help="seconds an HTTP request body has to arrive whole",
    )


def server_config(args: argparse.Namespace) -> ServerConfig:
    """The server's settings from the flags; a ValueError names the one that does not hold."""
    if (args.tls_cert is None) != (args.tls_key is None):
        raise ValueError("--tls-cert and --tls-key go together")
    if args.tls_client_ca is not None and args.tls_cert is None:
        raise ValueError("--tls-client-ca needs --tls-cert and --tls-key")
    create_token = args.create_token
    if args.create_token_file is not None:
        create_token = args.create_token_file.read_text(encoding="utf-8").strip()
    if create_token == "":
        raise ValueError("the create token is empty")
    if create_token is None and not args.open_create and not is_loopback(args.host):
        raise ValueError(
            f"listening on {args.host}: give --create-token-file (or "
            "--create-token), or --open-create to let anyone create tables"
        )
    tls = TlsFiles(args.tls_cert, args.tls_key, args.tls_client_ca) if args.tls_cert else None
    limits = Limits(
        concurrent_rpcs=args.max_concurrent_rpcs,
        streams_per_peer=args.max_streams_per_peer,
        streams_per_table=args.max_streams_per_table,
        peer_rate=args.peer_rate,
        token_rate=args.token_rate,
        create_rate=args.create_rate,
    )
    http = HttpLimits(
        body_bytes=args.max_body_bytes,
        record_bytes=args.max_record_body_bytes,
        body_timeout_s=args.body_timeout,
        header_timeout_s=args.handshake_timeout,
        connections_per_peer=args.max_connections_per_peer,
    )
    return ServerConfig(
        max_message_bytes=args.max_message_bytes,
        max_workers=args.workers,
        limits=limits,
        create_token=create_token,
        tls=tls,
        handshake_timeout_s=args.handshake_timeout,
        idle_timeout_s=args.idle_timeout,
        max_connections=args.max_grpc_connections,
        http=http,
    )


def raise_descriptor_limit(keep: bool) -> tuple[int, int, int]:
    """Raise the descriptor soft limit to the hard limit (unless `keep`): the soft limit as it
    was, as it is, and the hard limit."""
    was, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    soft = was
    if not keep and hard != resource.RLIM_INFINITY and was < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # not allowed here: serve with what there is
            pass
    return was, soft, hard


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve anywhere
        return False


def postgres_url(text: str) -> str:
    if not text.startswith(POSTGRES_SCHEMES):
        raise argparse.ArgumentTypeError(f"`{text}` is not a `postgresql://` URL")
    problem = url_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"cannot read the database URL: {problem}")
    return text


def postgres_urls(text: str) -> list[str]:
    """The URLs in `text`, apart by whitespace (a URL holds none: libpq's commas of several
    hosts stay in theirs)."""
    urls = [postgres_url(url) for url in text.split()]
    if not urls:
        raise argparse.ArgumentTypeError("no `postgresql://` URL given")
    return urls


def claim_store(args: argparse.Namespace) -> contextlib.AbstractContextManager[object]:
    """This process's claim on its SQLite file (a ServedElsewhere if another process serves it),
    held while it serves; nothing to claim in memory or in PostgreSQL, made for several."""
    if args.memory or args.store:
        return contextlib.nullcontext()
    path = Path(args.db)
    path.parent.mkdir(parents=True, exist_ok=True)
    return ServingClaim(path)


def open_store(args: argparse.Namespace) -> Store:
    if args.memory:
        return MemoryStore()
    if args.store:
        return open_databases(args.store, unsafe_durability=args.unsafe_durability)
    path = Path(args.db)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return SqliteStore(path)
    except sqlite3.Error as problem:
        raise RefereeError(f"cannot open the tables' database `{path}`: {problem}") from None


def bind(service: RefereeService, host: str, port: int, config: ServerConfig) -> tuple[Server, int]:
    check_can_listen(host, port)
    try:
        return create_server(service, host, port, config)
    except RuntimeError:  # grpc's word for a port it could not bind (taken since the check)
        raise RefereeError(f"cannot listen on {host}:{port}") from None


def check_can_listen(host: str, port: int) -> None:
    """A RefereeError if `host:port` cannot be bound, said in a line before grpc tries (grpc
    would log its own lines about it on stderr)."""
    try:
        addresses = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as problem:
        reason = (problem.strerror or str(problem)).lower()
        raise RefereeError(f"cannot listen on `{host}`: {reason}") from None
    problems = [p for p in map(_bind_problem, addresses) if p is not None]
    in_use = [p for p in problems if p.errno == errno.EADDRINUSE]
    if in_use or (problems and len(problems) == len(addresses)):  # grpc needs one address bound
        reason = (
            "the port is in use" if in_use else (problems[0].strerror or str(problems[0])).lower()
        )
        raise RefereeError(f"cannot listen on {host}:{port}: {reason}")


def _bind_problem(address: tuple[Any, ...]) -> OSError | None:
    family, kind, proto, _, where = address
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as grpc binds
        try:
            probe.bind(where)
        except OSError as problem:
            return problem
    return None


def load_served_games(specs: str) -> dict[str, Game]:
    """The games to serve: at least one, or a RefereeError (a referee with none would answer
    health checks and refuse every table). A game whose properties are wrong is refused as a
    wrong spec is (SpecErrors), though serving never proves them."""
    games = load_games(specs)
    if not games:
        raise RefereeError(f"no games to serve: no game specs (`*.yaml`) in `{specs}`")
    errors = [error for game in games.values() for error in property_errors(game)]
    if errors:
        raise SpecErrors(errors)
    return games


def run(args: argparse.Namespace) -> int:
    try:
        config = server_config(args)
    except ValueError as problem:  # an OSError (a token file missing) goes to referee.cli
        print(f"referee serve: {problem}", file=sys.stderr)
        return 2
    # once the command line holds (its errors are plain lines), every line is JSON until the
    # end: a refusal to start (a busy port) is again one plain line, by referee.cli
    with stderr_as_log() as stderr:
        configure_logging(args.log_level, stderr)
        descriptors = raise_descriptor_limit(args.keep_fd_limit)  # said once serving
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        games = load_served_games(args.specs)
        with claim_store(args):
            return serve_until_stopped(args, config, games, descriptors, stderr)


def serve_until_stopped(
    args: argparse.Namespace,
    config: ServerConfig,
    games: dict[str, Game],
    descriptors: tuple[int, int, int],
    stderr: TextIO,
) -> int:
    store = open_store(args)
    try:
        key = signing_key(args.signing_key, store)
    except RefereeError:
        store.close()
        raise
    service = RefereeService(
        store,
        games,
        max_live_tables=args.max_live_tables,
        max_streams_per_table=config.limits.streams_per_table,
        allow_stacked=args.allow_stacked,
        signing_key=key,
        sole_writer=not args.store,  # memory, or the SQLite file this process claimed
    )
    try:
        server, port = bind(service, args.host, args.port, config)
    except RefereeError:
        service.close()
        store.close()
        raise
    try:
        http_port = server.serve_http(args.host, args.http) if args.http is not None else None
    except OSError as problem:
        server.stop(None)
        service.close()
        store.close()
        raise RefereeError(
            f"--http {args.http}: cannot listen: {problem.strerror or problem}"
        ) from None
    try:
        metrics = (
            serve_metrics(service.metrics, args.host, args.metrics_port)
            if args.metrics_port
            else None
        )
    except OSError as problem:  # the port is taken, say
        server.stop(None)
        service.close()
        store.close()
        raise RefereeError(f"--metrics-port {args.metrics_port}: {problem}") from None
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    server.start()
    log_started(
        f"{args.host}:{port}",
        service.games,
        store,
        metrics.port if metrics else None,
        key.key_id,
    )
    log_descriptor_limit(*descriptors)
    announce("listening", address=f"{args.host}:{port}")
    if http_port is not None:
        announce("http_listening", url=f"http://{_url_host(args.host)}:{http_port}/")
    # deadlines left open by a previous run (a claim window's) come back, while serving
    threading.Thread(target=service.resume_deadlines, name="resume-deadlines", daemon=True).start()
    # a signal may land on any thread (gRPC's among them), while its Python handler runs on the
    # main thread only when that wakes: a wait with no timeout could sleep through it for ever
    while not stopping.wait(SIGNAL_POLL_S):
        pass
    # armed until the process ends; its stacks go to the real stderr as they are, plain lines:
    # the process exits at once after, before a thread could log them
    faulthandler.dump_traceback_later(STOP_WITHIN_S, exit=True, file=stderr)
    server.enter_graceful_shutdown()  # health answers NOT_SERVING: balancers look elsewhere
    service.close()  # ends Watch streams (UNAVAILABLE): the grace period is not spent on them
    server.stop(GRACE_S).wait()
    if metrics is not None:
        metrics.close()
    store.close()
    log_stopped("signal")
    return 0
