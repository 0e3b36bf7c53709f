"""GetRecord and GetSigningKey over real gRPC: a seat's record of a table in play shows only what
that seat may see; the operator's token, or the table's end, gives the full record; every record
is signed by the key GetSigningKey gives, and verifies."""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.app import ServerConfig
from referee.bench import recorded_game
from referee.engine.game import Game
from referee.records.signing import read_public_key
from referee.records.verification import verify
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from tests.support.server import (
    DEAL,
    OpenTable,
    seat_metadata,
    serving,
    status_of,
    strings_in,
)

OPERATOR = "the-operator's-secret"


def record_of(
    stub: RefereeStub, table_id: str, metadata: tuple[tuple[str, str], ...] = ()
) -> tuple[dict[str, Any], pb.GetRecordResponse]:
    answer = stub.GetRecord(pb.GetRecordRequest(table_id=table_id), metadata=metadata)
    return json.loads(answer.record), answer


def played(table: OpenTable) -> None:
    assert table.propose(1, "draw").outcome == pb.OUTCOME_ACCEPTED  # draws 4C
    assert table.propose(1, "discard", card="JH").outcome == pb.OUTCOME_ACCEPTED


def test_a_seats_record_shows_what_that_seat_may_see(
    table: OpenTable, stub: RefereeStub, games: dict[str, Game]
) -> None:
    played(table)
    record, answer = record_of(stub, table.table_id, seat_metadata(table.tokens[2]))
    assert not answer.full and record["seen_by"] == 2
    assert [step["version"] for step in record["steps"]] == [1, 2]
    assert all("move" not in step for step in record["steps"])  # seat 1's moves, not its own
    others = {*DEAL["hands"][0], *DEAL["hands"][1], *DEAL["stock"]} - {"JH"}  # JH: discarded
    assert not strings_in(record) & others
    assert "JH" in strings_in(record)

    own, _ = record_of(stub, table.table_id, seat_metadata(table.tokens[1]))
    assert "4C" in strings_in(own)  # the control: seat 1 sees the card it drew
    assert own["steps"][0]["move"] == {"type": "draw"}
    public, _ = record_of(stub, table.table_id)
    assert public["seen_by"] == "public" and "4C" not in strings_in(public)

    verified = verify(answer.record, games.values())
    assert verified.holds
    assert {c.name: c.holds for c in verified.checks} == {
        "form": True,
        "signature": True,
        "record": None,
    }


def test_the_operator_gets_the_full_record_of_a_table_in_play(games: dict[str, Game]) -> None:
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    config = ServerConfig(create_token=OPERATOR)
    with serving(service, config) as address, grpc.insecure_channel(address) as channel:
        stub = RefereeStub(channel)
        operator = (("x-create-token", OPERATOR),)
        created = stub.CreateTable(
            pb.CreateTableRequest(game="pontinho", seats=3, seed=7), metadata=operator
        )
        record, answer = record_of(stub, created.table_id, operator)
        assert answer.full and "seen_by" not in record and record["seed"] == 7
        assert verify(answer.record, games.values()).holds
        wrong = (("x-create-token", OPERATOR + "x"),)
        refused = status_of(lambda: record_of(stub, created.table_id, wrong))
        assert refused == grpc.StatusCode.PERMISSION_DENIED


def test_without_an_operator_token_configured_nobody_is_the_operator(
    table: OpenTable, stub: RefereeStub
) -> None:
    claimed = (("x-create-token", "anything"),)
    assert status_of(lambda: record_of(stub, table.table_id, claimed)) == (
        grpc.StatusCode.PERMISSION_DENIED
    )


def test_a_finished_table_gives_everyone_its_full_signed_record(
    service: RefereeService, stub: RefereeStub, games: dict[str, Game]
) -> None:
    game = games["tarocchi_piedicavallo"]
    setup, proposals = recorded_game(game, seed=4)
    created = service.create_table(game.name, options=setup.options, seats=setup.seats, seed=4)
    for seat, move in proposals:
        service.propose(created.table_id, created.tokens[seat], move)
    record, answer = record_of(stub, created.table_id)  # a spectator
    assert answer.full and record["result"]["match_over"]
    key = stub.GetSigningKey(pb.GetSigningKeyRequest())
    assert key.algorithm == "ed25519" and record["signature"]["key"] == key.public_key
    verified = verify(answer.record, games.values(), trusted=read_public_key(key.public_key))
    assert verified.holds and all(check.holds for check in verified.checks), verified.checks


@pytest.mark.parametrize(
    ("table_id", "token", "code"),
    [
        ("", None, grpc.StatusCode.INVALID_ARGUMENT),
        ("nope", None, grpc.StatusCode.NOT_FOUND),
        ("nope", "a-token", grpc.StatusCode.UNAUTHENTICATED),
    ],
)
def test_a_record_asked_amiss_is_a_clear_status(
    stub: RefereeStub, table_id: str, token: str | None, code: grpc.StatusCode
) -> None:
    assert status_of(lambda: record_of(stub, table_id, seat_metadata(token))) == code
