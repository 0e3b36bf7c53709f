"""`create_server`: the referee service over gRPC, with health checking and server reflection."""

from __future__ import annotations

from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from referee.api.v1 import referee_pb2, referee_pb2_grpc
from referee.server.servicer import RefereeServicer
from referee.service import RefereeService

SERVICE_NAME = referee_pb2.DESCRIPTOR.services_by_name["Referee"].full_name
MAX_MESSAGE_BYTES = 1 << 20  # 1 MiB: a whole game record fits many times over
# Each Watch stream holds a worker thread for its lifetime; the rest serve unary calls.
MAX_WORKERS = 64


def create_server(service: RefereeService, host: str = "127.0.0.1", port: int = 0, *,
                  max_message_bytes: int = MAX_MESSAGE_BYTES, max_workers: int = MAX_WORKERS,
                  health_servicer: health.HealthServicer | None = None,
                  ) -> tuple[grpc.Server, int]:
    """A server, not yet started, and the port it bound (`port=0`: any free port).

    Requests over `max_message_bytes` are refused with RESOURCE_EXHAUSTED before any handler runs.
    Pass `health_servicer` to flip it to NOT_SERVING on shutdown (`enter_graceful_shutdown`).
    """
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="referee"),
        options=[("grpc.max_receive_message_length", max_message_bytes),
                 ("grpc.so_reuseport", 0)],  # a second referee on a busy port fails, not shares
    )
    referee_pb2_grpc.add_RefereeServicer_to_server(RefereeServicer(service), server)
    health_servicer = health_servicer or health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE_NAME):  # "": the server as a whole
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME,
                                         reflection.SERVICE_NAME), server)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"  # an IPv6 literal
    bound = server.add_insecure_port(address)
    if bound == 0:  # older grpc versions report a failed bind this way instead of raising
        raise RuntimeError(f"cannot listen on {address}")
    return server, bound
