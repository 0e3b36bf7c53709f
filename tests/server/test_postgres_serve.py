"""`referee serve --store postgresql://...`: the real server as a process on a PostgreSQL
database, stopped and started again (as another process would take over), and its start-up
refusal of a database that would lose commits."""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest

from referee.api.v1 import referee_pb2 as pb
from tests.support.server import ROOT, ServerProcess, open_table

pytestmark = pytest.mark.slow  # every test here is a long run (3 s or more)


def test_a_table_continues_on_a_server_started_again_on_the_database(pg_url: str) -> None:
    first = ServerProcess(store=["--store", pg_url])
    table = open_table(first.stub)
    assert table.propose(1, "draw", move_id="m-1").outcome == pb.OUTCOME_ACCEPTED
    assert table.propose(1, "discard", card="JH").outcome == pb.OUTCOME_ACCEPTED
    before = [table.view(seat) for seat in (0, 1, 2, None)]
    first.kill()

    again = ServerProcess(store=["--store", pg_url])
    table.stub = again.stub
    try:
        assert [table.view(seat) for seat in (0, 1, 2, None)] == before
        assert table.propose(1, "draw", move_id="m-1").version == 1  # the first verdict again
        assert table.propose(1, "draw").outcome == pb.OUTCOME_REJECTED  # seat 2's turn
        assert table.propose(2, "draw").version == 3  # draws TH: the stock is where it was
        assert "TH" in table.view(2)["hand"]
    finally:
        assert again.stop() == 0


def test_serve_refuses_a_database_that_answers_before_it_syncs(pg_url: str) -> None:
    name = psycopg.conninfo.conninfo_to_dict(pg_url)["dbname"]
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    refused = subprocess.run(
        [sys.executable, "-m", "referee", "serve", "--port", "0", "--store", pg_url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert refused.stderr.startswith(
        "referee serve: the database is not durable: `synchronous_commit` is `off`: turn it on, "
        "or serve with --unsafe-durability"
    )
    unsafe = ServerProcess(store=["--store", pg_url, "--unsafe-durability"])
    assert unsafe.stop() == 0  # told so, it serves
