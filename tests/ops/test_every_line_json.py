"""Every line `referee serve` writes, on stderr and on stdout, is a JSON object (issue 27): from
its start through good and bad calls, a plaintext client on its TLS port (grpc's C core writes a
line of its own about it), garbage on its HTTP port, open streams, to SIGTERM. The controls: the
same check fails on a line of the standard library's `logging` and on a line written below
Python, when the routing into the JSON log is not installed."""

from __future__ import annotations

import io
import json
import logging
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import structlog
import trustme

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.server.logging import announce
from tests.support import served
from tests.support.server import ROOT, START_TIMEOUT_S, StubWatcher, open_table

TLS_NAME = "127.0.0.1"


def not_json(text: str) -> list[str]:
    """The lines of `text` that are not one JSON object each."""
    wrong = []
    for line in text.splitlines():
        try:
            if not isinstance(json.loads(line), dict):
                wrong.append(line)
        except json.JSONDecodeError:
            wrong.append(line)
    return wrong


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pki")
    authority = trustme.CA()
    issued = authority.issue_cert(TLS_NAME)
    paths = {name: folder / f"{name}.pem" for name in ("ca", "cert", "key")}
    authority.cert_pem.write_to_path(str(paths["ca"]))
    issued.cert_chain_pems[0].write_to_path(str(paths["cert"]))
    issued.private_key_pem.write_to_path(str(paths["key"]))
    return paths


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def send_garbage(port: int, garbage: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=START_TIMEOUT_S) as raw:
        raw.sendall(garbage)
        raw.shutdown(socket.SHUT_WR)
        while raw.recv(4096):  # until the server closes it
            pass


def https_status(url: str, context: ssl.SSLContext, body: bytes | None = None) -> int:
    try:
        with urllib.request.urlopen(url, data=body, context=context, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return refused.code


@pytest.fixture
def serve_log(pki: dict[str, Path]) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "stderr"
        with log.open("w") as stderr:
            process = served.start(
                *("--db", str(Path(folder) / "referee.db"), "--allow-stacked", "--http", "0"),
                *("--metrics-port", str(free_port())),
                *("--tls-cert", str(pki["cert"]), "--tls-key", str(pki["key"])),
                stderr=stderr,
            )
        try:
            yield process, log
        finally:
            process.kill()
            process.communicate()


@pytest.mark.slow  # some 3 s: a referee's start and stop, with TLS
def test_every_line_of_a_served_referee_is_json(
    serve_log: tuple[subprocess.Popen[str], Path], pki: dict[str, Path]
) -> None:
    process, log = serve_log
    address, http = served.address(process), served.http_port(process)
    ca = pki["ca"].read_bytes()
    credentials = grpc.ssl_channel_credentials(ca)
    with grpc.secure_channel(address, credentials) as channel:
        stub = RefereeStub(channel)
        table = open_table(stub)
        assert table.propose(1, "draw").outcome == pb.OUTCOME_ACCEPTED
        assert table.propose(2, "draw").violations  # refused: not seat 2's turn
        with pytest.raises(grpc.RpcError):
            stub.GetView(pb.GetViewRequest(table_id="no-such-table"))
        watcher = StubWatcher(table, None)  # open at the stop
        watcher.wait_for(1)
        with grpc.insecure_channel(address) as plaintext, pytest.raises(grpc.RpcError):
            RefereeStub(plaintext).ListGames(pb.ListGamesRequest(), timeout=5)
        send_garbage(int(address.rsplit(":", 1)[1]), b"GET / HTTP/1.1\r\n\r\n")
        send_garbage(http, b"GARBAGE \x00\xff\r\n\r\n" * 8)  # not even TLS
        context = ssl.create_default_context(cadata=ca.decode())
        base = f"https://{TLS_NAME}:{http}"
        assert https_status(f"{base}/v1/games", context) == 200
        assert https_status(f"{base}/v1/tables/nope/view", context) == 404
        assert https_status(f"{base}/v1/tables", context, b"{not json") == 400
        time.sleep(0.2)  # the C core's line about the plaintext client is logged by a thread
        process.send_signal(signal.SIGTERM)
        stdout, _ = process.communicate(timeout=START_TIMEOUT_S)
        watcher.thread.join(timeout=5)
    assert process.returncode == 0
    stderr = log.read_text()
    assert not_json(stderr) == [] and not_json(stdout) == []
    events = [json.loads(line) for line in stderr.splitlines()]
    kinds = {event["event"] for event in events}
    assert {"referee_started", "verdict", "request_refused", "referee_stopped"} <= kinds
    native = [event for event in events if event["event"] == "native_stderr"]
    assert native and "handshake" in native[0]["message"].lower()  # the C core's, as JSON


CONTROL = """
import logging, os, sys
def speak():
    logging.getLogger("aiohttp.server").warning("Error handling request")
    os.write(2, b"E1207 12:09:03.223854   21809 tcp_server.cc:12] a line of the C core\\n")
if sys.argv[1] == "routed":
    from referee.server.logging import configure_logging
    from referee.server.native_stderr import stderr_as_log
    with stderr_as_log() as real:
        configure_logging("info", real)
        speak()
else:
    speak()
"""


@pytest.mark.parametrize("routed", [True, False])
def test_the_control_unrouted_lines_are_plain_text(routed: bool) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CONTROL, "routed" if routed else "plain"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
        check=True,
    )
    lines = done.stderr.splitlines()
    assert len(lines) == 2
    if routed:
        assert not_json(done.stderr) == []
        logged, native = map(json.loads, lines)
        assert (logged["logger"], logged["level"]) == ("aiohttp.server", "warning")
        assert (native["source"], native["level"]) == ("tcp_server.cc:12", "error")
    else:
        assert not_json(done.stderr) == lines  # both caught by the check


def test_the_listening_line_is_said_at_any_log_level() -> None:
    """Launchers start the referee with `--log-level warning` (the TypeScript client's tests, the
    benchmarks) and wait for this line: the level filters the log, never it."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    try:
        out = io.StringIO()
        announce("listening", out, address="127.0.0.1:50051")
        assert json.loads(out.getvalue())["address"] == "127.0.0.1:50051"
        quiet = io.StringIO()
        structlog.wrap_logger(structlog.PrintLogger(quiet)).info("listening")
        assert quiet.getvalue() == ""  # the control: an info line of the log is filtered out
    finally:
        structlog.reset_defaults()
