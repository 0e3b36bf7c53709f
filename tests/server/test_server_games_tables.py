"""ListGames, DescribeGame and CreateTable over gRPC: answers, and refusals with their status."""

from __future__ import annotations

import json
from pathlib import Path

import grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.server.convert import data_to_struct, struct_to_data
from referee.store.base import Store
from tests.support.server import DEAL, open_table, status_of


def test_list_games_names_each_spec(stub: RefereeStub) -> None:
    games = {g.name: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    assert games["pontinho"].title == "Pontinho"
    assert (games["pontinho"].min_seats, games["pontinho"].max_seats) == (3, 5)


def test_describe_game_gives_options_moves_and_rules(stub: RefereeStub) -> None:
    response = stub.DescribeGame(pb.DescribeGameRequest(game="pontinho"))
    description = struct_to_data(response.description)
    assert response.name == description["name"] == "pontinho"
    assert "joker_rule" in {o["name"] for o in description["options"]}
    assert {"draw", "discard", "meld"} <= {m["type"] for m in description["moves"]}
    assert all(rule["id"] and rule["text"] for rule in description["rules"])


def test_describe_a_trick_taking_game_gives_its_pack_and_teams(stub: RefereeStub) -> None:
    response = stub.DescribeGame(pb.DescribeGameRequest(game="tarocchi_piedicavallo"))
    description = struct_to_data(response.description)
    assert description["pack"] == {"kind": "tarot", "copies": 1, "size": 62}
    assert description["teams"] == [[0, 2], [1, 3]]
    assert (description["hand_size"], description["dealer_extra"]) == (15, 2)
    assert {m["type"] for m in description["moves"]} == {"discard", "play", "contribute", "dispute"}


def test_describe_an_unknown_game_is_not_found(stub: RefereeStub) -> None:
    with_error = status_of(lambda: stub.DescribeGame(pb.DescribeGameRequest(game="chess")))
    assert with_error is grpc.StatusCode.NOT_FOUND


def test_create_table_gives_a_secret_token_per_seat_and_a_commitment(stub: RefereeStub) -> None:
    table = open_table(stub)
    assert sorted(table.tokens) == [0, 1, 2]
    assert len(set(table.tokens.values())) == 3
    assert len(table.commitment) == 64 and int(table.commitment, 16) >= 0
    assert table.version() == 0


def test_a_seeded_table_deals_nine_cards_to_each_seat(stub: RefereeStub) -> None:
    response = stub.CreateTable(pb.CreateTableRequest(game="pontinho", seats=4, seed=42))
    token = {t.seat: t.token for t in response.seats}[2]
    view = stub.GetView(
        pb.GetViewRequest(table_id=response.table_id), metadata=(("x-seat-token", token),)
    )
    assert len(struct_to_data(view.view)["hand"]) == 9


def test_an_unknown_game_is_not_found(stub: RefereeStub, store: Store) -> None:
    create = pb.CreateTableRequest(game="chess", seats=2)
    assert status_of(lambda: stub.CreateTable(create)) is grpc.StatusCode.NOT_FOUND
    assert store.table_ids() == []


def test_a_bad_option_is_an_invalid_argument_that_names_it(stub: RefereeStub, store: Store) -> None:
    for options in ({"joker_rule": "backwards"}, {"jokers_everywhere": True}):
        create = pb.CreateTableRequest(game="pontinho", seats=3, options=data_to_struct(options))
        try:
            stub.CreateTable(create)
        except grpc.RpcError as error:
            assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
            assert next(iter(options)) in (error.details() or "")
        else:
            raise AssertionError(f"options {options} were accepted")
    assert store.table_ids() == []


def test_a_bad_seat_count_or_deal_is_an_invalid_argument(stub: RefereeStub, store: Store) -> None:
    too_many = pb.CreateTableRequest(game="pontinho", seats=9, seed=1)
    assert status_of(lambda: stub.CreateTable(too_many)) is grpc.StatusCode.INVALID_ARGUMENT
    bad_card = {**DEAL, "turned": "ZZ"}
    assert status_of(lambda: open_table(stub, bad_card)) is grpc.StatusCode.INVALID_ARGUMENT
    assert store.table_ids() == []


def test_a_missing_game_is_an_invalid_argument(stub: RefereeStub) -> None:
    create = pb.CreateTableRequest(seats=3)
    assert status_of(lambda: stub.CreateTable(create)) is grpc.StatusCode.INVALID_ARGUMENT


def test_describe_game_publishes_the_typed_contract(stub: RefereeStub) -> None:
    """The JSON Schemas of docs/schemas/ (moves, view, events), and each move's typed fields."""
    response = stub.DescribeGame(pb.DescribeGameRequest(game="pontinho"))
    description = json.loads(json.dumps(struct_to_data(response.description)))
    committed = json.loads(
        (Path(__file__).resolve().parents[2] / "docs" / "schemas" / "pontinho.json").read_text(
            encoding="utf-8"
        )
    )
    assert description["schemas"] == {k: v for k, v in committed.items() if k != "game"}
    discard = next(m for m in description["moves"] if m["type"] == "discard")
    assert discard["fields"] == ["card"]
    assert discard["typed_fields"] == [{"name": "card", "type": "card", "optional": False}]
    layoff = next(m for m in description["moves"] if m["type"] == "take_discard")["typed_fields"][1]
    assert layoff["type"] == "record" and layoff["optional"] is True
    assert [f["name"] for f in layoff["fields"]] == ["meld", "cards", "at"]
