"""A referee serving gRPC and HTTP in-process on free ports, and a small HTTP client for it (the
standard library's: the tests read exactly what goes over the wire)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

TIMEOUT_S = 10


@dataclass(frozen=True)
class Answer:
    status: int
    data: Any  # the JSON body (None when it is not JSON)
    headers: Mapping[str, str]


@dataclass(frozen=True)
class Http:
    """The referee's HTTP port on 127.0.0.1."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        raw: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Answer:
        """One request: `body` sent as JSON, or `raw` bytes as they are (a stream that opens
        is left unread)."""
        sent = raw if raw is not None else None if body is None else json.dumps(body).encode()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT_S)
        try:
            connection.request(method, path, body=sent, headers=dict(headers or {}))
            response = connection.getresponse()
            if response.getheader("Content-Type", "").startswith("text/event-stream"):
                return Answer(response.status, None, dict(response.getheaders()))  # open: unread
            text = response.read()
            return Answer(response.status, _json_or_none(text), dict(response.getheaders()))
        finally:
            connection.close()

    def events(
        self, path: str, *, headers: Mapping[str, str] | None = None
    ) -> Iterator[dict[str, Any]]:
        """The Server-Sent Events of a stream, each `{event, id, data}`, until it ends (a
        refusal: an AssertionError with the status)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT_S)
        try:
            connection.request("GET", path, headers=dict(headers or {}))
            response = connection.getresponse()
            assert response.status == 200, (response.status, response.read())
            assert response.getheader("Content-Type", "").startswith("text/event-stream")
            event: dict[str, Any] = {}
            for line in response:
                text = line.decode("utf-8").rstrip("\n")
                if not text:
                    if event:
                        yield event
                    event = {}
                elif not text.startswith(":"):
                    key, _, value = text.partition(": ")
                    event[key] = json.loads(value) if key == "data" else value
        finally:
            connection.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _json_or_none(text: bytes) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
