"""What a hostile client found answered INTERNAL (issue 25, F6), each now INVALID_ARGUMENT naming
the field, over gRPC and over the HTTP gateway of one real referee (SQLite behind it).

Numbers beyond the 64-bit range (a 400-digit integer) in a record for Adjudicate, as its seed, its
deal's seed, a move's field or a Pontoon amount, were read, played, and failed only when the
answer was sent (a Struct's double cannot hold them); in an HTTP body they failed in the JSON to
proto conversion. Two keys of a stacked deal naming one seat (`01` and `1`) made a setup the
store could not write. Each attack has its control: with the defence taken out of the server
(`referee.bounds`' check where a record or an HTTP body is read, the stacked deal's seat check),
the same call is INTERNAL again.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
import yaml

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.app import ServerConfig, create_server
from referee.bounds import Beyond, first_beyond_int64, integer_key
from referee.engine import stacked
from referee.engine.game import Game
from referee.scenario import format as record_format
from referee.server.convert import data_to_struct
from referee.service import RefereeService
from referee.store.codec import restore_key
from referee.store.sqlite import SqliteStore
from referee.web import messages
from tests.support.server import DEAL, MAX_MESSAGE_BYTES, OpenTable, open_table, seat_metadata
from tests.web.web_support import Http

HUGE = int("9" * 400)
BEYOND = "is beyond the 64-bit integer range"

# the records the hostile client sent, each with the field its huge number stands in
PONTOON: dict[str, Any] = {"format": 1, "game": "pontoon", "seats": 2, "steps": []}
POKER_DECK = {"deck": ["9H", "TC", "9S", "7C", "5H", "2S", "8D", "TD"]}
RECORDS: dict[str, tuple[dict[str, Any], str]] = {
    "seed": ({**PONTOON, "seed": HUGE}, "seed"),
    "deal seed": ({**PONTOON, "deal": {"seed": HUGE}}, "deal.seed"),
    "move field": (
        {
            "format": 1,
            "game": "pontinho",
            "seats": 3,
            "seed": 1,
            "steps": [{"seat": 1, "move": {"type": "lay_off", "meld": HUGE, "cards": ["AH"]}}],
        },
        "steps[0].move.meld",
    ),
    "pontoon amount": (
        {
            **PONTOON,
            "deal": POKER_DECK,
            "balances": {0: 500, 1: 500},
            "steps": [{"seat": 1, "move": {"type": "bet", "amount": HUGE}}],
        },
        "steps[0].move.amount",
    ),
}
# two keys of a stacked deal naming one seat, in the order given
TWICE = [("01", "1"), ("1", "01"), ("00", "0"), ("-0", "0"), ("002", "2")]


@dataclass(frozen=True)
class Referee:
    """One referee, reached both ways."""

    stub: RefereeStub
    http: Http


@dataclass(frozen=True)
class Answer:
    code: str  # the status's name: `OK`, `INVALID_ARGUMENT`, `INTERNAL`...
    message: str
    data: Any = None


@pytest.fixture(scope="module")
def referee(games: dict[str, Game], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Referee]:
    """One referee for the module (its SQLite store in a file), both ports."""
    store = SqliteStore(tmp_path_factory.mktemp("huge") / "tables.db")
    service = RefereeService(store, games, allow_stacked=True)
    server, port = create_server(service, config=ServerConfig(max_message_bytes=MAX_MESSAGE_BYTES))
    server.start()
    http = Http(server.serve_http("127.0.0.1", 0))
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield Referee(RefereeStub(channel), http)
    service.close()
    server.stop(None)


@pytest.fixture
def undefended(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: the server as it was, without the checks this finding added."""
    monkeypatch.setattr(record_format, "first_beyond_int64", lambda data: None)
    monkeypatch.setattr(messages, "check_numbers", lambda data: None)
    monkeypatch.setattr(stacked, "seats_of", _any_digits_name_a_seat)


def _any_digits_name_a_seat(raw: Any, seats: int) -> dict[Any, int]:
    """The seat check as it was: the digits of a key, whatever their form, and no key is
    compared with another."""
    return {key: int(key) for key in raw}


