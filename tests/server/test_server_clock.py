"""The play clock over gRPC (issue 16, point 3): a seat that does not move in `turn_seconds` has
its timeout played by the server's clock, told to every watcher, each as it may see it; views
show the time left; a deadline left running survives a restart of the referee.

The service's clock is injected (`ManualClock`): the tests move it, and sleep on no wall clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.clock import ManualClock
from referee.engine.game import Game
from referee.engine.table import SYSTEM
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore
from referee_client import RefereeClient, TableHandle
from tests.support.server import JUST_BEFORE_S, Watcher, serve

TURN_S = 30


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(games: dict[str, Game], clock: ManualClock) -> Iterator[RefereeClient]:
    service = RefereeService(MemoryStore(), games, allow_stacked=True, clock=clock)
    server, address = serve(service)
    with RefereeClient(address) as connected:
        yield connected
    service.close()
    server.stop(None).wait()


def pontinho(client: RefereeClient, **options: Any) -> TableHandle:
    return client.create_table(
        "pontinho", seats=3, seed=2, options={"turn_seconds": TURN_S, **options}
    )


def kinds(update: dict[str, Any]) -> list[str]:
    return [event["kind"] for event in update["events"]]


def test_a_seat_that_does_not_move_has_a_safe_move_played_for_it(
    client: RefereeClient, clock: ManualClock
) -> None:
    table = pontinho(client)
    seat = client.view(table.id)["to_act"]
    other = next(s for s in range(3) if s != seat)
    own, theirs = (Watcher(client, table.id, 0, table.tokens[s]) for s in (seat, other))
    assert client.view(table.id, table.tokens[seat])["clock"]["left_ms"] == TURN_S * 1000
    clock.advance(TURN_S - 10)
    assert client.view(table.id, table.tokens[other])["clock"]["left_ms"] == 10_000
    clock.advance(10 - JUST_BEFORE_S)
    assert client.view(table.id)["version"] == 0  # not a moment early
    clock.advance(JUST_BEFORE_S)
    _, mine = own.wait_for("timed_out")
    _, seen = theirs.wait_for("timed_out")
    assert mine["seat"] == seen["seat"] == SYSTEM
    expected = ["timed_out", "auto_played", "drew", "auto_played", "discarded"]
    assert kinds(mine) == kinds(seen) == expected
    drawn = mine["events"][2]["card"]
    assert mine["events"][4]["card"] == drawn  # the card it drew, discarded
    assert "card" not in seen["events"][2] and drawn not in seen["events"][2]["text"]
    view = client.view(table.id)
    assert view["to_act"] != seat and view["clock"]["timeouts"][str(seat)] == 1
    assert view["clock"]["left_ms"] == TURN_S * 1000  # the next seat's whole turn


def test_a_seat_that_times_out_too_often_is_out_of_the_match(
    client: RefereeClient, clock: ManualClock
) -> None:
    table = pontinho(client, on_timeout="forfeit", max_timeouts=2)
    first = client.view(table.id)["to_act"]
    clock.advance(TURN_S)  # `first` is out of the hand
    view = client.view(table.id)
    assert view["out_of_hand"] == [first]
    refused = client.propose(table.id, table.tokens[first], {"type": "draw"})
    assert not refused["accepted"] and "out of this hand" in refused["violations"][0]["message"]
    for _ in range(6):  # every seat sleeps on: each is out of hands, then of the match
        if client.view(table.id)["match_over"]:
            break
        clock.advance(TURN_S)
    final = client.view(table.id)
    assert final["match_over"] and len(final["out"]) == 2
    assert client.view(table.id)["version"] == len(list(client.watch(table.id)))


def test_a_turn_left_running_survives_a_restart(tmp_path: Path, games: dict[str, Game]) -> None:
    """Stopped 20 s into a turn of 30: the next referee, started (its clock on from there),
    arms the deadline from the store and plays the timeout at 30 s, not 50, though no client
    touches the table."""
    db = tmp_path / "referee.db"
    store = SqliteStore(db)
    first = RefereeService(store, games, allow_stacked=True, clock=ManualClock())
    server, address = serve(first)
    with RefereeClient(address) as client:
        table = client.create_table(
            "tarocchi_piedicavallo", seats=4, seed=5, options={"turn_seconds": TURN_S}
        )
        client.propose(table.id, table.tokens[0], {"type": "contribute", "entropy": "mine"})
    first.close()
    server.stop(None).wait()
    store.close()

    store = SqliteStore(db)
    clock = ManualClock(start=20)  # the machine's time went on while it was down
    again = RefereeService(store, games, allow_stacked=True, clock=clock)
    try:
        assert again.resume_deadlines() == 1
        clock.advance(10 - JUST_BEFORE_S)
        assert store.version(table.id) == 1
        clock.advance(JUST_BEFORE_S)
        assert store.version(table.id) == 2  # the table's own move: the dealer's discard
        seen = again.view(table.id, None).view
        assert seen["phase"] == "play" and seen["clock"]["timeouts"]["0"] == 1
    finally:
        again.close()
        store.close()
