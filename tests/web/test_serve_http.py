"""`referee serve --http PORT` (and REFEREE_HTTP) as a process: its second line names the HTTP
port, which serves the routes and the page beside gRPC; a stop ends the open event streams, as
it ends gRPC's; a watcher that goes away frees its stream."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from http import client as http_client
from pathlib import Path

import pytest

from referee.calls.limits import Limits
from referee.service import RefereeService
from tests.support import served
from tests.web.web_support import Http

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("by", ["flag", "variable"])
def test_serve_prints_and_serves_its_http_port(by: str) -> None:
    flags = ["--http", "0"] if by == "flag" else []
    environment = {**os.environ, **({"REFEREE_HTTP": "0"} if by == "variable" else {})}
    process = served.start("--memory", *flags, env=environment, stderr=subprocess.DEVNULL)
    try:
        assert served.address(process).startswith("127.0.0.1:")
        http = Http(served.http_port(process))
        assert http.call("GET", "/v1/games").status == 200
        assert http.call("GET", "/").status == 200
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()
    assert code == 0


def test_a_stop_ends_the_open_streams(http: Http, service: RefereeService) -> None:
    table = http.call("POST", "/v1/tables", {"game": "pontoon", "seats": 2}).data["table_id"]
    ended: list[dict[str, object]] = []

    def read() -> None:
        for event in http.events(f"/v1/tables/{table}/events"):
            ended.append(event)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    while not service.metrics.watch_streams._value.get():  # the stream is open
        reader.join(timeout=0.01)
    service.close()
    reader.join(timeout=10)
    assert ended and ended[-1]["event"] == "end"
    assert ended[-1]["data"] == {"code": "UNAVAILABLE", "message": ended[-1]["data"]["message"]}  # type: ignore[index]


@pytest.mark.parametrize("limits", [Limits(streams_per_peer=1)])
def test_a_watcher_that_goes_away_frees_its_stream(http: Http, service: RefereeService) -> None:
    table = http.call("POST", "/v1/tables", {"game": "pontoon", "seats": 2}).data["table_id"]
    for _ in range(3):  # one stream a peer at a time: each must be freed when its client leaves
        connection = http_client.HTTPConnection("127.0.0.1", http.port, timeout=10)
        connection.request("GET", f"/v1/tables/{table}/events")
        assert connection.getresponse().status == 200  # open (a second would be refused, 429)
        connection.close()  # gone: its handler is cancelled, its stream freed
        while service.metrics.watch_streams._value.get():
            threading.Event().wait(0.01)