# -- the calls, both ways -----------------------------------------------------------------


def grpc_answer(call: Any) -> Answer:
    try:
        return Answer("OK", "", call())
    except grpc.RpcError as failure:
        return Answer(failure.code().name, failure.details() or "")


def http_answer(referee: Referee, path: str, body: Any, token: str = "") -> Answer:
    headers = {"x-seat-token": token} if token else {}
    answer = referee.http.call("POST", path, body, headers=headers)
    if answer.status == 200:
        return Answer("OK", "", answer.data)
    return Answer(answer.data["code"], answer.data["message"])


def adjudicate(referee: Referee, way: str, record: dict[str, Any]) -> Answer:
    text = yaml.safe_dump(record)
    if way == "grpc":  # a Struct's double cannot carry 400 digits: the record as YAML
        request = pb.AdjudicateRequest(record_yaml=text)
        return grpc_answer(lambda: referee.stub.Adjudicate(request))
    if way == "http yaml":
        return http_answer(referee, "/v1/adjudicate", {"record_yaml": text})
    return http_answer(referee, "/v1/adjudicate", {"record_data": _json_keys(record)})


def create_table(referee: Referee, way: str, **request: Any) -> Answer:
    if way == "grpc":
        fields: dict[str, Any] = {
            k: data_to_struct(v) if isinstance(v, dict) else v for k, v in request.items()
        }
        message = pb.CreateTableRequest(**fields)
        return grpc_answer(lambda: referee.stub.CreateTable(message))
    return http_answer(referee, "/v1/tables", _json_keys(request))


