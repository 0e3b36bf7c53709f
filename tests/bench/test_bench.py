"""`make bench`'s workloads: a recorded bot game replayed over real gRPC gets every verdict as
recorded (so the bench measures what it says), and the stage profile accounts for its time."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from referee.app import ServerConfig
from referee.bench import BenchError, Servers, Workload, replay_session, timed_calls
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
