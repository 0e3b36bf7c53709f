"""A real referee on a free port, in-process, reached through real gRPC channels."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from referee.api.v1 import referee_pb2_grpc
from referee.app import ServerConfig, create_server
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.base import Store
from referee.store.memory import MemoryStore
from tests.support.server import MAX_MESSAGE_BYTES, OpenTable, open_table


@pytest.fixture
def store() -> Store:
    return MemoryStore()


@pytest.fixture
def service(store: Store, games: dict[str, Game]) -> Iterator[RefereeService]:
    """As `serve` runs it on its own store: the sole writer, judging proposals on the event loop
    (`propose_on_loop`)."""
    running = RefereeService(store, games, allow_stacked=True, sole_writer=True)
    yield running
    running.close()


@pytest.fixture
def address(service: RefereeService) -> Iterator[str]:
    config = ServerConfig(max_message_bytes=MAX_MESSAGE_BYTES)
    server, port = create_server(service, config=config)
    server.start()
    yield f"127.0.0.1:{port}"
    service.close()
    server.stop(None)


@pytest.fixture
def stub(address: str) -> Iterator[referee_pb2_grpc.RefereeStub]:
    with grpc.insecure_channel(address) as channel:
        yield referee_pb2_grpc.RefereeStub(channel)


@pytest.fixture
def table(stub: referee_pb2_grpc.RefereeStub) -> OpenTable:
    return open_table(stub)
