"""Tables reloaded from their snapshots (issue 13, point 5), on every store: a referee started
again reads a table's latest snapshot and the moves after it, and serves it exactly as the replay
of its whole log would; a snapshot that does not fit is set aside and the log replayed."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import Move
from referee.service import RefereeService
from referee.service.answers import CreatedTable
from referee.store.base import Store
from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore
from tests.harden.ledger import draw_or_discard
from tests.store.conftest import open_store

EVERY = 10  # moves between two snapshots
MOVES = 47  # the last snapshot is at 40: seven moves are judged again


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = open_store(request.param, request, tmp_path)
    yield opened
    opened.close()


def referee(store: Store, games: dict[str, Game], every: int = EVERY) -> RefereeService:
    return RefereeService(store, games, allow_stacked=True, snapshot_every=every)


def play(service: RefereeService, table: CreatedTable, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        seat = int(service.view(table.table_id, None).view["to_act"])
        view = service.view(table.table_id, table.tokens[seat]).view
        move = Move.from_data(draw_or_discard(view, rng))
        assert service.propose(table.table_id, table.tokens[seat], move).verdict.accepted


def seen(service: RefereeService, table: CreatedTable) -> list[dict[str, Any]]:
    """Every seat's view with its legal moves, and the public view."""
    tokens = [*table.tokens.values(), None]
    return [service.view(table.table_id, token).view for token in tokens]


def replayed(store: Store, games: dict[str, Game], table: CreatedTable) -> list[dict[str, Any]]:
    """The views of the table as the replay of its whole log has it."""
    record = store.load_table(table.table_id)
    setup = TableSetup.from_data(record.setup)
    log = [(m.seat, Move.from_data(m.move)) for m in record.moves]
    again = Table.replay(games[setup.game], setup, log)
    return [again.view(seat, legal=True) for seat in (*table.tokens, None)]


def loads(service: RefereeService, source: str) -> float:
    return float(service.metrics.table_loads.labels(source=source)._value.get())


def test_a_table_reloads_from_its_snapshot_as_its_replay_would_be(
    store: Store, games: dict[str, Game]
) -> None:
    first = referee(store, games)
    table = first.create_table("pontinho", seats=3, seed=5)
    play(first, table, MOVES, seed=5)
    before = seen(first, table)
    first.close()
    assert store.load_table(table.table_id, after_snapshot=True).snapshot is not None

    again = referee(store, games)
    try:
        assert seen(again, table) == before == replayed(store, games, table)
        assert (loads(again, "snapshot"), loads(again, "log")) == (1, 0)
        # a Watch from the start reads the moves the snapshot stood for, when it asks
        watch = again.watch(table.table_id, None, from_version=0)
        updates, _ = watch.drain()
        watch.cancel()
        assert [u.version for u in updates] == list(range(1, MOVES + 1))
        play(again, table, 5, seed=6)  # it plays on, and snapshots on, from where it was
    finally:
        again.close()
    last = store.load_table(table.table_id, after_snapshot=True).snapshot
    assert last is not None and last.version == 50


def test_a_snapshot_that_does_not_fit_is_set_aside_and_the_log_replayed(
    tmp_path: Path, games: dict[str, Game], pg_url: str
) -> None:
    """Garbage in the snapshot row (a bug, an edit, a snapshot of another referee's state): the
    table is read from its log instead, and is right."""
    for store in (SqliteStore(tmp_path / "t.db"), PostgresStore(pg_url)):
        first = referee(store, games)
        table = first.create_table("pontinho", seats=3, seed=8)
        play(first, table, 23, seed=8)
        before = seen(first, table)
        first.close()
        spoil(store)
        again = referee(store, games)
        try:
            assert seen(again, table) == before
            assert (loads(again, "snapshot"), loads(again, "log")) == (0, 1)
        finally:
            again.close()
            store.close()


def spoil(store: Store) -> None:
    """Overwrite the snapshots in the database, as another program could."""
    statement = 'UPDATE snapshots SET data = \'{"format": 1, "state": []}\''
    if isinstance(store, SqliteStore):
        with contextlib.closing(sqlite3.connect(store.path)) as db, db:
            db.execute(statement)
    else:
        assert isinstance(store, PostgresStore)
        with psycopg.connect(store.url, autocommit=True) as pg:
            pg.execute(statement)


def test_no_snapshot_is_taken_when_told_so(store: Store, games: dict[str, Game]) -> None:
    first = referee(store, games, every=0)
    table = first.create_table("pontinho", seats=3, seed=2)
    play(first, table, 21, seed=2)
    first.close()
    assert store.load_table(table.table_id, after_snapshot=True).snapshot is None
    again = referee(store, games)
    try:
        assert seen(again, table) == replayed(store, games, table)
        assert loads(again, "log") == 1
    finally:
        again.close()
