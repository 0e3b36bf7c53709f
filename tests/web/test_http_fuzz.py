"""Hostile HTTP requests to every route: whatever a client sends, the answer is never a 500
(an INTERNAL is a bug of the referee), and every refusal is the JSON `{code, message}`."""

from __future__ import annotations

import json
import os
from urllib.parse import quote, urlencode

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.web.routes import routes
from tests.web.web_support import Http

EXAMPLES = 60 * int(os.environ.get("FUZZ_SCALE", "1"))
ROUTES = routes()
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELD_NAMES = st.sampled_from(
    [
        "game",
        "seats",
        "move",
        "fields",
        "type",
        "table_id",
        "seat",
        "from_version",
        "record_yaml",
        "record_data",
        "deal",
        "options",
        "seed",
        "expected_version",
        "move_id",
        "names",
        "page_size",
        "page_token",
        "state",
        "open_disputes",
        "clock_running",
        "x",
    ]
)
BODIES = st.one_of(
    st.binary(max_size=64),
    st.dictionaries(FIELD_NAMES, JSON_VALUES, max_size=5).map(lambda d: json.dumps(d).encode()),
)
SEGMENT = st.text(min_size=1, max_size=12)
HEADERS = st.dictionaries(
    st.sampled_from(
        ["Authorization", "x-seat-token", "x-create-token", "Accept-Language", "Last-Event-ID"]
    ),
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20),
    max_size=3,
)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    route=st.sampled_from(ROUTES),
    variable=SEGMENT,
    query=st.dictionaries(FIELD_NAMES, st.text(max_size=6), max_size=2),
    body=BODIES,
    headers=HEADERS,
    real=st.booleans(),
)
def test_no_request_makes_a_500(
    http: Http,
    route: object,
    variable: str,
    query: dict[str, str],
    body: bytes,
    headers: dict[str, str],
    real: bool,
) -> None:
    if real:  # a live table, with a seat's own token
        table_id, token = _table(http)
        variable, headers = table_id, {**headers, "Authorization": f"Bearer {token}"}
    path = route.path.replace("{p0}", quote(variable, safe=""))  # type: ignore[attr-defined]
    path = path.replace("{p1}", quote(variable[::-1], safe=""))  # a seat's number, say
    if query:
        path += "?" + urlencode(query)
    answer = http.call(route.verb, path, raw=body if route.verb != "GET" else None, headers=headers)  # type: ignore[attr-defined]
    assert answer.status < 500, (route, path, body, answer.data)
    if answer.status >= 400:
        assert set(answer.data) == {"code", "message"}, answer.data


_TABLES: dict[int, tuple[str, str]] = {}  # a server's port -> one of its tables and a token


def _table(http: Http) -> tuple[str, str]:
    if http.port not in _TABLES:
        created = http.call("POST", "/v1/tables", {"game": "pontinho", "seats": 3}).data
        _TABLES[http.port] = (created["table_id"], created["seats"][1]["token"])
    return _TABLES[http.port]
