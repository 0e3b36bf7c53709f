"""Seats act and see only with their own token; a view never holds another seat's hidden card."""

from __future__ import annotations

import grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.engine.game import Game
from referee.store.base import Store
from tests.support.server import (
    OpenTable,
    full_view,
    open_table,
    seat_metadata,
    status_of,
    strings_in,
)


def propose_draw(
    table: OpenTable, token: str | None, seat: int | None = None
) -> pb.ProposeResponse:
    """A draw with `token`; `seat`: the seat the request claims (None: the token's own)."""
    request = pb.ProposeRequest(table_id=table.table_id, move=pb.Move(type="draw"), seat=seat)
    response: pb.ProposeResponse = table.stub.Propose(request, metadata=seat_metadata(token))
    return response


def test_a_proposal_without_a_token_is_unauthenticated(table: OpenTable) -> None:
    assert status_of(lambda: propose_draw(table, None)) is grpc.StatusCode.UNAUTHENTICATED
    assert table.version() == 0


def test_an_unknown_token_is_unauthenticated(table: OpenTable) -> None:
    assert status_of(lambda: propose_draw(table, "forged")) is grpc.StatusCode.UNAUTHENTICATED
    get_view = pb.GetViewRequest(table_id=table.table_id)
    forged_view = lambda: table.stub.GetView(get_view, metadata=seat_metadata("forged"))  # noqa: E731
    assert status_of(forged_view) is grpc.StatusCode.UNAUTHENTICATED


def test_a_token_is_valid_at_its_own_table_only(stub: RefereeStub, table: OpenTable) -> None:
    other = open_table(stub)
    token = other.tokens[1]
    assert status_of(lambda: propose_draw(table, token)) is grpc.StatusCode.UNAUTHENTICATED
    assert table.version() == 0


def test_the_token_decides_the_seat(table: OpenTable) -> None:
    """Seat 2's token cannot make seat 1's move: it is judged as seat 2's, out of turn."""
    verdict = propose_draw(table, table.tokens[2]).verdict
    assert (verdict.outcome, verdict.seat) == (pb.OUTCOME_REJECTED, 2)
    assert table.version() == 0


def test_a_token_cannot_claim_another_seat(table: OpenTable) -> None:
    claim = lambda: propose_draw(table, table.tokens[2], seat=1)  # noqa: E731
    assert status_of(claim) is grpc.StatusCode.PERMISSION_DENIED
    get_view = pb.GetViewRequest(table_id=table.table_id, seat=2)
    peek = lambda: table.stub.GetView(get_view, metadata=seat_metadata(table.tokens[1]))  # noqa: E731
    assert status_of(peek) is grpc.StatusCode.PERMISSION_DENIED
    assert table.version() == 0


def test_claiming_ones_own_seat_is_fine(table: OpenTable) -> None:
    verdict = propose_draw(table, table.tokens[1], seat=1).verdict
    assert verdict.outcome == pb.OUTCOME_ACCEPTED


def hidden_cards(store: Store, games: dict[str, Game], table: OpenTable, seat: int) -> set[str]:
    return set(full_view(store, games, table.table_id)["hands"][str(seat)])


def test_a_seat_never_sees_another_seats_hand(
    table: OpenTable, store: Store, games: dict[str, Game]
) -> None:
    table.propose(1, "draw")
    table.propose(1, "discard", card="JH")
    table.propose(2, "draw")  # seat 2 draws TH: now in its hand, seen by no one else
    seat_2_hand = hidden_cards(store, games, table, 2)
    assert "TH" in seat_2_hand
    for watcher in (0, 1, None):
        assert not strings_in(table.view(watcher)) & seat_2_hand, f"seat {watcher} sees seat 2"
    assert set(table.view(2)["hand"]) == seat_2_hand


def test_the_public_view_holds_no_hand(
    table: OpenTable, store: Store, games: dict[str, Game]
) -> None:
    view = table.view(None)
    assert "hand" not in view
    every_hand = set().union(*(hidden_cards(store, games, table, s) for s in range(3)))
    assert not strings_in(view) & every_hand
