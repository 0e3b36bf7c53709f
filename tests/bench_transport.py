"""`make bench-transport`: the asyncio gRPC server `referee serve` runs against a sync one, with
the real handler, on the same store and the same recorded workloads (issue 15, point 3).

The sync server is grpc's thread-pool server calling the very methods the asyncio servicer
hands its worker pool (`RefereeServicer._create_table`, `_propose`), with the same SQLite store
(FULL) and the health service; what it lacks is the interceptors (quotas, the create token),
which `serve_command` turns off on the asyncio one anyway. Each runs in its own process, as in
production, one after the other; every figure is beside its own server's health-check floor,
and both are printed as ratios of the same run.

Run `python -m tests.bench_transport [--seconds S]`; `python -m tests.bench_transport serve-sync
--db FILE` is the sync server alone (what the bench starts).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from concurrent import futures
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2_grpc

from referee.api.v1 import referee_pb2 as pb
from referee.bench import (
    WARM_UP_S,
    Servers,
    drive,
    health_floor,
    replay_session,
    serve_command,
    serving_process,
    workloads,
)
from referee.calls.metadata import metadata_value
from referee.calls.status import status_of
from referee.plugins.games import load_games
from referee.server.logging import configure_logging
from referee.server.servicer import RefereeServicer
from referee.service import RefereeService
from referee.store.sqlite import SqliteStore
from referee_client.client import TOKEN_HEADER

SERVICE = "referee.v1.Referee"
WORKERS = 32  # as many calls in flight as the bench's 16 clients need, and room to spare


def sync_handlers(servicer: RefereeServicer) -> grpc.GenericRpcHandler:
    """CreateTable and Propose, each the servicer's own sync method."""

    def token(context: grpc.ServicerContext) -> str | None:
        return metadata_value(context.invocation_metadata(), TOKEN_HEADER)

    def guarded(call: Callable[..., Any]) -> Callable[[Any, grpc.ServicerContext], Any]:
        def handler(request: Any, context: grpc.ServicerContext) -> Any:
            try:
                return call(request, context)
            except Exception as error:  # noqa: BLE001 - every error gets its status
                context.abort(*status_of(error))

        return handler

    methods: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        "CreateTable": grpc.unary_unary_rpc_method_handler(
            guarded(lambda request, context: servicer._create_table(request)),
            request_deserializer=pb.CreateTableRequest.FromString,
            response_serializer=pb.CreateTableResponse.SerializeToString,
        ),
        "Propose": grpc.unary_unary_rpc_method_handler(
            guarded(lambda request, context: servicer._propose(request, token(context), [])),
            request_deserializer=pb.ProposeRequest.FromString,
            response_serializer=pb.ProposeResponse.SerializeToString,
        ),
    }
    return grpc.method_handlers_generic_handler(SERVICE, methods)


def serve_sync(database: str) -> None:
    configure_logging("warning")
    store = SqliteStore(Path(database))
    service = RefereeService(store, load_games(), allow_stacked=True, sole_writer=True)
    workers = futures.ThreadPoolExecutor(WORKERS)
    server = grpc.server(workers, maximum_concurrent_rpcs=None)
    server.add_generic_rpc_handlers((sync_handlers(RefereeServicer(service, workers)),))
    health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(f"referee (sync) listening on 127.0.0.1:{port}", flush=True)
    server.wait_for_termination()


def server_process(kind: str, folder: str) -> AbstractContextManager[tuple[str, int]]:
    database = str(Path(folder) / f"{kind}.db")
    if kind == "asyncio":
        return serving_process(serve_command(["--db", database]))
    return serving_process(
        [sys.executable, "-m", "tests.bench_transport", "serve-sync", "--db", database]
    )


def measure(seconds: float) -> dict[str, dict[int, dict[str, dict[str, float]]]]:
    """server kind -> clients -> floor and each workload's Propose figures."""
    recorded = workloads(load_games())
    results: dict[str, dict[int, dict[str, dict[str, float]]]] = {}
    for kind in ("asyncio", "sync"):
        results[kind] = {}
        with tempfile.TemporaryDirectory() as folder, server_process(kind, folder) as (at, pid):
            servers = Servers((at,))
            drive(1, WARM_UP_S, health_floor(servers), pid)  # a fresh process's first calls
            for clients in (1, 16):
                figures = {"floor": drive(clients, seconds, health_floor(servers), pid)}
                for w in recorded:
                    session = replay_session(servers, w.game, w.setup, w.recorded)
                    figures[w.game] = drive(clients, seconds, session, pid)
                results[kind][clients] = figures
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("mode", nargs="?", default="bench", choices=["bench", "serve-sync"])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--db", help="serve-sync: the SQLite file")
    args = parser.parse_args(argv)
    if args.mode == "serve-sync":
        serve_sync(args.db)
        return 0
    results = measure(args.seconds)
    for clients in (1, 16):
        for game, figures in results["asyncio"][clients].items():
            a, s = figures, results["sync"][clients][game]
            a_floor, s_floor = (
                results["asyncio"][clients]["floor"],
                results["sync"][clients]["floor"],
            )
            print(
                f"{game:>22}, {clients:>2} client(s): asyncio {a['rps']:,.0f}/s "
                f"(p99 {a['p99_ms']:.1f} ms, {a['rps'] / a_floor['rps']:.2f} of its floor, "
                f"server CPU {a['cpu_us']:,.0f} µs a call) | sync {s['rps']:,.0f}/s "
                f"(p99 {s['p99_ms']:.1f} ms, {s['rps'] / s_floor['rps']:.2f} of its floor, "
                f"{s['cpu_us']:,.0f} µs) | sync/asyncio {s['rps'] / a['rps']:.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
