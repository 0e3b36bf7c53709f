"""One serving process per SQLite file (issue 13, point 4): real `referee serve` processes on one
`--db`. A second refuses to start, in one line that points at PostgreSQL, and the first serves on;
once the first is killed (`kill -9`: the OS drops its claim) another starts on the file. The
control runs the same second process with the claim taken out: it serves, so the refusal is the
claim's doing, not the port's or SQLite's."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.cli import build_parser
from referee.commands.serve import claim_store
from tests.support import served
from tests.support.server import START_TIMEOUT_S, ServerProcess, open_table

pytestmark = pytest.mark.slow  # every test here is a long run (3 s or more)

# `referee serve` with `claim_store` replaced by no claim at all: the control
UNCLAIMED = (
    "import contextlib, sys\n"
    "from referee import cli\n"
    "from referee.commands import serve\n"
    "serve.claim_store = lambda args: contextlib.nullcontext()\n"
    "sys.exit(cli.main(sys.argv[1:]))\n"
)


@contextlib.contextmanager
def second_server(db: Path, *, claim: bool = True) -> Iterator[subprocess.Popen[str]]:
    """Another `referee serve --port 0 --db DB`, its stdout and stderr read by the test."""
    program = served.REFEREE if claim else (sys.executable, "-c", UNCLAIMED)
    process = served.start("--db", str(db), program=program, stderr=subprocess.PIPE)
    try:
        yield process
    finally:
        process.kill()
        process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def exit_status(process: subprocess.Popen[str]) -> int:
    """The status of a process that must not serve: it exits with nothing on stdout."""
    assert process.stdout is not None
    serving = process.stdout.readline()  # "" once it exits, at once its port if it serves
    assert serving == "", f"a second server started: {serving}"
    return process.wait(timeout=START_TIMEOUT_S)


def test_a_second_server_on_the_file_refuses_the_first_serves_on(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    first = ServerProcess(db)
    try:
        with second_server(db) as second:
            assert exit_status(second) == 2
            assert second.stderr is not None
            said = second.stderr.read()
        assert said.splitlines() == [
            f"referee serve: `{db}` is served by another referee process "
            f"(pid {first.process.pid}): one SQLite file serves one process; to run several, "
            "share a PostgreSQL database, `referee serve --store postgresql://...` "
            "(docs/deploying.md)"
        ]
        table = open_table(first.stub)
        assert table.propose(1, "draw", move_id="m-1").outcome == pb.OUTCOME_ACCEPTED
    finally:
        first.kill()

    again = ServerProcess(db)  # the claim died with the process
    table.stub = again.stub
    try:
        assert table.propose(1, "draw", move_id="m-1").version == 1  # the table is there
    finally:
        assert again.stop() == 0


def test_control_without_the_claim_a_second_server_starts(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    first = ServerProcess(db)
    try:
        with second_server(db, claim=False) as second:
            assert served.address(second).startswith("127.0.0.1:")
    finally:
        first.kill()


def test_memory_and_postgresql_claim_nothing() -> None:
    for flags in (["--memory"], ["--store", "postgresql:///tables"]):
        args = build_parser().parse_args(["serve", *flags])
        assert isinstance(claim_store(args), contextlib.nullcontext)
