"""Claim windows closed by the server's clock (TD-4), seen by real clients over gRPC.

A discard at a Taradinho table opens a claim window of `claim_window_ms`. Seats that do not answer
cannot hold the game up: at the deadline the server closes the window by itself, applies the
winning claim (TD-3) or lets play go on, and tells every watcher. Scenarios cannot show this over
gRPC (their `{close_window: true}` moves a virtual clock).

The service's clock is injected: most tests give it a `ManualClock` and move it, so a window is
seen open just before its deadline and closed exactly at it, with no sleeping. One test
(`test_every_watcher_sees_the_close_on_the_real_clock`) waits for the real clock; its timing
asserts are deliberately loose (machines are noisy): an event must not come before the deadline
(measured from just before the discard was sent, so the server's deadline is later still), and
must come within `SLACK_S` after it.
"""

from __future__ import annotations

import time
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
from tests.support.server import JUST_BEFORE_S, SEAT_3_CLAIM, TARADINHO_DEAL, Watcher, serve

WINDOW_MS = 500  # on the real clock: long enough for a claim to arrive after the discard
SLACK_S = 2.0  # the window must close within this after its deadline

SEAT_0_CLAIM = {"type": "take_discard", "meld": ["5C", "6C", "7C"]}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(games: dict[str, Game], clock: ManualClock) -> Iterator[RefereeClient]:
    """A client of a referee whose clock moves only when the test moves `clock`."""
    yield from connected(RefereeService(MemoryStore(), games, allow_stacked=True, clock=clock))


@pytest.fixture
def real_time_client(games: dict[str, Game]) -> Iterator[RefereeClient]:
    yield from connected(RefereeService(MemoryStore(), games, allow_stacked=True))


def connected(service: RefereeService) -> Iterator[RefereeClient]:
    server, address = serve(service)
    with RefereeClient(address) as client:
        yield client
    service.close()
    server.stop(None).wait()


def new_table(client: RefereeClient, window_ms: int = WINDOW_MS) -> TableHandle:
    return client.create_table(
        "taradinho", seats=4, dealer=0, deal=TARADINHO_DEAL, options={"claim_window_ms": window_ms}
    )


def discard_opening_a_window(
    client: RefereeClient, table: TableHandle
) -> tuple[float, float, Watcher]:
    """Seat 1 draws and discards 5C, watched from before the discard: (sent, answered, watcher),
    the times on the wall clock."""
    assert client.propose(table.id, table.tokens[1], {"type": "draw"})["accepted"]
    watcher = Watcher(client, table.id, from_version=client.view(table.id)["version"])
    sent = time.monotonic()
    verdict = client.propose(table.id, table.tokens[1], {"type": "discard", "card": "5C"})
    answered = time.monotonic()
    assert verdict["outcome"] == "accepted"
    assert [e["kind"] for e in verdict["events"]] == ["discarded", "claim_window"]
    return sent, answered, watcher


def kinds(update: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in update["events"]]


def event(update: dict[str, Any], kind: str, **match: Any) -> dict[str, Any]:
    found: list[dict[str, Any]] = [
        e
        for e in update["events"]
        if e["kind"] == kind and all(e.get(k) == v for k, v in match.items())
    ]
    assert len(found) == 1, f"expected one `{kind}` {match} in {update['events']}"
    return found[0]


def closes_at_its_deadline(
    client: RefereeClient, table: TableHandle, clock: ManualClock, window_ms: int = WINDOW_MS
) -> None:
    """The window is open until just before its deadline (counted from when it was armed, at the
    manual clock's time 0) and closed, by a move of the table, exactly at it."""
    version = client.view(table.id)["version"]
    clock.advance(window_ms / 1000 - JUST_BEFORE_S)
    assert client.view(table.id)["version"] == version, "closed before its deadline"
    clock.advance(JUST_BEFORE_S)
    assert client.view(table.id)["version"] == version + 1, "not closed at its deadline"


def assert_on_time(arrived: float, sent: float, answered: float, window_ms: int) -> None:
    """Not before the deadline (the server's is after `sent` + window), at most SLACK_S after."""
    window_s = window_ms / 1000
    assert arrived >= sent + window_s, f"closed {sent + window_s - arrived:.3f} s early"
    assert arrived < answered + window_s + SLACK_S, (
        f"closed {arrived - answered - window_s:.3f} s late"
    )


def seats_hands(client: RefereeClient, table: TableHandle) -> dict[str, int]:
    sizes: dict[str, int] = client.view(table.id)["hand_sizes"]
    return sizes


