"""The HTTP gateway's bounds (issue 25): bodies bounded by their route and read within a deadline,
a refused body charged to its address, a request's headers within a timeout, connections per
address capped, and a cross-site page's POST refused unless it carries a token. Each bound has
its control: the same request where the bound does not apply, or with the bound off."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import pytest

from referee.calls.limits import NO_LIMIT, Limits, Rate
from referee.web.gateway import HttpLimits
from tests.web.web_support import Http

SMALL = 2048  # the bodies' bound served here
ATTACKER = "127.0.0.2"  # connections from another address than the test's own calls


def propose_body(size: int) -> bytes:
    """A Propose body of about `size` bytes, refused for its move (400) once parsed."""
    return json.dumps({"move": {"type": "draw", "fields": {"x": "y" * size}}}).encode()


@pytest.fixture
def http_limits(request: pytest.FixtureRequest) -> HttpLimits:
    changes = getattr(request, "param", {})
    return HttpLimits(body_bytes=SMALL, record_bytes=4 * SMALL, **changes)


@contextlib.contextmanager
def connections(port: int, count: int, first: bytes = b"") -> Iterator[list[socket.socket]]:
    opened = []
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), source_address=(ATTACKER, 0))
            if first:
                sock.sendall(first)
            opened.append(sock)
        yield opened
    finally:
        for sock in opened:
            sock.close()


def closed_by_server(sock: socket.socket, wait_s: float) -> bool:
    sock.settimeout(wait_s)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except OSError:
        return True  # reset


def test_a_body_over_its_routes_bound_is_refused_unread(http: Http) -> None:
    answer = http.call("POST", "/v1/tables/nope/moves", raw=propose_body(SMALL + 10))
    assert (answer.status, answer.data["code"]) == (413, "RESOURCE_EXHAUSTED")
    assert str(SMALL) in answer.data["message"]
    # the control: within the bound, it is read and judged (no such table)
    answer = http.call("POST", "/v1/tables/nope/moves", raw=propose_body(SMALL - 100))
    assert answer.status != 413


def test_adjudicate_takes_a_larger_body(http: Http) -> None:
    body = json.dumps({"record": "x" * (2 * SMALL)}).encode()
    assert http.call("POST", "/v1/tables/nope/moves", raw=body).status == 413
    answer = http.call("POST", "/v1/adjudicate", raw=body)
    assert answer.status == 400  # read, and refused for what it says
    assert answer.data["code"] == "INVALID_ARGUMENT"


@pytest.mark.parametrize("http_limits", [{"body_timeout_s": 0.3}], indirect=True)
def test_a_body_that_does_not_arrive_in_time_is_refused(http: Http) -> None:
    head = (
        b"POST /v1/tables/nope/moves HTTP/1.1\r\nHost: referee\r\n"
        b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"move":'
    )
    with socket.create_connection(("127.0.0.1", http.port), timeout=5) as sock:
        sock.sendall(head)
        began = time.monotonic()
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"DEADLINE_EXCEEDED" in answer
    assert time.monotonic() - began < 4


@pytest.mark.parametrize(
    ("limits", "refused"),
    [
        (Limits(peer_rate=Rate(0.001, 5), token_rate=NO_LIMIT, create_rate=NO_LIMIT), 1),
        (Limits().without_rates(), 0),  # the control
    ],
    ids=["limit", "control"],
)
def test_a_refused_body_costs_its_address(http: Http, limits: Limits, refused: int) -> None:
    statuses = [
        http.call("POST", "/v1/tables/nope/moves", raw=b"{not json").status for _ in range(6)
    ]
    assert statuses.count(400) == 6 - refused
    assert statuses.count(429) == refused


def test_a_large_body_costs_its_size(http: Http, limits: Limits) -> None:
    del limits  # the defaults: a burst of 2,000
    answers = [http.call("POST", "/v1/adjudicate", raw=b" " * (4 * SMALL)) for _ in range(3)]
    assert all(a.status == 400 for a in answers)  # within the burst: read, and refused


@pytest.mark.parametrize(
    "limits",
    [Limits(peer_rate=Rate(0.001, 3), token_rate=NO_LIMIT, create_rate=NO_LIMIT)],
)
def test_a_body_larger_than_the_quota_left_is_not_parsed(http: Http, limits: Limits) -> None:
    # 8 KiB of body cost 2 tokens before parsing; the address has 3
    body = b" " * (4 * SMALL - 2) + b"[]"
    first = http.call("POST", "/v1/adjudicate", raw=body)
    second = http.call("POST", "/v1/adjudicate", raw=body)
    assert first.status == 400  # read, charged, parsed, refused (and charged a call)
    assert (second.status, second.data["code"]) == (429, "RESOURCE_EXHAUSTED")
    assert "Retry-After" in second.headers


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": "https://elsewhere.example"}, 403),
        ({"Origin": "null"}, 403),
        ({}, 404),  # no Origin: not a browser's cross-site request (no such table)
        ({"Origin": "https://elsewhere.example", "x-seat-token": "t"}, 401),  # a wrong token
        ({"Origin": "https://elsewhere.example", "Authorization": "Bearer t"}, 401),
        ({"Origin": "https://elsewhere.example", "x-create-token": "t"}, 404),
    ],
)
def test_a_cross_site_post_needs_a_token(http: Http, headers: dict[str, str], status: int) -> None:
    answer = http.call("POST", "/v1/tables/nope/moves", {"move": {"type": "draw"}}, headers=headers)
    assert answer.status == status, answer.data
    if status == 403:
        assert answer.data["code"] == "PERMISSION_DENIED"
        assert "another site" in answer.data["message"]


def test_the_pages_own_origin_may_post(http: Http) -> None:
    own = {"Origin": f"http://127.0.0.1:{http.port}"}
    answer = http.call("POST", "/v1/tables", {"game": "pontinho", "seats": 3}, headers=own)
    assert answer.status == 200, answer.data
    # the control: a read from anywhere is no state change
    answer = http.call("GET", "/v1/games", headers={"Origin": "https://elsewhere.example"})
    assert answer.status == 200


@pytest.mark.parametrize(
    ("http_limits", "closed"),
    [({"header_timeout_s": 0.3}, True), ({"header_timeout_s": 0}, False)],
    ids=["timeout", "control"],
    indirect=["http_limits"],
)
def test_a_request_whose_headers_never_end_is_closed(http: Http, closed: bool) -> None:
    with connections(http.port, 3, b"GET /v1/games HTTP/1.1\r\nHost: referee\r\n") as opened:
        time.sleep(0.6)
        assert [closed_by_server(sock, 0.5) for sock in opened] == [closed] * 3


@pytest.mark.parametrize(
    ("http_limits", "cap"),
    [({"connections_per_peer": 3}, 3), ({"connections_per_peer": 0}, 0)],
    ids=["cap", "control"],
    indirect=["http_limits"],
)
def test_an_address_holds_only_so_many_connections(http: Http, cap: int) -> None:
    with connections(http.port, 5) as opened:
        refused = [closed_by_server(sock, 0.3) for sock in opened]
        assert refused.count(True) == (5 - cap if cap else 0)
        assert http.call("GET", "/v1/games").status == 200  # another address is let in
