"""A client that floods the HTTP gateway with large JSON bodies, in a process of its own: for
SECONDS, POST a Propose body of about SIZE bytes that parses slowly and is refused (a long list
in the move's fields, then a version that is not a number), as fast as the referee answers;
prints how many answers of each HTTP status it got (`reset`: the connection closed while the
body was still going out), as JSON.

    python body_flooder.py PORT TABLE_ID SIZE SECONDS
"""

from __future__ import annotations

import http.client
import json
import sys
import time
from collections import Counter


def body(size: int) -> bytes:
    """A Propose body of about `size` bytes: JSON and `json_format` walk all of it, then it is
    refused (400) for its last field."""
    numbers = ",".join(["0.5"] * (size // 4))
    return (
        '{"move": {"type": "draw", "fields": {"junk": [' + numbers + "]}}, "
        '"expected_version": "not a number"}'
    ).encode()


def post(port: int, path: str, payload: bytes) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", path, body=payload, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return str(response.status)
    except (ConnectionError, http.client.HTTPException):
        return "reset"
    finally:
        connection.close()


def main(port: int, table_id: str, size: int, seconds: float) -> None:
    payload, path = body(size), f"/v1/tables/{table_id}/moves"
    statuses: Counter[str] = Counter()
    start = time.perf_counter()
    while time.perf_counter() < start + seconds:
        statuses[post(port, path, payload)] += 1
    print(json.dumps(statuses), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
