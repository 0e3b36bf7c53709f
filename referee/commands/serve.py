"""Run the referee gRPC service until SIGTERM or SIGINT.

Prints one line, `referee listening on HOST:PORT`, once the port is bound (`--port 0` picks a
free one), then logs JSON lines on stderr. Tables live in an SQLite file (`--db`) and resume after
any stop, `kill -9` included (a claim window left open gets a full new deadline at startup);
`--memory` keeps them in memory only.
"""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path

from referee.server.app import MAX_MESSAGE_BYTES, MAX_WORKERS, create_server
from referee.server.logging import configure_logging
from referee.service import MAX_LIVE_TABLES, RefereeService
from referee.spec.registry import DEFAULT_SPECS, load_games
from referee.store.base import Store
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore

GRACE_S = 5.0  # in-flight calls get this long to finish on shutdown


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=50051, help="port (0: any free port)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", default="var/referee.db", help="SQLite file of the tables")
    where.add_argument("--memory", action="store_true", help="keep tables in memory only")
    parser.add_argument("--specs", default=str(DEFAULT_SPECS), help="folder of game specs")
    parser.add_argument("--max-message-bytes", type=int, default=MAX_MESSAGE_BYTES,
                        help="largest request accepted")
    parser.add_argument("--workers", type=int, default=MAX_WORKERS,
                        help="threads running unary calls (an open Watch stream holds none)")
    parser.add_argument("--max-live-tables", type=int, default=MAX_LIVE_TABLES,
                        help="tables kept in memory; the least recently used are dropped and "
                             "replayed from the store when asked for again")
    parser.add_argument("--allow-stacked", action="store_true",
                        help="allow CreateTable a chosen `seed` or a stacked `deal` (test and "
                             "dispute mode; every view shows it); off: every table is dealt fair")
    parser.add_argument("--log-level", default="info",
                        choices=["debug", "info", "warning", "error"])


def open_store(args: argparse.Namespace) -> Store:
    if args.memory:
        return MemoryStore()
    path = Path(args.db)
    path.parent.mkdir(parents=True, exist_ok=True)
    return SqliteStore(path)


def run(args: argparse.Namespace) -> int:
    configure_logging(args.log_level)
    store = open_store(args)
    service = RefereeService(store, load_games(args.specs), max_live_tables=args.max_live_tables,
                             allow_stacked=args.allow_stacked)
    server, port = create_server(service, args.host, args.port,
                                 max_message_bytes=args.max_message_bytes,
                                 max_workers=args.workers)
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    server.start()
    print(f"referee listening on {args.host}:{port}", flush=True)
    # claim windows left open by a previous run get their deadlines back (TD-4), while serving
    threading.Thread(target=service.resume_deadlines, name="resume-deadlines", daemon=True).start()
    stopping.wait()
    server.enter_graceful_shutdown()  # health answers NOT_SERVING: balancers look elsewhere
    service.close()  # ends Watch streams, so the grace period is not spent waiting on them
    server.stop(GRACE_S).wait()
    store.close()
    return 0
