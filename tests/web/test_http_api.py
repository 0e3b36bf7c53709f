"""The HTTP/JSON routes over a real server (port 0): each read from the proto's google.api.http
options, served through the gRPC server's own handlers (docs/web.md)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc
from referee.calls.limits import Limits, Rate
from referee.engine.game import Game
from referee.records.signing import read_public_key
from referee.records.verification import verify
from referee.server.convert import data_to_struct
from referee.web.routes import routes
from tests.support.server import DEAL
from tests.web.conftest import MAX_MESSAGE_BYTES
from tests.web.web_support import Http, bearer

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "docs" / "examples" / "pontinho-layoff-on-sequence.yaml"
PONTINHO = {
    "game": "pontinho",
    "seats": 3,
    "options": {"joker_rule": "same_rank_other_colour"},
    "deal": DEAL,
}


def create(http: Http, **extra: Any) -> dict[str, Any]:
    answer = http.call("POST", "/v1/tables", {**PONTINHO, **extra})
    assert answer.status == 200, answer.data
    return {
        "id": answer.data["table_id"],
        "tokens": {s["seat"]: s["token"] for s in answer.data["seats"]},
    }


def propose(http: Http, table: dict[str, Any], seat: int, move: dict[str, Any], **h: str) -> Any:
    headers = {**bearer(table["tokens"][seat]), **h}
    return http.call("POST", f"/v1/tables/{table['id']}/moves", {"move": move}, headers=headers)


def test_every_annotated_rpc_has_its_route() -> None:
    served = {(r.verb, r.path): r.rpc for r in routes()}
    assert served[("POST", "/v1/tables/{p0}/moves")] == "Propose"
    assert served[("GET", "/v1/tables/{p0}/events")] == "Watch"
    assert served[("POST", "/v1/tables/{p0}/rulings")] == "Rule"
    assert served[("GET", "/v1/tables")] == "ListTables"
    assert served[("POST", "/v1/tables/{p0}/seats/{p1}/token")] == "ReissueSeat"
    assert set(served.values()) >= {
        "ListGames",
        "DescribeGame",
        "CreateTable",
        "Propose",
        "GetView",
        "Watch",
        "Adjudicate",
        "GetRecord",
        "GetSigningKey",
    }


def test_a_seats_signed_record_over_http(http: Http, games: dict[str, Game]) -> None:
    table = create(http)
    assert propose(http, table, 1, {"type": "draw"}).status == 200
    path = f"/v1/tables/{table['id']}/record"
    answer = http.call("GET", path, headers=bearer(table["tokens"][1]))
    assert answer.status == 200 and answer.data["full"] is False
    record = json.loads(answer.data["record"])
    key = http.call("GET", "/v1/signing-key").data
    assert record["seen_by"] == 1 and record["signature"]["key"] == key["public_key"]
    assert verify(answer.data["record"], games.values(), read_public_key(key["public_key"])).holds
    spectator = json.loads(http.call("GET", path).data["record"])
    assert "4C" not in json.dumps(spectator) and "4C" in json.dumps(record)  # seat 1 drew it


def test_games_and_a_description(http: Http) -> None:
    names = [g["name"] for g in http.call("GET", "/v1/games").data["games"]]
    assert "pontinho" in names
    described = http.call("GET", "/v1/games/pontinho", headers={"Accept-Language": "pt"})
    assert described.status == 200
    assert described.data["description"]["language"] == "pt"


def test_create_propose_view(http: Http) -> None:
    table = create(http)
    drawn = propose(http, table, 1, {"type": "draw"})
    assert drawn.status == 200
    assert drawn.data["verdict"]["outcome"] == "OUTCOME_ACCEPTED"
    assert drawn.data["verdict"]["version"] == 1  # int64 as a number
    view = http.call("GET", f"/v1/tables/{table['id']}/view", headers=bearer(table["tokens"][1]))
    assert view.status == 200
    assert view.data["seat"] == 1 and view.data["over"] is False
    assert "4C" in view.data["view"]["hand"]


def test_a_rejected_move_is_a_verdict_in_the_callers_language(http: Http) -> None:
    table = create(http)
    refused = propose(
        http,
        table,
        1,
        {"type": "discard", "fields": {"card": "JH"}},
        **{"Accept-Language": "pt-BR, pt;q=0.9"},
    )
    assert refused.status == 200
    verdict = refused.data["verdict"]
    assert verdict["outcome"] == "OUTCOME_REJECTED"
    english = propose(http, table, 1, {"type": "discard", "fields": {"card": "JH"}})
    assert verdict["violations"][0]["rule"] == english.data["verdict"]["violations"][0]["rule"]
    assert (
        verdict["violations"][0]["message"] != english.data["verdict"]["violations"][0]["message"]
    )


def test_the_view_is_the_grpc_view(http: Http, stub: referee_pb2_grpc.RefereeStub) -> None:
    table = create(http)
    propose(http, table, 1, {"type": "draw"})
    for seat in (None, 0, 1, 2):
        headers = {} if seat is None else bearer(table["tokens"][seat])
        over_http = http.call("GET", f"/v1/tables/{table['id']}/view", headers=headers).data
        metadata = () if seat is None else (("x-seat-token", table["tokens"][seat]),)
        over_grpc = stub.GetView(pb.GetViewRequest(table_id=table["id"]), metadata=metadata)
        assert over_http["view"] == json.loads(json_format.MessageToJson(over_grpc.view))


def test_no_hidden_card_reaches_another_seat(
    http: Http, stub: referee_pb2_grpc.RefereeStub
) -> None:
    """Every hand of DEAL is distinct: a card of seat 0's or seat 2's hand, or the card seat 1
    draws, never shows in seat 2's view or events, nor a spectator's."""
    table = create(http)
    seen: dict[str, list[str]] = {"2": [], "spectator": []}
    readers = [
        _read_events(
            http, f"/v1/tables/{table['id']}/events", bearer(table["tokens"][2]), seen["2"]
        ),
        _read_events(http, f"/v1/tables/{table['id']}/events", {}, seen["spectator"]),
    ]
    propose(http, table, 1, {"type": "draw"})  # 4C, to seat 1 alone
    verdict = propose(http, table, 1, {"type": "discard", "fields": {"card": "JH"}})
    assert verdict.data["verdict"]["outcome"] == "OUTCOME_ACCEPTED"
    for reader in readers:
        reader.join(timeout=10)
    seat_1_only = {"4C", *DEAL["hands"][1]} - {"JH"}  # JH is discarded: public
    for who, texts in seen.items():
        assert len(texts) == 2, who
        for text in texts:
            assert not seat_1_only & set(_card_codes(text)), (who, text)
    view_2 = json.dumps(
        http.call("GET", f"/v1/tables/{table['id']}/view", headers=bearer(table["tokens"][2])).data
    )
    hidden_from_2 = seat_1_only | set(DEAL["hands"][0]) | set(DEAL["stock"][1:])
    assert not hidden_from_2 & set(_card_codes(view_2))


def _card_codes(text: str) -> list[str]:
    return [word.strip('"[],:{}') for word in text.replace(",", " ").split()]


def _read_events(
    http: Http, path: str, headers: dict[str, str], into: list[str]
) -> threading.Thread:
    """Read two events of `path` in a thread, their JSON text into `into`."""
    opened = threading.Event()

    def read() -> None:
        stream = http.events(path, headers=headers)
        opened.set()
        for event in stream:
            into.append(json.dumps(event["data"]))
            if len(into) == 2:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


def test_events_stream_with_ids_and_resume(http: Http, stub: referee_pb2_grpc.RefereeStub) -> None:
    table = create(http)
    got: list[dict[str, Any]] = []

    def read() -> None:
        for event in http.events(f"/v1/tables/{table['id']}/events"):
            got.append(event)
            if len(got) == 2:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # a bot over gRPC: the HTTP watcher hears it
    for move in (
        pb.Move(type="draw"),
        pb.Move(type="discard", fields=data_to_struct({"card": "JH"})),
    ):
        stub.Propose(
            pb.ProposeRequest(table_id=table["id"], move=move),
            metadata=(("x-seat-token", table["tokens"][1]),),
        )
    reader.join(timeout=10)
    assert [e["id"] for e in got] == ["1", "2"]
    assert got[0]["data"]["seat"] == 1 and got[0]["data"]["events"][0]["text"]
    resumed = next(
        iter(http.events(f"/v1/tables/{table['id']}/events", headers={"Last-Event-ID": "1"}))
    )
    assert resumed["id"] == "2"
    from_query = next(iter(http.events(f"/v1/tables/{table['id']}/events?from_version=1")))
    assert from_query["id"] == "2"


def test_adjudicate_a_record(http: Http) -> None:
    answer = http.call("POST", "/v1/adjudicate", {"record_yaml": RECORD.read_text()})
    assert answer.status == 200
    assert answer.data["legal"] is False
    assert answer.data["step"] == 3
    assert answer.data["violations"][0]["rule"]


@pytest.mark.parametrize(
    ("method", "path", "raw", "status", "code"),
    [
        ("POST", "/v1/tables", b"{not json", 400, "INVALID_ARGUMENT"),
        ("POST", "/v1/tables", b"[1, 2]", 400, "INVALID_ARGUMENT"),
        ("POST", "/v1/tables", b'{"game": "pontinho", "seats": NaN}', 400, "INVALID_ARGUMENT"),
        ("POST", "/v1/tables", b'{"game": "pontinho", "nope": 1}', 400, "INVALID_ARGUMENT"),
        ("POST", "/v1/tables", b'{"game": "pontinho", "seats": "many"}', 400, "INVALID_ARGUMENT"),
        ("POST", "/v1/tables", b'{"game": "chess", "seats": 2}', 404, "NOT_FOUND"),
        ("POST", "/v1/tables", b"\xff\xfe", 400, "INVALID_ARGUMENT"),
        ("POST", "/v1/tables", b"[" * 100_00 + b"]" * 100_00, 400, "INVALID_ARGUMENT"),
        ("GET", "/v1/tables/nope/view", None, 404, "NOT_FOUND"),
        ("GET", "/v1/tables/nope/events", None, 404, "NOT_FOUND"),
        ("GET", "/v1/tables/nope/view?seat=x", None, 400, "INVALID_ARGUMENT"),
        ("GET", "/v1/tables/nope/view?colour=red", None, 400, "INVALID_ARGUMENT"),
        ("GET", "/v1/tables/nope/view", b"{}", 400, "INVALID_ARGUMENT"),
        ("GET", "/v1/no/such/route", None, 404, "NOT_FOUND"),
        ("DELETE", "/v1/games", None, 405, "UNIMPLEMENTED"),
        ("POST", "/v1/adjudicate", b'{"record_yaml": "a: [b"}', 400, "INVALID_ARGUMENT"),
        ("POST", "/v1/adjudicate", b'{"record_data": {"game": 1}}', 400, "INVALID_ARGUMENT"),
    ],
)
def test_bad_requests_are_4xx_with_their_code(
    http: Http, method: str, path: str, raw: bytes | None, status: int, code: str
) -> None:
    answer = http.call(method, path, raw=raw)
    assert answer.status == status, answer.data
    assert answer.data["code"] == code and answer.data["message"]


def test_tokens(http: Http) -> None:
    table = create(http)
    view = f"/v1/tables/{table['id']}/view"
    assert http.call("GET", view, headers=bearer("forged")).status == 401
    assert http.call("GET", view, headers={"Authorization": "Basic eDp5"}).status == 401
    assert http.call("GET", view, headers={"x-seat-token": table["tokens"][0]}).data["seat"] == 0
    other_seat = http.call("GET", f"{view}?seat=2", headers=bearer(table["tokens"][0]))
    assert (other_seat.status, other_seat.data["code"]) == (403, "PERMISSION_DENIED")
    unknown = http.call("GET", "/v1/tables/nope/view", headers=bearer(table["tokens"][0]))
    assert unknown.status == 401  # a token says nothing of whether a table exists
    stale = http.call(
        "POST",
        f"/v1/tables/{table['id']}/moves",
        {"move": {"type": "draw"}, "expected_version": 7},
        headers=bearer(table["tokens"][1]),
    )
    assert (stale.status, stale.data["code"]) == (409, "ABORTED")


def test_a_body_over_the_message_size_is_refused_unread(http: Http) -> None:
    answer = http.call("POST", "/v1/adjudicate", raw=b" " * (MAX_MESSAGE_BYTES + 1))
    assert (answer.status, answer.data["code"]) == (413, "RESOURCE_EXHAUSTED")


@pytest.mark.parametrize("limits", [Limits(token_rate=Rate(1, 2))])
def test_the_quotas_are_the_grpc_ones(http: Http, stub: referee_pb2_grpc.RefereeStub) -> None:
    table = create(http)
    view = f"/v1/tables/{table['id']}/view"
    token = table["tokens"][0]
    stub.GetView(pb.GetViewRequest(table_id=table["id"]), metadata=(("x-seat-token", token),))
    assert http.call("GET", view, headers=bearer(token)).status == 200
    over = http.call("GET", view, headers=bearer(token))  # the third in a second, over both ports
    assert (over.status, over.data["code"]) == (429, "RESOURCE_EXHAUSTED")
    assert int(over.headers["Retry-After"]) >= 1


def test_the_page_is_served(http: Http) -> None:
    index = http.call("GET", "/")
    assert index.status == 200
    assert "Content-Security-Policy" in index.headers
    assert http.call("GET", "/web/app.js").status == 200
    assert http.call("GET", "/web/../gateway.py").status == 404
