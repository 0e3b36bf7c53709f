"""The lobby over HTTP (issue 27): `GET /v1/tables` with its filters in the query string and
`POST /v1/tables/{table_id}/seats/{seat}/token`, routed from the proto's annotations, with the
operator's token in the `x-create-token` header; names at `POST /v1/tables`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from referee.app import ServerConfig, create_server
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from tests.web.web_support import Http, bearer

OPERATOR = "the-operator's-secret"
AS_OPERATOR = {"x-create-token": OPERATOR}


@pytest.fixture
def http(games: dict[str, Game]) -> Iterator[Http]:
    service = RefereeService(MemoryStore(), games)
    server, _ = create_server(service, config=ServerConfig(create_token=OPERATOR))
    server.start()
    yield Http(server.serve_http("127.0.0.1", 0))
    service.close()
    server.stop(None)


def create(http: Http, **asked: Any) -> dict[str, Any]:
    answer = http.call(
        "POST", "/v1/tables", {"game": "pontinho", "seats": 3, **asked}, headers=AS_OPERATOR
    )
    assert answer.status == 200, answer.data
    return {
        "id": answer.data["table_id"],
        "tokens": {s["seat"]: s["token"] for s in answer.data["seats"]},
    }


def listed(http: Http, query: str = "") -> dict[str, Any]:
    answer = http.call("GET", f"/v1/tables{query}", headers=AS_OPERATOR)
    assert answer.status == 200, answer.data
    found: dict[str, Any] = answer.data
    return found


def test_the_lobby_and_a_reissue_over_http(http: Http) -> None:
    named = create(http, names={"0": "Ana", "1": "Bea"})
    plain = create(http)
    view = http.call("GET", f"/v1/tables/{named['id']}/view").data["view"]
    assert view["names"] == {"0": "Ana", "1": "Bea"}
    every = listed(http)
    assert [t["table_id"] for t in every["tables"]] == [plain["id"], named["id"]]
    assert (
        every["tables"][1]["names"] == {"0": "Ana", "1": "Bea"} and every["next_page_token"] == ""
    )
    assert every["tables"][0]["over"] is False and every["tables"][0]["open_disputes"] == []
    page = listed(http, "?page_size=1")
    assert [t["table_id"] for t in page["tables"]] == [plain["id"]]
    rest = listed(http, f"?page_size=1&page_token={page['next_page_token']}")
    assert [t["table_id"] for t in rest["tables"]] == [named["id"]]
    query = "?game=pontinho&state=TABLE_STATE_IN_PLAY&open_disputes=false&clock_running=false"
    assert len(listed(http, query)["tables"]) == 2
    assert listed(http, "?state=TABLE_STATE_OVER")["tables"] == []
    assert listed(http, "?open_disputes=true")["tables"] == []

    path = f"/v1/tables/{named['id']}/seats/1/token"
    answer = http.call("POST", path, {}, headers=AS_OPERATOR)
    assert answer.status == 200 and answer.data["seat"]["seat"] == 1
    new = answer.data["seat"]["token"]
    view_path = f"/v1/tables/{named['id']}/view"
    assert http.call("GET", view_path, headers=bearer(named["tokens"][1])).status == 401
    assert http.call("GET", view_path, headers=bearer(new)).data["seat"] == 1


@pytest.mark.parametrize(
    ("verb", "path", "headers", "status"),
    [
        ("GET", "/v1/tables", {}, 403),
        ("GET", "/v1/tables", {"x-create-token": "guess"}, 403),
        ("GET", "/v1/tables?page_token=nope", AS_OPERATOR, 400),
        ("GET", "/v1/tables?state=SOMETIMES", AS_OPERATOR, 400),
        ("GET", "/v1/tables?page_size=many", AS_OPERATOR, 400),
        ("POST", "/v1/tables/{table}/seats/1/token", {}, 403),
        ("POST", "/v1/tables/{table}/seats/9/token", AS_OPERATOR, 400),
        ("POST", "/v1/tables/{table}/seats/one/token", AS_OPERATOR, 400),
        ("POST", "/v1/tables/nope/seats/1/token", AS_OPERATOR, 404),
    ],
)
def test_the_lobby_refuses_over_http_with_clear_statuses(
    http: Http, verb: str, path: str, headers: dict[str, str], status: int
) -> None:
    table = create(http)
    body: dict[str, Any] | None = {} if verb == "POST" else None
    answer = http.call(verb, path.replace("{table}", table["id"]), body, headers=headers)
    assert answer.status == status, answer.data
    assert set(answer.data) == {"code", "message"}
    assert http.call("GET", f"/v1/tables/{table['id']}/view").data["version"] == 0  # unchanged
