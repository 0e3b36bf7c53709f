"""Fixtures shared by the tests: the shipped games and the Pontinho game, stacked deals, and a
scenario target that is a real gRPC server (port 0) for the tests that run scenarios both
in-process and remotely."""

from __future__ import annotations

import os

# gRPC's fork handlers are for a process that forks and goes on without exec; the tests only
# start programs (fork and exec), often while client threads are in gRPC calls, where the
# handlers only say they skip themselves: off, before grpc is imported
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest
import structlog

from referee.cards import Card, codes, french_pack
from referee.engine.game import Game
from referee.scenario.target import Target
from referee.server import logging as server_logging
from tests.support.games import shipped_games

StackDeal = Callable[..., dict[str, Any]]

# `pg_server`, `pg_url`: a throw-away PostgreSQL and a fresh database of it for each test
pytest_plugins = ["tests.support.postgres_server"]


@pytest.fixture(scope="session")
def games() -> dict[str, Game]:
    """Every shipped game (specs/), loaded once for the whole run."""
    return shipped_games()


@pytest.fixture(scope="session")
def pontinho() -> Game:
    # the shipped one, from the same cache as `games` rather than from the fixture: a module
    # may override `games` with games of its own and still want it (tests/proofs/test_diff.py)
    return shipped_games()["pontinho"]


def stack_deal(
    seats: int, hands: Mapping[int, Sequence[str]], turned: str, stock: Sequence[str] = ()
) -> dict[str, Any]:
    """A stacked deal (SCENARIOS.md) that gives `hands` to some seats and deals the other
    seats 9 cards each from what is left of the two packs, in the pack's fixed order."""
    placed = [Card.parse(c) for hand in hands.values() for c in hand]
    placed += [Card.parse(turned), *(Card.parse(c) for c in stock)]
    left = Counter(french_pack(2)) - Counter(placed)
    pool = sorted(left.elements())
    dealt: dict[int, list[str]] = {}
    for seat in range(seats):
        if seat in hands:
            dealt[seat] = list(hands[seat])
        else:
            dealt[seat], pool = codes(pool[:9]), pool[9:]
    return {"hands": dealt, "turned": turned, "stock": list(stock)}


@pytest.fixture(scope="session")
def stacked() -> StackDeal:
    return stack_deal


@pytest.fixture(scope="module")
def over_grpc(games: dict[str, Game]) -> Iterator[Target]:
    """The scenario target of a referee served over gRPC on port 0, with an in-memory store,
    serving `games`: the shipped ones unless the requesting module overrides the fixture."""
    from referee.app import ServerConfig, create_server
    from referee.scenario.remote import GrpcTarget
    from referee.service import RefereeService
    from referee.store.memory import MemoryStore

    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    operator = "conformance-operator"  # the director's steps (`seat: director`) need it
    server, port = create_server(service, "127.0.0.1", 0, ServerConfig(create_token=operator))
    server.start()
    target = GrpcTarget.connect(f"127.0.0.1:{port}", create_token=operator)
    yield target
    target.close()
    service.close()
    server.stop(None).wait()


@pytest.fixture(autouse=True)
def logging_left_as_found() -> Iterator[None]:
    """A test that runs `serve` in-process configures the log on its captured stderr, closed
    once the test ends: the log goes back to structlog's defaults, or every later log line of a
    background thread (a listener, a scheduler) would fail on the closed file."""
    yield
    if server_logging.is_configured():
        structlog.reset_defaults()
        server_logging.forget_configuration()
