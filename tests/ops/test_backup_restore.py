"""A backup taken while the referee serves, restored (docs/deploying.md, "Backups"): tables are
played on a running referee, backed up while another client keeps creating tables, the copy put
in a fresh store and a referee serving it; every table is there: its views as they were, its
seats' records verifying under the same signing key, and its next move accepted. For SQLite by
`referee backup` (SQLite's online backup), for PostgreSQL by pg_dump and pg_restore (those of the
PostgreSQL the tests start)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pgserver
import psycopg
import pytest

from referee import cli
from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.app import ServerConfig
from referee.engine.game import Game
from referee.records.signing import read_public_key
from referee.records.verification import verify
from referee.service import RefereeService
from referee.store.base import Store
from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore
from tests.support.postgres_server import fresh_database
from tests.support.server import (
    START_TIMEOUT_S,
    OpenTable,
    ServerProcess,
    open_table,
    stub_of,
)

PG_BIN = Path(pgserver.__file__).parent / "pginstall" / "bin"
MOST_CREATED = 50  # the busy client's tables, at the most, while the backup runs


@dataclass(frozen=True)
class Played:
    """What the live referee showed of its tables before the backup."""

    tables: list[OpenTable]
    views: dict[str, tuple[int, dict[str, Any]]]  # table -> (version, seat 1's view)
    signing_key: str


def play(stub: RefereeStub) -> Played:
    tables = [open_table(stub) for _ in range(2)]
    for table in tables:
        assert table.propose(1, "draw").outcome == pb.OUTCOME_ACCEPTED  # draws 4C
        assert table.propose(1, "discard", card="JH").outcome == pb.OUTCOME_ACCEPTED
    views = {t.table_id: (t.version(), t.view(1)) for t in tables}
    key = stub.GetSigningKey(pb.GetSigningKeyRequest()).public_key
    return Played(tables, views, key)


class BusyClient:
    """Another client creating tables, one after another, while a backup is taken."""

    def __init__(self, stub: RefereeStub) -> None:
        self.created = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._create, args=(stub,), daemon=True)

    def __enter__(self) -> BusyClient:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(timeout=START_TIMEOUT_S)

    def _create(self, stub: RefereeStub) -> None:
        while not self._stop.is_set() and self.created < MOST_CREATED:
            open_table(stub)
            self.created += 1


def check_restored(store: Store, played: Played, games: dict[str, Game]) -> None:
    """Every table played is on a referee serving the restored store, and goes on. (That one
    serves in this process: a process of its own would only cost a start of the referee.)"""
    service = RefereeService(store, games, allow_stacked=True)
    try:
        with stub_of(service, ServerConfig()) as stub:
            check_tables(stub, played, games)
    finally:
        store.close()


def check_tables(stub: RefereeStub, played: Played, games: dict[str, Game]) -> None:
    assert stub.GetSigningKey(pb.GetSigningKeyRequest()).public_key == played.signing_key
    trusted = read_public_key(played.signing_key)
    for before in played.tables:
        table = OpenTable(stub, before.table_id, before.tokens, before.commitment)
        assert (table.version(), table.view(1)) == played.views[table.table_id]
        record = stub.GetRecord(
            pb.GetRecordRequest(table_id=table.table_id),
            metadata=(("x-seat-token", table.tokens[1]),),
        ).record
        assert verify(record, games.values(), trusted=trusted).holds
        assert [s["version"] for s in json.loads(record)["steps"]] == [1, 2]
        assert table.propose(2, "draw").outcome == pb.OUTCOME_ACCEPTED  # the seats' own tokens


def backed_up_while_serving(
    live: ServerProcess, take_backup: Callable[[], None], count_tables: Callable[[], int]
) -> tuple[Played, range]:
    """Tables played on `live`, then `take_backup()` while a client creates more: what was
    played, and how many tables the store may hold in the backup (from before to after)."""
    try:
        played = play(live.stub)
        before = count_tables()
        with BusyClient(live.stub) as busy:
            take_backup()
        assert busy.created > 0  # the backup did run beside the writes
        return played, range(before, before + busy.created + 1)
    finally:
        assert live.stop() == 0


def sqlite_tables(path: Path) -> int:
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM tables").fetchone()[0])


def test_an_sqlite_backup_taken_while_serving_restores_every_table(
    tmp_path: Path, games: dict[str, Game], capsys: pytest.CaptureFixture[str]
) -> None:
    served, copy = tmp_path / "live" / "referee.db", tmp_path / "backup.db"
    served.parent.mkdir()

    def take_backup() -> None:  # in this process: the referee serving is another
        assert cli.main(["backup", "--db", str(served), "--to", str(copy)]) == 0
        assert capsys.readouterr().out.startswith(f"referee backup: {served} -> {copy}: ")

    played, possible = backed_up_while_serving(
        ServerProcess(served), take_backup, lambda: sqlite_tables(served)
    )
    assert sqlite_tables(copy) in possible
    assert copy.stat().st_mode & 0o777 == 0o600  # it holds the signing key
    restored = tmp_path / "restored" / "referee.db"  # a fresh place: the copy, alone
    restored.parent.mkdir()
    shutil.copyfile(copy, restored)
    check_restored(SqliteStore(restored), played, games)


def test_backup_refuses_to_overwrite_and_names_a_missing_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "there.db"
    existing.write_bytes(b"kept")
    for db, to, said in (
        (tmp_path / "none.db", tmp_path / "new.db", "no tables' database at"),
        (existing, existing, "exists: a backup goes to a new file"),
    ):
        assert cli.main(["backup", "--db", str(db), "--to", str(to)]) == 2
        assert said in capsys.readouterr().err
    assert existing.read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["there.db"]  # nothing left behind


@pytest.fixture
def pg_tools(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An environment where pg_dump and pg_restore are those of the tests' PostgreSQL."""
    yield {**os.environ, "PATH": f"{PG_BIN}{os.pathsep}{os.environ['PATH']}"}


def pg_tables(url: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT count(*) FROM tables").fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.slow  # some 4 s, the tests' PostgreSQL started: make test runs it, test-fast not
def test_a_postgresql_dump_taken_while_serving_restores_every_table(
    pg_url: str, pg_server: str, pg_tools: dict[str, str], tmp_path: Path, games: dict[str, Game]
) -> None:
    dump = tmp_path / "referee.dump"

    def take_backup() -> None:
        command = ["pg_dump", "--format=custom", f"--file={dump}", f"--dbname={pg_url}"]
        subprocess.run(command, env=pg_tools, check=True, timeout=START_TIMEOUT_S)

    live = ServerProcess(store=["--store", pg_url])
    played, possible = backed_up_while_serving(live, take_backup, lambda: pg_tables(pg_url))
    with fresh_database(pg_server) as restored:
        command = ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={restored}", str(dump)]
        subprocess.run(command, env=pg_tools, check=True, timeout=START_TIMEOUT_S)
        assert pg_tables(restored) in possible
        check_restored(PostgresStore(restored), played, games)