def test_pending_claims_are_resolved_at_the_deadline(
    client: RefereeClient, clock: ManualClock
) -> None:
    table = new_table(client)
    _, _, watcher = discard_opening_a_window(client, table)
    # seats 0 and 3 claim (pending); seat 2, in turn, never answers
    assert client.propose(table.id, table.tokens[0], SEAT_0_CLAIM)["outcome"] == "pending"
    assert client.propose(table.id, table.tokens[3], SEAT_3_CLAIM)["outcome"] == "pending"
    before = client.view(table.id)
    assert before["melds"] == [] and before["discard_top"] == "5C" and before["to_act"] == 2

    closes_at_its_deadline(client, table, clock)
    _, update = watcher.wait_for("window_closed")
    assert update["seat"] == SYSTEM  # the table itself moved, not a seat
    assert kinds(update)[:4] == ["window_closed", "claim_won", "claim_lost", "took_discard"]
    assert event(update, "window_closed")["claims"] == [0, 3]
    assert event(update, "claim_won") == {
        "kind": "claim_won",
        "seat": 3,
        "move": "take_discard",
        "text": "seat 3 won the claim (take the discard)",
    }
    lost = event(update, "claim_lost", seat=0)
    assert lost["winner"] == 3 and lost["reason"] == "claim lost to seat 3"
    assert event(update, "took_discard") == {
        "kind": "took_discard",
        "seat": 3,
        "card": "5C",
        "text": "seat 3 took 5♣ from the discard pile",
    }

    after = client.view(table.id, table.tokens[3])
    assert [m["cards"] for m in after["melds"]] == [["3C", "4C", "5C"]]
    assert after["to_act"] == 0  # TD-2: after the taker; seat 2 lost its turn
    assert after["discard_top"] == "9D"
    assert sorted(after["hand"]) == sorted(["8H", "TH", "8D", "6S", "7D", "AS", "4H"])
    assert seats_hands(client, table) == {"0": 9, "1": 9, "2": 9, "3": 7}  # seat 0's claim void
    assert after["version"] == update["version"]

    late = client.propose(table.id, table.tokens[2], {"type": "pass"})
    assert late["outcome"] == "rejected" and late["violations"][0]["rule"] == "TD-4-pass"
    assert client.propose(table.id, table.tokens[0], {"type": "draw"})["accepted"]


def test_a_window_nobody_claims_closes_at_the_deadline_and_play_goes_on(
    client: RefereeClient, clock: ManualClock
) -> None:
    table = new_table(client)
    _, _, watcher = discard_opening_a_window(client, table)
    waiting = client.propose(table.id, table.tokens[2], {"type": "draw"})
    assert waiting["outcome"] == "rejected" and waiting["violations"][0]["rule"] == "TD-4"
    assert client.propose(table.id, table.tokens[3], {"type": "pass"})["outcome"] == "accepted"

    closes_at_its_deadline(client, table, clock)
    _, update = watcher.wait_for("window_closed")
    assert update["seat"] == SYSTEM
    assert kinds(update) == ["window_closed"]
    assert update["events"][0]["claims"] == []

    view = client.view(table.id)
    assert view["to_act"] == 2 and view["discard_top"] == "5C" and view["melds"] == []
    drew = client.propose(table.id, table.tokens[2], {"type": "draw"})
    assert drew["accepted"]
    assert seats_hands(client, table)["2"] == 10


def test_a_window_every_seat_answers_closes_at_once(
    client: RefereeClient, clock: ManualClock
) -> None:
    """The deadline's timer does not close a window a second time (nor the next one early)."""
    table = new_table(client)
    _, _, watcher = discard_opening_a_window(client, table)
    assert client.propose(table.id, table.tokens[3], SEAT_3_CLAIM)["outcome"] == "pending"
    assert client.propose(table.id, table.tokens[0], {"type": "pass"})["outcome"] == "accepted"
    closing = client.propose(table.id, table.tokens[2], {"type": "pass"})
    assert closing["outcome"] == "accepted"  # a closing pass: accepted, and the window resolved
    assert kinds(closing)[:3] == ["answered", "window_closed", "claim_won"]
    assert client.view(table.id)["to_act"] == 0
    version = client.view(table.id)["version"]

    clock.advance(WINDOW_MS / 1000 + 1)  # past the first window's deadline: nothing happens
    assert client.view(table.id)["version"] == version
    watcher.wait_for("window_closed")
    assert sum(1 for _, u in watcher.received if "window_closed" in kinds(u)) == 1


