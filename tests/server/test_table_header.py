"""`x-referee-table`: a call that names its table in the header is about that table.

A proxy routes a table's calls to one process by the header, so a request about another table
is INVALID_ARGUMENT, on every method and on a stream, before any work: nothing changes. A
malformed header is INVALID_ARGUMENT too; a call without one is served as before. The control
switches the check off: the mismatched call is then judged.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from google.protobuf import descriptor

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.calls import wire
from referee.calls.metadata import TABLE_HEADER
from referee.server.convert import data_to_struct
from tests.support.server import OpenTable, seat_metadata

ABOUT_A_TABLE = ["Propose", "GetView", "Watch", "GetRecord", "Explain", "Rule", "ReissueSeat"]
OTHER_TABLE = "0123456789abcdef"
MALFORMED = {
    "too long": "a" * 65,
    "a space": "ab cd",
    "a path": "../tables",
    "a colon": "mesa:1",
    "empty": "",
}


def named(table_id: str, token: str | None = None) -> tuple[tuple[str, str], ...]:
    return ((TABLE_HEADER, table_id), *seat_metadata(token))


def refusal(call: Any) -> tuple[grpc.StatusCode, str]:
    """The status of a call expected to fail (a stream read to its end)."""
    with pytest.raises(grpc.RpcError) as failure:
        answer = call()
        if hasattr(answer, "__next__"):  # a stream: its status comes as it is read
            list(answer)
    return failure.value.code(), failure.value.details() or ""


def call_of(stub: RefereeStub, rpc: str, table_id: str, metadata: Any) -> Any:
    kind = getattr(pb, f"{rpc}Request")
    return lambda: getattr(stub, rpc)(kind(table_id=table_id), metadata=metadata, timeout=5)


def draw(table: OpenTable, metadata: Any) -> pb.ProposeResponse:
    request = pb.ProposeRequest(
        table_id=table.table_id, move=pb.Move(type="draw", fields=data_to_struct({}))
    )
    answer: pb.ProposeResponse = table.stub.Propose(request, metadata=metadata)
    return answer


def table_ids_in(message: descriptor.Descriptor, seen: frozenset[str] = frozenset()) -> set[str]:
    """The paths of every field named `table_id` in `message` and the messages inside it."""
    found = set()
    for field in message.fields:
        if field.name == "table_id":
            found.add(field.name)
        inner = field.message_type
        if inner is not None and inner.full_name not in seen:
            deeper = table_ids_in(inner, seen | {message.full_name})
            found |= {f"{field.name}.{path}" for path in deeper}
    return found


def test_the_calls_about_a_table_are_those_with_a_table_id_none_nested() -> None:
    inputs = {m.name: table_ids_in(m.input_type) for m in wire.SERVICE.methods}
    assert {rpc for rpc, paths in inputs.items() if paths} == set(ABOUT_A_TABLE)
    assert all(paths == {"table_id"} for paths in inputs.values() if paths)


@pytest.mark.parametrize("rpc", ABOUT_A_TABLE)
def test_a_header_naming_another_table_is_invalid_argument(table: OpenTable, rpc: str) -> None:
    call = call_of(table.stub, rpc, table.table_id, named(OTHER_TABLE, table.tokens[1]))
    assert refusal(call) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        f"the header `x-referee-table` names table `{OTHER_TABLE}`, "
        f"not the request's `{table.table_id}`",
    )


def test_a_refused_proposal_changes_nothing(table: OpenTable) -> None:
    code, _ = refusal(lambda: draw(table, named(OTHER_TABLE, table.tokens[1])))
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert table.version() == 0
    assert draw(table, named(table.table_id, table.tokens[1])).verdict.version == 1


def test_the_right_header_or_none_is_served(table: OpenTable) -> None:
    assert (
        draw(table, named(table.table_id, table.tokens[1])).verdict.outcome == pb.OUTCOME_ACCEPTED
    )
    assert draw(table, seat_metadata(table.tokens[2])).verdict.outcome == pb.OUTCOME_REJECTED
    request = pb.GetViewRequest(table_id=table.table_id)
    assert table.stub.GetView(request, metadata=named(table.table_id)).version == 1
    stream = table.stub.Watch(
        pb.WatchRequest(table_id=table.table_id), metadata=named(table.table_id)
    )
    assert next(stream).version == 1
    stream.cancel()


@pytest.mark.parametrize("value", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_header_is_invalid_argument(table: OpenTable, value: str) -> None:
    for call in (
        call_of(table.stub, "GetView", table.table_id, ((TABLE_HEADER, value),)),
        lambda: table.stub.ListGames(pb.ListGamesRequest(), metadata=((TABLE_HEADER, value),)),
    ):
        code, message = refusal(call)
        assert code is grpc.StatusCode.INVALID_ARGUMENT
        assert message.startswith("the header `x-referee-table` is not a table id")
        assert len(message) < 200


def test_each_of_a_header_sent_twice_must_name_the_table(table: OpenTable) -> None:
    twice = ((TABLE_HEADER, table.table_id), *named(OTHER_TABLE, table.tokens[1]))
    code, message = refusal(lambda: draw(table, twice))
    assert code is grpc.StatusCode.INVALID_ARGUMENT and OTHER_TABLE in message
    assert table.version() == 0


def test_a_call_about_no_table_ignores_a_well_formed_header(stub: RefereeStub) -> None:
    games = stub.ListGames(pb.ListGamesRequest(), metadata=named(OTHER_TABLE)).games
    assert "pontinho" in {g.name for g in games}


def test_control_without_the_check_a_mismatched_proposal_is_judged(
    table: OpenTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "verify_table_header", lambda metadata, request: None)
    verdict = draw(table, named(OTHER_TABLE, table.tokens[1])).verdict
    assert verdict.outcome == pb.OUTCOME_ACCEPTED and table.version() == 1
