"""The real server as a process: `kill -9` it mid-game, start it again, and every table resumes
exactly where it was (the verdicts it sent were for moves already on disk)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.api.v1 import referee_pb2 as pb
from tests.support.server import OpenTable, ServerProcess, open_table


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "referee.db"


def everything_seen(table: OpenTable) -> list[Any]:
    return [table.view(seat) for seat in (0, 1, 2, None)] + [table.version()]


@pytest.mark.slow
def test_a_killed_server_resumes_every_table_exactly(db: Path) -> None:
    first = ServerProcess(db)
    table = open_table(first.stub)
    assert table.propose(1, "draw", move_id="m-1").outcome == pb.OUTCOME_ACCEPTED
    assert table.propose(1, "discard", card="JH").outcome == pb.OUTCOME_ACCEPTED
    before = everything_seen(table)
    first.kill()

    again = ServerProcess(db)
    table.stub = again.stub
    try:
        assert everything_seen(table) == before
        assert table.propose(1, "draw", move_id="m-1").version == 1  # the first verdict again
        assert table.propose(1, "draw").outcome == pb.OUTCOME_REJECTED  # seat 2's turn
        assert table.propose(2, "draw").version == 3  # draws TH: the stock is where it was
        assert "TH" in table.view(2)["hand"]
    finally:
        assert again.stop() == 0  # and SIGTERM is a clean, graceful stop


def test_the_server_prints_where_it_listens_and_stops_on_sigint(db: Path) -> None:
    server = ServerProcess(db)
    assert server.stop(signal.SIGINT) == 0
    assert os.path.exists(db)