def _json_keys(data: Any) -> Any:
    """`data` with its keys as JSON writes them (`0` -> `"0"`)."""
    if isinstance(data, dict):
        return {str(key): _json_keys(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_json_keys(item) for item in data]
    return data


def stacked_twice(first: str, second: str) -> dict[str, Any]:
    """`DEAL` with the hand of the seat `second` names given under both keys."""
    seat = int(second)
    hands = {str(s): cards for s, cards in DEAL["hands"].items() if s != seat}
    cards = DEAL["hands"][seat]
    return {**DEAL, "hands": {**hands, first: list(cards), second: list(cards)}}


# -- a number beyond 64 bits in a record (Adjudicate) ---------------------------------------


@pytest.mark.parametrize("way", ["grpc", "http yaml", "http data"])
@pytest.mark.parametrize("shape", sorted(RECORDS))
def test_a_record_with_a_huge_number_is_invalid_argument_naming_it(
    referee: Referee, shape: str, way: str
) -> None:
    record, field = RECORDS[shape]
    answer = adjudicate(referee, way, record)
    assert answer.code == "INVALID_ARGUMENT"
    assert f"{field}`: `99999999999999999999...` (400 digits) {BEYOND}" in answer.message


@pytest.mark.parametrize("way", ["grpc", "http yaml", "http data"])
@pytest.mark.parametrize("shape", sorted(RECORDS))
def test_control_without_the_check_a_huge_number_in_a_record_was_internal(
    referee: Referee, undefended: None, shape: str, way: str
) -> None:
    assert adjudicate(referee, way, RECORDS[shape][0]).code == "INTERNAL"


@pytest.mark.parametrize("way", ["grpc", "http yaml", "http data"])
def test_the_64_bit_edges_of_a_record(referee: Referee, way: str) -> None:
    """A Struct's double rounds 2^63 - 1 up (beyond): `record_data` holds 2^62 at most."""
    edges = [2**62, -(2**62)] if way == "http data" else [2**63 - 1, -(2**63)]
    for seed in edges:
        answer = adjudicate(referee, way, {**PONTOON, "seed": seed})
        assert answer.code == "OK", answer
    answer = adjudicate(referee, way, {**PONTOON, "seed": 2**63})
    assert answer.code == "INVALID_ARGUMENT"
    assert f"seed`: `9223372036854775808` {BEYOND}" in answer.message


# -- a number beyond 64 bits in a live table's move, and in CreateTable ---------------------


def shoot_table(referee: Referee) -> OpenTable:
    return open_table(
        referee.stub,
        deal={"deck": []},
        game="shoot_pontoon",
        seats=3,
        balances={0: 500, 1: 500, 2: 500},
    )


def propose_kitty(referee: Referee, way: str, table: OpenTable, amount: Any) -> Answer:
    move = {"type": "kitty", "fields": {"amount": amount}}
    if way == "grpc":
        request = pb.ProposeRequest(
            table_id=table.table_id,
            move=pb.Move(type="kitty", fields=data_to_struct({"amount": amount})),
            move_id="k1",
        )
        metadata = seat_metadata(table.tokens[0])
        return grpc_answer(lambda: referee.stub.Propose(request, metadata=metadata))
    path = f"/v1/tables/{table.table_id}/moves"
    return http_answer(referee, path, {"move": move, "move_id": "k1"}, table.tokens[0])


def test_a_huge_amount_in_an_http_propose_body_is_invalid_argument(referee: Referee) -> None:
    table = shoot_table(referee)
    answer = propose_kitty(referee, "http", table, HUGE)
    assert answer.code == "INVALID_ARGUMENT"
    assert answer.message.startswith("`move.fields.amount`: `99999999999999999999...` (400")
    assert table.version() == 0 and table.view(0)["kitty"] == 0
    assert propose_kitty(referee, "http", table, 100).code == "OK"
    assert table.view(0)["kitty"] == 100


def test_the_largest_amount_a_struct_carries_is_a_gen8_rejection(referee: Referee) -> None:
    """Over gRPC a move's number is a double (1.7e308 at most): a move of a live table beyond
    the amounts' range is the engine's to judge, as GEN-8."""
    table = shoot_table(referee)
    answer = propose_kitty(referee, "grpc", table, 1.7e308)
    verdict = answer.data.verdict
    assert answer.code == "OK" and verdict.outcome == pb.OUTCOME_REJECTED
    assert [v.rule for v in verdict.violations] == ["GEN-8"]
    assert "1.7e+308 is out of range" in verdict.violations[0].message
    assert table.version() == 0


def test_control_without_the_check_a_huge_http_amount_was_internal(
    referee: Referee, undefended: None
) -> None:
    table = shoot_table(referee)
    assert propose_kitty(referee, "http", table, HUGE).code == "INTERNAL"
    assert table.version() == 0


@pytest.mark.parametrize("way, number", [("grpc", 1e300), ("http", HUGE), ("http", 1e300)])
@pytest.mark.parametrize("part", ["options", "deal"])
def test_a_huge_number_in_create_table_is_invalid_argument(
    referee: Referee, way: str, number: float, part: str
) -> None:
    """Over gRPC, 1e300: what a Struct's double carries at most."""
    asked = {"options": {"max_bet": number}} if part == "options" else {"deal": {"deck": [number]}}
    field = "options.max_bet" if part == "options" else "deal.deck[0]"
    answer = create_table(referee, way, game="pontoon", seats=2, **asked)
    assert answer.code == "INVALID_ARGUMENT"
    assert answer.message.startswith(f"`{field}`: ") and BEYOND in answer.message


def test_control_without_the_check_a_huge_http_option_was_internal(
    referee: Referee, undefended: None
) -> None:
    answer = create_table(referee, "http", game="pontoon", seats=2, options={"max_bet": HUGE})
    assert answer.code == "INTERNAL"


@pytest.mark.parametrize("way", ["grpc", "http"])
def test_a_key_of_thousands_of_digits_is_no_seat(referee: Referee, way: str) -> None:
    """A Struct key of digits becomes a seat number: 5,000 of them once did, and Python
    refused to make the number."""
    key = "9" * 5000
    answer = create_table(referee, way, game="pontinho", seats=3, deal={"hands": {key: ["AH"]}})
    assert answer.code == "INVALID_ARGUMENT" and "is not a seat of this table" in answer.message
    answer = create_table(referee, way, game="pontoon", seats=2, options={key: 1})
    assert answer.code == "INVALID_ARGUMENT" and answer.message.startswith("unknown option")
    assert "9" * 50 not in answer.message  # the name quoted shortened


# -- two keys of a stacked deal naming one seat ---------------------------------------------


@pytest.mark.parametrize("way", ["grpc", "http"])
@pytest.mark.parametrize("first, second", TWICE)
def test_a_seat_given_twice_in_a_stacked_deal_is_invalid_argument(
    referee: Referee, way: str, first: str, second: str
) -> None:
    deal = stacked_twice(first, second)
    answer = create_table(referee, way, game="pontinho", seats=3, deal=deal)
    assert answer.code == "INVALID_ARGUMENT"
    both = [f"`{first}` and `{second}`", f"`{second}` and `{first}`"]  # a Struct has no order
    told = [f"stacked deal: {keys} both name seat {int(second)}: give each once" for keys in both]
    assert answer.message in told


@pytest.mark.parametrize("way", ["grpc", "http"])
def test_a_seat_written_otherwise_than_its_number_is_refused(referee: Referee, way: str) -> None:
    hands = {"0": DEAL["hands"][0], "01": DEAL["hands"][1], "2": DEAL["hands"][2]}
    answer = create_table(referee, way, game="pontinho", seats=3, deal={**DEAL, "hands": hands})
    assert answer.code == "INVALID_ARGUMENT"
    assert answer.message == "stacked deal: `01` names seat 1: write it `1`"


@pytest.mark.parametrize("way", ["grpc", "http yaml", "http data"])
def test_a_seat_given_twice_in_a_record_is_invalid_argument(referee: Referee, way: str) -> None:
    record = {"format": 1, "game": "pontinho", "seats": 3, "deal": stacked_twice("01", "1")}
    answer = adjudicate(referee, way, {**record, "steps": []})
    assert answer.code == "INVALID_ARGUMENT"
    assert "`deal.hands`: `01` and `1` both name 1" in answer.message or (
        "`deal.hands`: `1` and `01` both name 1" in answer.message
    )


@pytest.mark.parametrize("way", ["grpc", "http"])
def test_control_without_the_check_a_seat_given_twice_was_internal(
    referee: Referee, undefended: None, way: str
) -> None:
    deal = stacked_twice("01", "1")
    assert create_table(referee, way, game="pontinho", seats=3, deal=deal).code == "INTERNAL"


# -- the check itself -----------------------------------------------------------------------


def test_the_first_number_beyond_64_bits_is_named_in_the_order_written() -> None:
    data = {"a": [1, {"b": 2**63 - 1}], "c": {"d": [0, -(2**63) - 1]}, "e": HUGE}
    found = first_beyond_int64(data)
    assert found is not None and (found.path, found.number) == ("c.d[1]", -(2**63) - 1)
    assert found.message == f"`c.d[1]`: `-9223372036854775809` {BEYOND}"
    assert first_beyond_int64({"x": [math.nan, 2**63 - 1, -(2**63), 1.5, True]}) is None
    assert first_beyond_int64([math.inf]) == Beyond("[0]", math.inf)
    assert Beyond("steps[12].move", 1).step == 13 and Beyond("seed", 1).step == 0


def test_a_key_names_an_integer_in_ascii_digits_within_64_bits() -> None:
    named = {"1": 1, "01": 1, "-0": 0, "-3": -3, 7: 7, str(2**63 - 1): 2**63 - 1}
    for key, number in named.items():
        assert integer_key(key) == number
    for other in (" 1", "1 ", "+1", "\uff11", "1.0", "", "-", True, str(2**63), "9" * 5000, 2**64):
        assert integer_key(other) is None


def test_a_struct_key_is_a_seat_number_only_when_canonical_and_short() -> None:
    """`restore_key` (Struct keys, and the store's): `-0` beside `0` would be one key, and
    `int()` refuses 5,000 digits."""
    assert [restore_key(k) for k in ("0", "1", "-2", "9" * 18)] == [0, 1, -2, int("9" * 18)]
    for text in ("-0", "01", "00", "9" * 19, "9" * 5000, "1e3", " 1"):
        assert restore_key(text) == text
