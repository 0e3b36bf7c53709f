"""What reloading a long table costs (issue 13, point 5): a table of 5,000 moves and more read
back into memory, as a process that has not got it (or whose copy is gone) reads it, from its
latest snapshot and the moves after it, beside the replay of its whole log.

The log is played once in memory (Pontinho, draw and discard by seats choosing from their own
views) and written to each store with a snapshot every `SNAPSHOT_EVERY` moves, as the service
writes them; a copy of the table without snapshots is the replay's. Each figure is the median of
several loads, each into an empty cache (`LiveTables`, what the service loads tables with).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from referee.engine import snapshot
from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import Move
from referee.server.logging import configure_logging
from referee.service.referee_service import SNAPSHOT_EVERY
from referee.service.rules_versions import RulesVersions
from referee.service.tables import LiveTables
from referee.service.watching import Watchers
from referee.store.base import Snapshot, Store
from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore
from tests.harden.ledger import draw_or_discard
from tests.support.games import shipped_games

LOADS = 15  # each figure's median is of this many loads


@dataclass(frozen=True)
class Reload:
    store: str
    moves: int
    after_snapshot: int  # moves judged again after the snapshot
    from_snapshot_ms: float
    replay_ms: float


def played(game: Game, moves: int, seed: int = 1) -> Table:
    table = Table.create(game, TableSetup(game=game.name, options={}, seats=3, seed=seed))
    rng = random.Random(seed)
    while table.version < moves:
        seat = int(table.view(None)["to_act"])
        move = Move.from_data(draw_or_discard(table.view(seat, legal=True), rng))
        assert table.propose(seat, move).accepted
    return table


def write(store: Store, table_id: str, table: Table, *, snapshots: bool) -> None:
    """The table's log into `store` as the service writes it (each move's verdict left empty:
    a load reads it but judges nothing by it)."""
    store.create_table(table_id, table.setup.to_data(), {0: "0" * 64})
    again = Table.create(table.game, table.setup)
    for seq, (seat, move) in enumerate(table.history, start=1):
        again.redo(seat, move)
        taken = None
        if snapshots and seq % SNAPSHOT_EVERY == 0:
            taken = Snapshot(seq, snapshot.snapshot(again))
        verdict = {"outcome": "accepted", "violations": [], "events": [], "version": seq}
        store.append_move(table_id, seq, seat, move.to_data(), None, verdict, snapshot=taken)


def median_load_ms(store: Store, games: dict[str, Game], table_id: str) -> float:
    took = []
    for _ in range(LOADS):
        cache = LiveTables(store, RulesVersions(store, games).of_table, Watchers(), loaded=_nothing)
        started = time.perf_counter()
        cache.live(table_id)
        took.append(time.perf_counter() - started)
    return statistics.median(took) * 1000


def _nothing(_: object) -> None:
    return None


@contextmanager
def stores(folder: Path, postgres_url: str | None) -> Iterator[dict[str, Store]]:
    """Each store written fast (no sync: the figure is of reading)."""
    opened: dict[str, Store] = {"SQLite": SqliteStore(folder / "reload.db", synchronous="NORMAL")}
    if postgres_url is not None:
        with psycopg.connect(postgres_url, autocommit=True) as db:
            name = db.info.dbname  # a database of the bench's own
            db.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        opened["PostgreSQL"] = PostgresStore(postgres_url, unsafe_durability=True)
    try:
        yield opened
    finally:
        for store in opened.values():
            store.close()


def measure(
    folder: Path, postgres_url: str | None, moves: int = 5000, say: Callable[[str], None] = print
) -> list[Reload]:
    configure_logging("warning")  # not a line a load: the figure is of loading
    games = shipped_games()
    # the worst case: the most moves after a snapshot there can be (5,049 for 5,000)
    table = played(games["pontinho"], moves - moves % SNAPSHOT_EVERY + SNAPSHOT_EVERY - 1)
    figures = []
    with stores(folder, postgres_url) as opened:
        for name, store in opened.items():
            write(store, "snapshots", table, snapshots=True)
            write(store, "log-only", table, snapshots=False)
            figure = Reload(
                name,
                table.version,
                table.version % SNAPSHOT_EVERY,
                median_load_ms(store, games, "snapshots"),
                median_load_ms(store, games, "log-only"),
            )
            say(
                f"{name:<11} {figure.moves:,} moves: from its snapshot and the "
                f"{figure.after_snapshot} after it {figure.from_snapshot_ms:6.1f} ms; "
                f"replaying the whole log {figure.replay_ms:7.1f} ms "
                f"({figure.replay_ms / figure.from_snapshot_ms:.0f}×)"
            )
            figures.append(figure)
    return figures
