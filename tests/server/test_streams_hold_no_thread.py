"""Open Watch streams cost the server no thread (issue 10). 64 streams without a token once
stopped the whole server, health checks included: each held one of the 64 worker threads. With
grpc.aio a stream waits on the event loop; here 500 streams are open while the server answers
health checks, views and proposals, and watchers still get their moves."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.api.v1 import referee_pb2 as pb
from referee.app import ServerConfig, create_server
from referee.calls.limits import Limits
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.base import Store
from tests.support.server import OpenTable

STREAMS = 500


@pytest.fixture
def service(store: Store, games: dict[str, Game]) -> Iterator[RefereeService]:
    """One table may have all the streams here (64 by default)."""
    running = RefereeService(store, games, max_streams_per_table=STREAMS, allow_stacked=True)
    yield running
    running.close()


@pytest.fixture
def address(service: RefereeService) -> Iterator[str]:
    """All the streams come from one address (256 by default)."""
    config = ServerConfig(limits=Limits(streams_per_peer=STREAMS))
    server, port = create_server(service, config=config)
    server.start()
    yield f"127.0.0.1:{port}"
    service.close()
    server.stop(None)


def test_five_hundred_open_streams_stop_nothing(address: str, table: OpenTable) -> None:
    threads_before = threading.active_count()
    channel = grpc.insecure_channel(address)
    streams = [table.stub.Watch(pb.WatchRequest(table_id=table.table_id)) for _ in range(STREAMS)]
    try:
        health = health_pb2_grpc.HealthStub(channel)
        for _ in range(20):
            answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
        assert table.propose(1, "draw").outcome == pb.OUTCOME_ACCEPTED
        assert table.view(1)["to_act"] == 1
        first = next(streams[0])
        last = next(streams[-1])
        assert first.version == last.version == 1  # every watcher got the move
        # the server's threads: its pool and loop, not one per stream (the client's own
        # channels add a few)
        assert threading.active_count() - threads_before < 50
    finally:
        for stream in streams:
            stream.cancel()
        channel.close()