def test_a_restarted_referee_closes_a_window_left_open(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """A referee stopped with a window open (SQLite): the next one, loading the table, gives it a
    full window again and closes it by its own clock."""
    db = tmp_path / "referee.db"
    window_ms = 1500
    stores: list[SqliteStore] = []
    clocks: list[ManualClock] = []

    def referee() -> RefereeService:
        stores.append(SqliteStore(db))
        clocks.append(ManualClock())
        return RefereeService(stores[-1], games, allow_stacked=True, clock=clocks[-1])

    try:
        first = referee()
        server, address = serve(first)
        with RefereeClient(address) as client:
            table = new_table(client, window_ms)
            assert client.propose(table.id, table.tokens[1], {"type": "draw"})["accepted"]
            discard = {"type": "discard", "card": "5C"}
            assert client.propose(table.id, table.tokens[1], discard)["accepted"]
            assert client.propose(table.id, table.tokens[3], SEAT_3_CLAIM)["outcome"] == "pending"
            version = client.view(table.id)["version"]
            clocks[-1].advance(window_ms / 1000 - JUST_BEFORE_S)  # stopped just before it
        first.close()  # its timers go with it
        server.stop(None).wait()
        assert stores[-1].version(table.id) == version  # it did not close the window

        again = referee()
        server, address = serve(again)
        try:
            with RefereeClient(address) as client:
                watcher = Watcher(client, table.id, from_version=version)  # loads the table
                view = client.view(table.id)
                assert view["version"] == version and view["melds"] == [] and view["to_act"] == 2

                closes_at_its_deadline(client, table, clocks[-1], window_ms)  # a full window again
                _, update = watcher.wait_for("window_closed")
                assert kinds(update)[:2] == ["window_closed", "claim_won"]
                assert event(update, "claim_won")["seat"] == 3
                after = client.view(table.id)
                assert [m["cards"] for m in after["melds"]] == [["3C", "4C", "5C"]]
                assert after["to_act"] == 0
        finally:
            again.close()
            server.stop(None).wait()

        # the close is on disk, as a move of the table: a third referee replays it
        third = referee()
        try:
            seen = third.view(table.id, None)
            assert seen.version == version + 1 and seen.view["to_act"] == 0
        finally:
            third.close()
    finally:
        for store in stores:
            store.close()


def test_a_restarted_referee_closes_windows_nobody_touches(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """At startup (`referee serve` runs `resume_deadlines` in the background) the windows left
    open are armed again: one closes by the server's clock though no client ever comes back."""
    db = tmp_path / "referee.db"
    window_ms = 1000
    store = SqliteStore(db)
    first = RefereeService(store, games, allow_stacked=True, clock=ManualClock())
    server, address = serve(first)
    with RefereeClient(address) as client:
        table = new_table(client, window_ms)
        assert client.propose(table.id, table.tokens[1], {"type": "draw"})["accepted"]
        assert client.propose(table.id, table.tokens[1], {"type": "discard", "card": "5C"})[
            "accepted"
        ]
        assert client.propose(table.id, table.tokens[3], SEAT_3_CLAIM)["outcome"] == "pending"
        quiet = client.create_table("pontinho", seats=3, seed=1)  # no windows: not loaded
        version = client.view(table.id)["version"]
    first.close()
    server.stop(None).wait()
    store.close()

    store = SqliteStore(db)
    clock = ManualClock()
    again = RefereeService(store, games, allow_stacked=True, clock=clock)
    try:
        assert again.resume_deadlines() == 1
        clock.advance(window_ms / 1000 - JUST_BEFORE_S)
        assert store.version(table.id) == version
        clock.advance(JUST_BEFORE_S)
        assert store.version(table.id) == version + 1  # the table's own move: the close
        seen = again.view(table.id, None)
        assert seen.view["to_act"] == 0 and seen.view["melds"][0]["cards"] == ["3C", "4C", "5C"]
        assert store.version(quiet.id) == 0
    finally:
        again.close()
        store.close()


def test_every_watcher_sees_the_close_on_the_real_clock(real_time_client: RefereeClient) -> None:
    """The public and a seat, watching, each get the server's close of a window, on time by the
    real clock (the referee's default, `referee.scheduler.Scheduler`)."""
    client = real_time_client
    table = new_table(client)
    sent, answered, public = discard_opening_a_window(client, table)
    discarded = client.view(table.id)["version"]
    seat_2 = Watcher(client, table.id, discarded - 1, token=table.tokens[2])
    for watcher in (public, seat_2):
        arrived, update = watcher.wait_for("window_closed")
        assert_on_time(arrived, sent, answered, WINDOW_MS)
        assert kinds(update) == ["window_closed"] and update["seat"] == SYSTEM
