"""Availability under abuse (issue 10): beside 500 open Watch streams and one client proposing
at ten times its token's quota, health checks keep answering and ten well-behaved clients keep
their latency.

The referee runs in its own process, as deployed; the abuser in another (it must not share the
well-behaved clients' GIL). Each well-behaved client plays draw/discard on its own table at a
steady pace within its quota; its latencies are measured first alone (the baseline), then beside
the streams and the abuser. `make test` runs it short and asserts no timing (the machines are
noisy); `make harden` runs it longer and asserts the issue's figures: health p99 under 50 ms,
the well-behaved p99 within 1.5 times the baseline's.

Every client is on 127.0.0.1, one address: the per-address rate is off here, so this measures
the per-token quota (a per-address flood is refused the same cheap way, tests/server/test_limits).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee_client import RefereeClient
from tests.harden.health import health_checks, p99
from tests.harden.report import SCALE, STRICT, report
from tests.harden.served import Served, referee
from tests.support.served import ROOT

pytestmark = pytest.mark.slow  # every test here is a long run (3 s or more)

SECONDS = 2.5 * SCALE
TOKEN_RATE = 20  # the quota of a seat token, calls a second (bursts of as many)
ABUSE_RATE = 10 * TOKEN_RATE
CLIENTS, CLIENT_RATE = 10, 10  # well-behaved: calls a second each, a third per token at most
STREAMS = 500
HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """A referee with a seat-token quota and room for the streams."""
    with referee(
        "--memory",
        "--token-rate",
        f"{TOKEN_RATE}/{TOKEN_RATE}",
        "--peer-rate",
        "0",
        "--max-streams-per-peer",
        str(STREAMS + 50),
        "--max-streams-per-table",
        str(STREAMS),
    ) as running:
        yield running


def well_behaved(address: str, seconds: float) -> tuple[list[float], list[str]]:
    """CLIENTS clients, each on its own table at CLIENT_RATE calls a second: latencies, errors."""
    latencies: list[float] = []
    errors: list[str] = []

    def play(index: int) -> None:
        with RefereeClient(address) as client:
            table = client.create_table("pontinho", seats=3)
            seat, start, calls = 1, time.perf_counter(), 0
            while time.perf_counter() < start + seconds:
                for move in ({"type": "draw"}, None):
                    time.sleep(max(0.0, start + calls / CLIENT_RATE - time.perf_counter()))
                    began = time.perf_counter()
                    try:
                        if move is None:  # discard the card drawn
                            card = client.view(table.id, table.tokens[seat])["hand"][-1]
                            move = {"type": "discard", "card": card}
                        verdict = client.propose(table.id, table.tokens[seat], move)
                        if not verdict["accepted"]:
                            errors.append(str(verdict["violations"]))
                    except grpc.RpcError as error:
                        errors.append(error.code().name)
                    latencies.append(time.perf_counter() - began)
                    calls += 1
                seat = (seat + 1) % 3

    threads = [threading.Thread(target=play, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors


def test_abuse_leaves_health_and_honest_clients_alone(served: Served) -> None:
    address = served.address
    baseline, errors = well_behaved(address, SECONDS)
    assert not errors

    with RefereeClient(address) as client:
        target = client.create_table("pontinho", seats=3)
        watched = client.create_table("pontinho", seats=3)
    channel = grpc.insecure_channel(address)
    stub = RefereeStub(channel)
    streams = [stub.Watch(pb.WatchRequest(table_id=watched.id)) for _ in range(STREAMS)]
    abuser = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "abuser.py"),
            address,
            target.id,
            target.tokens[1],
            str(ABUSE_RATE),
            str(SECONDS + 1),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    stop = threading.Event()
    probe: dict[str, tuple[list[float], set[int]]] = {}
    prober = threading.Thread(target=lambda: probe.update(health=health_checks(address, stop)))
    try:
        time.sleep(0.5)  # the abuser is at full rate
        prober.start()
        threads = served.threads
        abused, errors = well_behaved(address, SECONDS)
    finally:
        stop.set()
        prober.join()
        codes = json.loads(abuser.communicate(timeout=60)[0])
        for stream in streams:
            stream.cancel()
        channel.close()
    health, statuses = probe["health"]
    figures = {
        "streams": STREAMS,
        "server threads": threads,
        "abuser calls": sum(codes.values()),
        "abuser refused": codes.get("RESOURCE_EXHAUSTED", 0),
        "abuser answered": codes.get("OK", 0),
        "well-behaved calls": len(abused),
        "well-behaved errors": len(errors),
        "baseline p99 ms": round(p99(baseline), 2),
        "abused p99 ms": round(p99(abused), 2),
        "ratio": round(p99(abused) / p99(baseline), 2),
        "health checks": len(health),
        "health p99 ms": round(p99(health), 2),
    }
    report("abuse", figures)
    assert not errors  # no well-behaved call was refused or failed
    assert statuses == {health_pb2.HealthCheckResponse.SERVING}
    assert set(codes) <= {"OK", "RESOURCE_EXHAUSTED"}
    quota = TOKEN_RATE * (SECONDS + 1) + TOKEN_RATE  # its rate over the run, and one burst
    assert codes.get("OK", 0) <= quota
    assert codes.get("RESOURCE_EXHAUSTED", 0) >= sum(codes.values()) - quota
    assert threads < 50
    if STRICT:
        assert figures["health p99 ms"] < 50
        assert figures["ratio"] <= 1.5
