"""`make bench`'s workloads: a recorded bot game replayed over real gRPC gets every verdict as
recorded (so the bench measures what it says), and the stage profile accounts for its time."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest

from referee.app import ServerConfig
from referee.bench import (
    BenchError,
    Servers,
    Workload,
    flush_line,
    grpc_report,
    over_grpc,
    replay_session,
    timed_calls,
)
from referee.bench.flush import postgres_floor, sqlite_floor
from referee.bench.stages import STAGES, stage_times
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from tests.support.server import serving


def test_a_recording_replayed_over_grpc_is_judged_as_recorded(games: dict[str, Game]) -> None:
    workload = Workload.of(games["tarocchi_piedicavallo"], 3, most=120)
    assert 0 < workload.accepted < len(workload.recorded)  # rejections are replayed too
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    with serving(service, ServerConfig()) as address:
        session = replay_session(
            Servers((address,)), workload.game, workload.setup, workload.recorded
        )
        start = time.time()
        latencies = timed_calls([0, 1], session, start, start + 1.0)  # BenchError if not
    assert all(len(per) > len(workload.recorded) // 4 for per in latencies)


def test_a_verdict_other_than_the_recorded_one_stops_the_bench(games: dict[str, Game]) -> None:
    workload = Workload.of(games["pontoon"], 3, most=40)
    seat, move, accepted = workload.recorded[-1]
    misrecorded = replace(workload, recorded=(*workload.recorded[:-1], (seat, move, not accepted)))
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    with serving(service, ServerConfig()) as address:
        session = replay_session(
            Servers((address,)), misrecorded.game, misrecorded.setup, misrecorded.recorded
        )
        start = time.time()
        with pytest.raises(BenchError, match="not judged as recorded"):
            timed_calls([0], session, start, start + 30.0)


def test_the_stages_account_for_a_proposals_time(games: dict[str, Game]) -> None:
    workload = Workload.of(games["pontoon"], 3, most=80)
    figures = stage_times(games, workload.game, workload.setup, workload.log)
    assert set(figures) == {*STAGES, "other", "total"}
    assert all(figures[stage] >= 0 for stage in STAGES)
    assert figures["judge"] > 0 and figures["commit"] > 0 and figures["decode"] > 0
    assert 0 <= figures["other"] < figures["total"] / 2  # the stages named hold most of it


def test_the_flush_floor_commits_through_the_stores_connection(tmp_path: Path) -> None:
    figures = sqlite_floor(tmp_path, 0.05)
    assert figures["rps"] > 0 and 0 < figures["p50_ms"] <= figures["p99_ms"]
    with sqlite3.connect(tmp_path / "flush_floor.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # the store's setup
        committed = db.execute("SELECT count(*) FROM flush_floor").fetchone()[0]
    assert committed == figures["commits"] > 0  # one row a commit


def test_the_flush_floor_of_postgresql_commits_on_one_connection(pg_url: str) -> None:
    figures = postgres_floor(pg_url, 0.05)
    assert figures["rps"] > 0 and 0 < figures["p50_ms"] <= figures["p99_ms"]
    with psycopg.connect(pg_url) as db:
        row = db.execute("SELECT count(*) FROM flush_floor").fetchone()
    assert row is not None and row[0] == figures["commits"] > 0


def test_the_report_sets_each_1_client_propose_against_the_lower_floor(
    games: dict[str, Game],
) -> None:
    # half a second a stage: a window shorter than a loaded machine's session set-up (sixteen
    # clients' tables) closes before any call is timed
    results = over_grpc(0.5, [Workload.of(games["pontoon"], 3, most=40)])
    assert results[1]["flush"]["rps"] > 0 and "flush" not in results[16]
    lines = grpc_report(results)
    assert lines[0] == flush_line(results[1]["flush"])
    one, sixteen = lines[1:]
    assert one.startswith("pontoon gRPC,  1 client(s)") and sixteen.startswith("pontoon gRPC, 16")
    lower = min(results[1]["floor"]["rps"], results[1]["flush"]["rps"])
    assert one.endswith(f"/s) {results[1]['pontoon']['rps'] / lower:.2f}")
    assert "against the lower floor (" in one and "against the lower floor" not in sixteen
    p99 = results[16]["pontoon"]["p99_ms"] / results[16]["floor"]["p99_ms"]
    assert sixteen.endswith(f"p99 {p99:.1f}x the floor's")
