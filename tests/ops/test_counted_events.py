"""The metrics an operator watches (issue 27), each driven on a real server (gRPC and HTTP on
free ports, its metrics served over HTTP) and read back from the scraped text: tables created by
game, disputes, rulings by decision, deadlines passed by kind, refusals by RPC, status and reason
(gRPC and HTTP alike, the quota named), and the live-table gauge. A retried ruling is answered
again and not counted twice."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from referee.api.v1 import referee_pb2 as pb
from referee.app import Server, ServerConfig, create_server
from referee.calls.limits import Limits, Rate
from referee.clock import ManualClock
from referee.engine.game import Game
from referee.service import RefereeService
from referee.service.metrics import MetricsServer, serve_metrics
from referee.store.memory import MemoryStore
from referee_client import RefereeClient
from tests.support.server import DEAL, TARADINHO_DEAL, status_of

WAIT_S = 5.0
OPERATOR = "the-operator's-secret"
TURN_S = 30
# the create quota's burst: the seventh CreateTable from one address is refused (the quota is
# charged before the create token is checked: the refused stranger's call counts)
CREATIONS = 6
STACKED = {**DEAL, "hands": {str(seat): hand for seat, hand in DEAL["hands"].items()}}

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@dataclass
class Served:
    director: RefereeClient  # sends the operator's token
    stranger: RefereeClient  # sends none
    clock: ManualClock
    http_port: int
    metrics: MetricsServer
    service: RefereeService

    def scrape(self) -> Samples:
        url = f"http://127.0.0.1:{self.metrics.port}/metrics"
        with urllib.request.urlopen(url, timeout=5) as answer:
            text = answer.read().decode()
        return {
            (s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
        }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
def served(games: dict[str, Game]) -> Iterator[Served]:
    clock = ManualClock()
    service = RefereeService(MemoryStore(), games, allow_stacked=True, clock=clock)
    limits = Limits(create_rate=Rate(0.001, CREATIONS))
    server: Server
    server, port = create_server(
        service, "127.0.0.1", 0, ServerConfig(create_token=OPERATOR, limits=limits)
    )
    http_port = server.serve_http("127.0.0.1", 0)
    server.start()
    metrics = serve_metrics(service.metrics, "127.0.0.1", 0)
    address = f"127.0.0.1:{port}"
    # channels of their own, without the client's retries: a quota's refusal is seen at once
    plain = grpc.insecure_channel(address)
    with (
        RefereeClient(address, plain, create_token=OPERATOR) as director,
        RefereeClient(address, grpc.insecure_channel(address)) as anyone,
    ):
        yield Served(director, anyone, clock, http_port, metrics, service)
    service.close()
    server.stop(None).wait()
    metrics.close()


def http_status(port: int, path: str, body: dict[str, Any] | None = None) -> int:
    data = None if body is None else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", data=data, timeout=5):
            return 200
    except urllib.error.HTTPError as refused:
        return refused.code


def test_each_event_moves_its_counter_by_its_count(served: Served) -> None:
    director, clock = served.director, served.clock
    before = served.scrape()
    assert value(before, "referee_tables_created_total", game="pontinho") == 0

    # two Pontinho tables with a dispute each: one upheld (its ruling sent twice), one rewound
    for decision in ("uphold", "rewind"):
        table = director.create_table("pontinho", 3, seed=0, deal=STACKED)
        director.propose(table.id, table.tokens[1], {"type": "draw"})
        director.propose(table.id, table.tokens[1], {"type": "discard", "card": "JH"})
        raised = {"type": "dispute", "version": 2, "reason": "too fast"}
        assert director.propose(table.id, table.tokens[2], raised)["accepted"]
        for _ in range(2 if decision == "uphold" else 1):
            ruled = director.rule(table.id, 3, decision, "so ruled", to=1, ruling_id=decision)
            assert ruled["accepted"], ruled

    # a turn's clock runs out at a Pontinho table; a claim window closes at a Taradinho table
    director.create_table("pontinho", 3, seed=2, options={"turn_seconds": TURN_S})
    window = {"claim_window_ms": 500}
    taradinho = director.create_table("taradinho", 4, deal=TARADINHO_DEAL, options=window)
    director.propose(taradinho.id, taradinho.tokens[1], {"type": "draw"})
    director.propose(taradinho.id, taradinho.tokens[1], {"type": "discard", "card": "5C"})
    clock.advance(0.5)  # the window's deadline
    clock.advance(TURN_S)  # the turn's (its clock ran from the table's creation)

    # refusals: the create token, the create quota (the sixth table), an unknown table, a seat
    # token no seat has, a request that is no message, over gRPC; an unknown table over HTTP
    assert status_of(lambda: served.stranger.create_table("pontoon", 2)) == (
        grpc.StatusCode.PERMISSION_DENIED
    )
    director.create_table("pontoon", 2)  # the sixth call
    assert status_of(lambda: director.create_table("pontoon", 2)) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED
    )
    assert status_of(lambda: director.view("no-such-table")) == grpc.StatusCode.NOT_FOUND
    forged = {"type": "draw"}
    assert status_of(lambda: director.propose(table.id, "forged", forged)) == (
        grpc.StatusCode.UNAUTHENTICATED
    )
    garbage: Any = director.channel.unary_unary("/referee.v1.Referee/GetView")
    assert status_of(lambda: garbage(b"\xff\xff\xff")) == grpc.StatusCode.INVALID_ARGUMENT
    assert http_status(served.http_port, "/v1/tables/nope/view") == 404

    after = served.scrape()
    moved = {
        ("referee_tables_created_total", "game", "pontinho"): 3,
        ("referee_tables_created_total", "game", "taradinho"): 1,
        ("referee_tables_created_total", "game", "pontoon"): 1,
        ("referee_disputes_total", "game", "pontinho"): 2,
    }
    for (name, label, game), count in moved.items():
        assert value(after, name, **{label: game}) - value(before, name, **{label: game}) == count
    assert value(after, "referee_rulings_total", game="pontinho", decision="uphold") == 1
    assert value(after, "referee_rulings_total", game="pontinho", decision="rewind") == 1
    assert value(after, "referee_rulings_total", game="pontinho", decision="adjust") == 0
    assert value(after, "referee_timeouts_total", game="taradinho", kind="claim_window") == 1
    assert value(after, "referee_timeouts_total", game="pontinho", kind="play_clock") == 1
    refusals = {
        (labels["rpc"], labels["status"], labels["reason"]): count
        for (name, frozen), count in after.items()
        if name == "referee_refusals_total"
        for labels in [dict(frozen)]
    }
    assert refusals == {
        ("CreateTable", "PERMISSION_DENIED", "create_token"): 1,
        ("CreateTable", "RESOURCE_EXHAUSTED", "create_rate"): 1,
        ("GetView", "NOT_FOUND", "not_found"): 2,  # one over gRPC, one over HTTP
        ("Propose", "UNAUTHENTICATED", "unauthenticated"): 1,
        ("GetView", "INVALID_ARGUMENT", "invalid_argument"): 1,
    }
    assert value(after, "referee_live_tables") == served.service.live_tables == 5


def test_a_quota_of_the_service_is_named_streams_per_table(games: dict[str, Game]) -> None:
    """A table's Watch streams are the service's quota, refused in the stream: counted too."""
    service = RefereeService(MemoryStore(), games, max_streams_per_table=1)
    server, port = create_server(service, "127.0.0.1", 0)
    server.start()
    try:
        address = f"127.0.0.1:{port}"  # no retries: each refused attempt would count
        with RefereeClient(address, grpc.insecure_channel(address)) as client:
            table = client.create_table("pontoon", 2)
            request = pb.WatchRequest(table_id=table.id)
            first = client.stub.Watch(request)
            assert first.initial_metadata() is not None  # open
            second = client.stub.Watch(request)
            assert status_of(lambda: next(iter(second))) == grpc.StatusCode.RESOURCE_EXHAUSTED
            first.cancel()
        labels = {"rpc": "Watch", "status": "RESOURCE_EXHAUSTED", "reason": "streams_per_table"}

        def counted() -> float | None:
            return service.metrics.registry.get_sample_value("referee_refusals_total", labels)

        # a stream's refusal is counted as its handler unwinds, which may follow the client's
        # seeing the status: wait for it (a bound, not a timing claim)
        deadline = time.monotonic() + WAIT_S
        while counted() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert counted() == 1
    finally:
        service.close()
        server.stop(None).wait()
