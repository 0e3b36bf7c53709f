"""What an operator sees: the Prometheus metrics, the start-up and shutdown lines, and Watch
streams that end UNAVAILABLE (not OK, as a finished table's) when the referee shuts down."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.app import create_server
from referee.engine.game import Game
from referee.server.convert import data_to_struct
from referee.service import RefereeService
from referee.service.metrics import MetricsServer, serve_metrics
from referee.store.sqlite import SqliteStore
from tests.support import served as served_process
from tests.support.served import start as start_referee
from tests.support.server import (
    GOING_OUT_DEAL,
    GOING_OUT_MELDS,
    ROOT,
    START_TIMEOUT_S,
    StubWatcher,
    open_table,
)

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def served(
    tmp_path: Path, games: dict[str, Game]
) -> Iterator[tuple[RefereeStub, MetricsServer, RefereeService]]:
    """A referee on an SQLite store, its metrics on a free port."""
    store = SqliteStore(tmp_path / "referee.db")
    service = RefereeService(store, games, allow_stacked=True)
    server, port = create_server(service)
    server.start()
    metrics = serve_metrics(service.metrics, "127.0.0.1", 0)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield RefereeStub(channel), metrics, service
    service.close()
    server.stop(None)
    metrics.close()
    store.close()


def scrape(metrics: MetricsServer) -> Samples:
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics.port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def sample(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_the_metrics_count_verdicts_rejections_latency_commits_tables_and_streams(
    served: tuple[RefereeStub, MetricsServer, RefereeService],
) -> None:
    stub, metrics, _ = served
    table = open_table(stub)
    watcher = StubWatcher(table, None)
    assert table.propose(1, "draw").outcome == 1  # ACCEPTED
    rejected = table.propose(2, "draw")  # not seat 2's turn
    assert rejected.violations
    watcher.wait_for(1)
    samples = scrape(metrics)
    assert sample(samples, "referee_verdicts_total", game="pontinho", outcome="accepted") == 1
    assert sample(samples, "referee_verdicts_total", game="pontinho", outcome="rejected") == 1
    rule = rejected.violations[0].rule
    assert sample(samples, "referee_rejections_total", game="pontinho", rule=rule) == 1
    assert sample(samples, "referee_propose_seconds_count") == 2
    assert sample(samples, "referee_store_commit_seconds_count") >= 2  # the table, the draw
    assert sample(samples, "referee_live_tables") == 1
    assert sample(samples, "referee_watch_streams") == 1
    watcher.close()
    deadline = time.monotonic() + 5  # the server hears of the cancel a moment later
    while sample(scrape(metrics), "referee_watch_streams") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sample(scrape(metrics), "referee_watch_streams") == 0


def test_two_services_keep_their_metrics_apart(games: dict[str, Game], tmp_path: Path) -> None:
    first, second = (RefereeService(SqliteStore(tmp_path / f"{n}.db"), games) for n in "ab")
    first.metrics.verdicts.labels(game="pontinho", outcome="accepted").inc()
    assert first.metrics.registry is not second.metrics.registry
    assert (
        second.metrics.registry.get_sample_value(
            "referee_verdicts_total", {"game": "pontinho", "outcome": "accepted"}
        )
        is None
    )


def test_a_stream_open_at_shutdown_ends_unavailable_a_finished_one_ok(
    served: tuple[RefereeStub, MetricsServer, RefereeService],
) -> None:
    stub, _, service = served
    finished = open_table(
        stub, GOING_OUT_DEAL, scores={0: 99, 2: 99}, options=data_to_struct({"reentry": "none"})
    )
    over = StubWatcher(finished, None)
    finished.propose(1, "draw")
    finished.propose(1, "go_out", melds=GOING_OUT_MELDS, discard="KD")
    over.thread.join(timeout=5)
    table = open_table(stub)
    table.propose(1, "draw")
    live = StubWatcher(table, 1)
    live.wait_for(1)
    service.close()  # as `serve` does on SIGTERM, before the server stops
    live.thread.join(timeout=5)
    assert not over.thread.is_alive() and over.error is None  # OK: the table is over
    assert not live.thread.is_alive() and live.error is not None
    assert live.error.code() is grpc.StatusCode.UNAVAILABLE
    assert "shutting down" in (live.error.details() or "")
    assert [r.version for r in live.received] == [1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_logs_its_start_and_stop_and_serves_metrics(tmp_path: Path) -> None:
    metrics_port = free_port()
    process = start_referee(
        "--db",
        str(tmp_path / "referee.db"),
        "--metrics-port",
        str(metrics_port),
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        assert served_process.address(process).startswith("127.0.0.1:")
        with urllib.request.urlopen(
            f"http://127.0.0.1:{metrics_port}/metrics", timeout=START_TIMEOUT_S
        ) as answer:
            assert b"referee_live_tables" in answer.read()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=START_TIMEOUT_S) == 0
        events = {e["event"]: e for e in map(json.loads, process.stderr.read().splitlines())}
    finally:
        process.kill()
        process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    started = events["referee_started"]
    assert started["version"] and started["metrics_port"] == metrics_port
    assert started["store"] == f"sqlite:{tmp_path / 'referee.db'}"
    assert {"pontinho", "pontoon", "tarocchi_piedicavallo"} <= set(started["games"])
    assert events["referee_stopped"]["reason"] == "signal"


def test_a_busy_metrics_port_is_one_line_and_status_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "referee",
                "serve",
                "--port",
                "0",
                "--memory",
                "--metrics-port",
                str(port),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT_S,
        )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"referee serve: --metrics-port {port}: ")
    assert len(done.stderr.strip().splitlines()) == 1
