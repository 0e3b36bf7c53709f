"""A dispute over gRPC (issue 16): a seat calls the director on a past verdict with `Propose`;
every watcher is told, the reason reaches that seat alone, and the record keeps it."""

from __future__ import annotations

import json

import grpc

from referee.api.v1 import referee_pb2 as pb
from referee.server.convert import struct_to_data
from tests.support.server import OpenTable, seat_metadata

REASON = "seat 1 drew twice"


def test_a_dispute_is_told_to_every_watcher_its_reason_to_its_seat(
    stub: object, table: OpenTable
) -> None:
    assert table.propose(1, "draw").outcome == pb.OUTCOME_ACCEPTED
    verdict = table.propose(2, "dispute", version=1, reason=REASON)
    assert verdict.outcome == pb.OUTCOME_ACCEPTED and verdict.version == 2
    seen = {}
    for seat in (0, 2, None):
        stream = table.stub.Watch(
            pb.WatchRequest(table_id=table.table_id, from_version=1),
            metadata=seat_metadata(None if seat is None else table.tokens[seat]),
        )
        update = next(iter(stream))
        stream.cancel()
        (event,) = update.events
        seen[seat] = (struct_to_data(event.data), event.text)
    assert seen[0] == (
        {"seat": 2, "dispute": 2, "version": 1},
        "seat 2 called the director (dispute 2)",
    )
    assert seen[None] == seen[0]
    assert seen[2][0]["reason"] == REASON and REASON in seen[2][1]


def test_a_dispute_of_a_move_id_the_table_never_had_is_refused(table: OpenTable) -> None:
    table.propose(1, "draw", move_id="d1")
    unknown = table.propose(2, "dispute", proposal="nope", reason=REASON)
    assert unknown.outcome == pb.OUTCOME_REJECTED
    assert (
        unknown.violations[0].rule == "GEN-8"
        and "\u201cnope\u201d" in unknown.violations[0].message
    )
    known = table.propose(2, "dispute", proposal="d1", reason=REASON)
    assert known.outcome == pb.OUTCOME_ACCEPTED and known.version == 2


def test_the_record_keeps_the_dispute_and_its_reason_for_its_seat(table: OpenTable) -> None:
    table.propose(1, "draw")
    table.propose(2, "dispute", version=1, reason=REASON)

    def record(seat: int | None) -> str:
        token = None if seat is None else table.tokens[seat]
        reply = table.stub.GetRecord(
            pb.GetRecordRequest(table_id=table.table_id), metadata=seat_metadata(token)
        )
        return str(reply.record)

    own, other = json.loads(record(2)), json.loads(record(0))
    assert own["steps"][-1]["move"] == {"type": "dispute", "version": 1, "reason": REASON}
    assert REASON not in json.dumps(other)  # another seat's words to the director
    assert any(e["kind"] == "disputed" for e in other["steps"][-1]["events"])


def test_a_dispute_needs_a_seat_s_token(table: OpenTable) -> None:
    request = pb.ProposeRequest(
        table_id=table.table_id,
        move=pb.Move(type="dispute"),
    )
    try:
        table.stub.Propose(request)
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.UNAUTHENTICATED
    else:
        raise AssertionError("a dispute without a token was taken")
