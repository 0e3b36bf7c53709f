"""The gRPC port's connections are bounded (issue 25): one that has not finished its handshake
(HTTP/2's preface) within the handshake timeout is closed, so is one with no call for the idle
timeout (one that sent half a request and waits among them), and past a cap on all connections
a new one is closed as it opens. Each with its control: the bound off, the connection stays."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator

import pytest

from referee.app import ServerConfig, channel_options
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from tests.support.server import serving

HALF_PREFACE = b"PRI * HTTP/2.0\r\n"
# the whole preface, empty settings, then a HEADERS frame that says 10 bytes and sends none
HALF_REQUEST = (
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
    + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
    + bytes([0, 0, 10, 1, 4, 0, 0, 0, 1])
)


@contextlib.contextmanager
def server(games: dict[str, Game], config: ServerConfig) -> Iterator[int]:
    service = RefereeService(MemoryStore(), games)
    with serving(service, config) as address:
        yield int(address.rsplit(":", 1)[1])


@contextlib.contextmanager
def connections(port: int, count: int, first: bytes) -> Iterator[list[socket.socket]]:
    opened = []
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(first)
            sock.setblocking(False)
            opened.append(sock)
        yield opened
    finally:
        for sock in opened:
            sock.close()


def closed(sock: socket.socket) -> bool:
    try:
        while sock.recv(65536):  # the server's settings first, then perhaps the end
            pass
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True  # reset


def closed_within(sockets: list[socket.socket], seconds: float) -> list[bool]:
    """Which of `sockets` the server has closed, once all are or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        states = [closed(sock) for sock in sockets]
        if all(states) or time.monotonic() > deadline:
            return states
        time.sleep(0.1)


def test_the_options_follow_the_config() -> None:
    options = dict(channel_options(ServerConfig(handshake_timeout_s=2.5, max_connections=7)))
    assert options["grpc.server_handshake_timeout_ms"] == 2500
    assert options["grpc.max_connection_idle_ms"] == 60_000
    assert options["grpc.max_allowed_incoming_connections"] == 7
    off = dict(channel_options(ServerConfig(handshake_timeout_s=0, idle_timeout_s=0)))
    assert not {"grpc.server_handshake_timeout_ms", "grpc.max_connection_idle_ms"} & set(off)
    assert "grpc.max_allowed_incoming_connections" not in off


@pytest.mark.parametrize("timeout_s", [0.3, 0], ids=["timeout", "control"])
def test_an_unfinished_handshake_is_closed(games: dict[str, Game], timeout_s: float) -> None:
    config = ServerConfig(handshake_timeout_s=timeout_s, idle_timeout_s=0)
    with server(games, config) as port, connections(port, 3, HALF_PREFACE) as opened:
        assert closed_within(opened, 3.0 if timeout_s else 1.0) == [bool(timeout_s)] * 3


@pytest.mark.parametrize("idle_s", [0.3, 0], ids=["idle", "control"])
def test_half_a_request_is_closed_as_idle(games: dict[str, Game], idle_s: float) -> None:
    config = ServerConfig(handshake_timeout_s=0.3, idle_timeout_s=idle_s)
    with server(games, config) as port, connections(port, 3, HALF_REQUEST) as opened:
        assert closed_within(opened, 3.0 if idle_s else 1.5) == [bool(idle_s)] * 3


@pytest.mark.parametrize("cap", [3, 0], ids=["cap", "control"])
def test_connections_past_the_cap_are_closed(games: dict[str, Game], cap: int) -> None:
    config = ServerConfig(handshake_timeout_s=0, idle_timeout_s=0, max_connections=cap)
    with server(games, config) as port, connections(port, 5, HALF_REQUEST) as opened:
        states = closed_within(opened, 1.0)
        assert states.count(True) == (5 - cap if cap else 0)
