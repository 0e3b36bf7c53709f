"""ReissueSeat on a PostgreSQL store two referee services share (issue 27): the old token is
refused by the other service too, at once, though it held the table in memory with the old
token's hash. The control: a service that does not reload a table's tokens when it meets a
reissue in the log keeps taking the old token."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.app import ServerConfig
from referee.engine.game import Game
from referee.server.convert import data_to_struct
from referee.service import RefereeService, tables
from referee.store.postgres import PostgresStore
from tests.support.server import DEAL, OpenTable, seat_metadata, status_of, stub_of

OPERATOR = "the-operator's-secret"
AS_OPERATOR = (("x-create-token", OPERATOR),)


@contextlib.contextmanager
def two_services(pg_url: str, games: dict[str, Game]) -> Iterator[tuple[RefereeStub, RefereeStub]]:
    """Two referee services, each its own store and gRPC server, on one database."""
    stores = [PostgresStore(pg_url), PostgresStore(pg_url)]
    services = [RefereeService(store, games, allow_stacked=True) for store in stores]
    config = ServerConfig(create_token=OPERATOR)
    try:
        with stub_of(services[0], config) as a, stub_of(services[1], config) as b:
            yield a, b
    finally:
        for store in stores:
            store.close()


def view_status(stub: RefereeStub, table: OpenTable, token: str) -> grpc.StatusCode:
    request = pb.GetViewRequest(table_id=table.table_id)
    try:
        stub.GetView(request, metadata=seat_metadata(token))
    except grpc.RpcError as refused:
        return refused.code()
    return grpc.StatusCode.OK


def reissued_through_a(a: RefereeStub, b: RefereeStub) -> tuple[OpenTable, str, str]:
    """A table made through A and held by B (seat 1's view read there), then seat 1's token
    reissued through A: the table, the old token and the new one."""
    request = pb.CreateTableRequest(game="pontinho", seats=3, seed=0, deal=data_to_struct(DEAL))
    created = a.CreateTable(request, metadata=AS_OPERATOR)
    tokens = {seat.seat: seat.token for seat in created.seats}
    table = OpenTable(a, created.table_id, tokens, created.commitment)
    old = table.tokens[1]
    assert view_status(b, table, old) == grpc.StatusCode.OK  # B holds it, old hash and all
    answer = a.ReissueSeat(
        pb.ReissueSeatRequest(table_id=table.table_id, seat=1), metadata=AS_OPERATOR
    )
    return table, old, answer.seat.token


def test_the_old_token_is_refused_by_the_other_service_too(
    pg_url: str, games: dict[str, Game]
) -> None:
    with two_services(pg_url, games) as (a, b):
        table, old, new = reissued_through_a(a, b)
        assert view_status(b, table, old) == grpc.StatusCode.UNAUTHENTICATED
        assert view_status(a, table, old) == grpc.StatusCode.UNAUTHENTICATED
        table.stub = b
        assert table.propose(1, "draw", token=new).outcome == pb.OUTCOME_ACCEPTED
        assert (
            table.propose(2, "draw").outcome == pb.OUTCOME_REJECTED
        )  # seat 2's works: not its turn
        assert status_of(lambda: table.propose(1, "discard", card="JH", token=old)) == (
            grpc.StatusCode.UNAUTHENTICATED
        )


def test_control_without_the_reload_the_old_token_works_on_elsewhere(
    pg_url: str, games: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "_reissue", lambda stored: False)  # the defence off
    with two_services(pg_url, games) as (a, b):
        table, old, _ = reissued_through_a(a, b)
        assert view_status(b, table, old) == grpc.StatusCode.OK  # the attack: B takes it
        assert view_status(a, table, old) == grpc.StatusCode.UNAUTHENTICATED
