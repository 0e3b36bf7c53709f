"""F3 (issue 25): two clients post 829 KB JSON bodies to the HTTP gateway, each refused. The body
was read and parsed on the event loop every gRPC call shares: the health check's p99 went from
6 ms to 974 ms. Now a body is bounded by its route (a Propose body: 64 KiB), read within a
deadline, charged to its address by its size and parsed off the loop: these are refused unread
(413), and `make harden` asserts the health check's p99 under 50 ms through the flood; so it does
through a flood of bodies just within the bound (60 KB each), parsed off the loop and refused
(400), or refused unparsed once their address's quota is spent (429).

The control serves with none of that: bodies up to 1 MiB, no per-address rate, parsed on the
loop (`undefended.py parse-off-loop`): every body is parsed and refused (400).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from grpc_health.v1 import health_pb2

from referee_client import RefereeClient
from tests.harden.health import health_checks, p99
from tests.harden.report import SCALE, STRICT, report
from tests.harden.served import referee
from tests.support.served import ROOT

pytestmark = pytest.mark.slow  # every test here is a long run

SECONDS = 2.0 * SCALE
FLOODERS = 2
LARGE, WITHIN = 829 * 1024, 60 * 1024  # the bodies; bodies the bound lets through
HERE = Path(__file__).resolve().parent


def flood(address: str, http_port: int, size: int) -> tuple[dict[str, int], list[float]]:
    """FLOODERS body flooders for SECONDS, health checks beside them: the flooders' statuses
    and the health checks' latencies."""
    with RefereeClient(address) as client:
        table = client.create_table("pontinho", seats=3)
    command = [sys.executable, str(HERE / "body_flooder.py"), str(http_port), table.id]
    flooders = [
        subprocess.Popen(
            [*command, str(size), str(SECONDS)], cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        for _ in range(FLOODERS)
    ]
    stop = threading.Event()
    probe: dict[str, tuple[list[float], set[int]]] = {}
    prober = threading.Thread(target=lambda: probe.update(health=health_checks(address, stop)))
    time.sleep(0.5)  # the flood under way
    prober.start()
    statuses: dict[str, int] = {}
    try:
        for flooder in flooders:
            for status, count in json.loads(flooder.communicate(timeout=120)[0]).items():
                statuses[status] = statuses.get(status, 0) + count
    finally:
        stop.set()
        prober.join()
    latencies, serving = probe["health"]
    assert serving == {health_pb2.HealthCheckResponse.SERVING}
    return statuses, latencies


# `within-the-bound` runs in `make harden` only: `make test` keeps to the attack and its control
CASES = [
    pytest.param(True, LARGE, id="large"),
    *([pytest.param(True, WITHIN, id="within-the-bound")] if STRICT else []),
    pytest.param(False, LARGE, id="control"),
]


@pytest.mark.parametrize(("defended", "size"), CASES)
def test_large_bodies_leave_the_grpc_loop_alone(defended: bool, size: int) -> None:
    flags: tuple[str, ...] = ("--memory", "--http", "0")
    if not defended:
        flags += ("--max-body-bytes", str(1 << 20), "--peer-rate", "0")
    with referee(*flags, undefended=None if defended else "parse-off-loop") as served:
        assert served.http_port is not None
        statuses, latencies = flood(served.address, served.http_port, size)
    figures = {
        "body KB": size // 1024,
        "bodies": sum(statuses.values()),
        "statuses": statuses,
        "health checks": len(latencies),
        "health p99 ms": round(p99(latencies), 1),
    }
    report(f"http bodies ({'defended' if defended else 'control'})", figures)
    if not defended:  # every body read and parsed, then refused
        assert set(statuses) == {"400"}
        return
    if size == LARGE:  # refused unread (the client may see its connection close mid-body)
        assert set(statuses) <= {"413", "reset"}
    else:  # parsed and refused, or refused unparsed once the quota is spent
        assert set(statuses) <= {"400", "429"}
    if STRICT:
        assert p99(latencies) < 50
