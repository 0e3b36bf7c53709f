"""The health check's latency while an attack runs: what every availability attack measures."""

from __future__ import annotations

import threading
import time

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def p99(latencies: list[float]) -> float:
    """The 99th percentile of `latencies` (seconds), in milliseconds."""
    ordered = sorted(latencies)
    return 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def health_checks(address: str, stop: threading.Event) -> tuple[list[float], set[int]]:
    """Health checks of `address` one after another, 10 ms apart, until `stop` is set: their
    latencies and the statuses they answered."""
    latencies: list[float] = []
    statuses: set[int] = set()
    with grpc.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while not stop.is_set():
            began = time.perf_counter()
            statuses.add(health.Check(health_pb2.HealthCheckRequest(), timeout=10).status)
            latencies.append(time.perf_counter() - began)
            time.sleep(0.01)
    return latencies, statuses


def health_checks_for(address: str, seconds: float) -> tuple[list[float], set[int]]:
    """`health_checks` for `seconds`."""
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)
    timer.start()
    try:
        return health_checks(address, stop)
    finally:
        timer.cancel()
