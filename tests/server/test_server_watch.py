"""Watch: each watcher gets every accepted move, live, with the events redacted for it."""

from __future__ import annotations

from typing import Any

import grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.server.convert import data_to_struct
from tests.support.server import (
    GOING_OUT_DEAL,
    GOING_OUT_MELDS,
    OpenTable,
    StubWatcher,
    open_table,
    seat_metadata,
    status_of,
)


def strings(events: list[dict[str, Any]]) -> set[str]:
    return {v for e in events for v in e.values() if isinstance(v, str)}


def test_every_watcher_gets_the_moves_live_each_redacted_for_it(table: OpenTable) -> None:
    watchers = {seat: StubWatcher(table, seat) for seat in (1, 2, None)}
    table.propose(1, "draw")  # 4C, seen by seat 1 only
    for watcher in watchers.values():
        watcher.wait_for(1)  # subscribed: what follows arrives live
    table.propose(1, "discard", card="JH")
    table.propose(2, "draw")  # TH, seen by seat 2 only
    for watcher in watchers.values():
        assert [(r.version, r.seat) for r in watcher.wait_for(3)] == [(1, 1), (2, 1), (3, 2)]
    seen = {seat: strings(w.events()) for seat, w in watchers.items()}
    assert "4C" in seen[1] and "TH" not in seen[1]
    assert "TH" in seen[2] and "4C" not in seen[2]
    assert not {"4C", "TH"} & seen[None]
    assert "JH" in seen[None]  # a discard is public
    for watcher in watchers.values():
        watcher.close()


def test_a_watch_from_a_version_starts_after_it(table: OpenTable) -> None:
    table.propose(1, "draw")
    table.propose(1, "discard", card="JH")
    watcher = StubWatcher(table, 0, from_version=1)
    assert [r.version for r in watcher.wait_for(1)] == [2]
    table.propose(2, "draw")
    assert [r.version for r in watcher.wait_for(2)] == [2, 3]
    watcher.close()


def test_the_stream_ends_when_the_table_is_over(stub: RefereeStub) -> None:
    # seats 0 and 2 at 99, no re-entry: seat 1 going out ends the match
    table = open_table(
        stub, GOING_OUT_DEAL, scores={0: 99, 2: 99}, options=data_to_struct({"reentry": "none"})
    )
    watcher = StubWatcher(table, None)
    table.propose(1, "draw")
    table.propose(1, "go_out", melds=GOING_OUT_MELDS, discard="KD")
    watcher.thread.join(timeout=5)
    assert not watcher.thread.is_alive() and watcher.error is None
    assert [r.version for r in watcher.received] == [1, 2]
    late = StubWatcher(table, 2)  # a watcher arriving after the end gets the story, then the end
    late.thread.join(timeout=5)
    assert [r.version for r in late.received] == [1, 2]


def test_watching_needs_a_known_table_and_a_valid_token(table: OpenTable) -> None:
    unknown = table.stub.Watch(pb.WatchRequest(table_id="nope"))
    assert status_of(lambda: next(unknown)) is grpc.StatusCode.NOT_FOUND
    forged = table.stub.Watch(
        pb.WatchRequest(table_id=table.table_id), metadata=seat_metadata("forged")
    )
    assert status_of(lambda: next(forged)) is grpc.StatusCode.UNAUTHENTICATED
