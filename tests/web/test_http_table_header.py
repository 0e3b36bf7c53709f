"""`X-Referee-Table` over HTTP: the header reaches the referee's own check as gRPC metadata
does, so a call about another table than it names is 400 INVALID_ARGUMENT and changes nothing;
the right header, or none, is served. The control switches the check off."""

from __future__ import annotations

import json
from http.client import HTTPConnection
from typing import Any

import pytest

from referee.calls import wire
from tests.web.test_http_api import create, propose
from tests.web.web_support import Http

OTHER_TABLE = "0123456789abcdef"
DRAW = {"type": "draw"}


def version(http: Http, table: dict[str, Any]) -> int:
    return int(http.call("GET", f"/v1/tables/{table['id']}/view").data["version"])


def test_a_header_naming_another_table_is_refused_and_changes_nothing(http: Http) -> None:
    table = create(http)
    answer = propose(http, table, 1, DRAW, **{"X-Referee-Table": OTHER_TABLE})
    assert (answer.status, answer.data) == (
        400,
        {
            "code": "INVALID_ARGUMENT",
            "message": f"the header `x-referee-table` names table `{OTHER_TABLE}`, "
            f"not the request's `{table['id']}`",
        },
    )
    assert version(http, table) == 0
    events = http.call(
        "GET", f"/v1/tables/{table['id']}/events", headers={"X-Referee-Table": OTHER_TABLE}
    )
    assert (events.status, events.data["code"]) == (400, "INVALID_ARGUMENT")


def test_the_right_header_or_none_is_served(http: Http) -> None:
    table = create(http)
    assert propose(http, table, 1, DRAW, **{"X-Referee-Table": table["id"]}).status == 200
    assert propose(http, table, 1, {"type": "discard", "fields": {"card": "JH"}}).status == 200
    assert version(http, table) == 2


@pytest.mark.parametrize("value", ["a" * 65, "mesa-ç", "../tables"])
def test_a_malformed_header_is_400_never_500(http: Http, value: str) -> None:
    table = create(http)
    answer = propose(http, table, 1, DRAW, **{"X-Referee-Table": value})
    assert (answer.status, answer.data["code"]) == (400, "INVALID_ARGUMENT")
    assert answer.data["message"].startswith("the header `x-referee-table` is not a table id")
    assert version(http, table) == 0


def test_each_of_a_header_sent_twice_must_name_the_table(http: Http) -> None:
    table = create(http)
    connection = HTTPConnection("127.0.0.1", http.port, timeout=10)
    connection.putrequest("POST", f"/v1/tables/{table['id']}/moves")
    for named in (table["id"], OTHER_TABLE):
        connection.putheader("X-Referee-Table", named)
    body = json.dumps({"move": DRAW}).encode()
    connection.putheader("Authorization", f"Bearer {table['tokens'][1]}")
    connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    answer = connection.getresponse()
    assert (answer.status, json.loads(answer.read())["code"]) == (400, "INVALID_ARGUMENT")
    connection.close()
    assert version(http, table) == 0


def test_control_without_the_check_a_mismatched_call_is_served(
    http: Http, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "verify_table_header", lambda metadata, request: None)
    table = create(http)
    assert propose(http, table, 1, DRAW, **{"X-Referee-Table": OTHER_TABLE}).status == 200
    assert version(http, table) == 1
