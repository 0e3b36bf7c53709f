"""The flush floor: how many durable commits a second one writer makes on this disk, through the
store's own connection, one small row a transaction, from one thread, for a fixed time.

A durable Propose at one client waits for one commit (its move's, or its remembered
rejection's) before its verdict, so its rate is bound by this floor as well as by the transport's
(the health check): `make bench` sets each 1-client figure against the lower of the two. The
SQLite floor commits through `SqliteStore`'s connection and transactions (WAL, `synchronous`
FULL, as `serve` opens it); the PostgreSQL floor through one connection of `PostgresStore`'s pool
(autocommit, each transaction explicit, the server's `synchronous_commit`, which the store
checks is on).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore

# the floor's own table beside the store's: one small row a commit
FLOOR_TABLE = (
    "CREATE TABLE IF NOT EXISTS flush_floor (n INTEGER PRIMARY KEY, at DOUBLE PRECISION NOT NULL)"
)


def sqlite_floor(folder: Path, seconds: float) -> dict[str, float]:
    """The flush floor of an SQLite store in `folder` (a file of its own, on that disk)."""
    store = SqliteStore(folder / "flush_floor.db")
    try:
        with store._transaction() as db:
            db.execute(FLOOR_TABLE)

        def commit_one(n: int) -> None:
            with store._transaction() as db:  # BEGIN IMMEDIATE ... COMMIT: one fsync
                db.execute("INSERT INTO flush_floor (n, at) VALUES (?, ?)", (n, time.time()))

        return commits(commit_one, seconds)
    finally:
        store.close()


def postgres_floor(url: str, seconds: float) -> dict[str, float]:
    """The flush floor of a PostgreSQL store on the database of `url` (one connection)."""
    store = PostgresStore(url, pool_size=1)  # refuses a database that is not durable
    try:
        with store._connection() as db:
            with db.transaction():
                db.execute(FLOOR_TABLE)

            def commit_one(n: int) -> None:
                with db.transaction():  # BEGIN ... COMMIT: one flush of the write-ahead log
                    db.execute("INSERT INTO flush_floor (n, at) VALUES (%s, %s)", (n, time.time()))

            return commits(commit_one, seconds)
    finally:
        store.close()


def commits(commit_one: Callable[[int], None], seconds: float) -> dict[str, float]:
    """Commit one row after another for `seconds` (at least one): how many, commits a second,
    and the p50/p99 of a commit (ms), as `referee.bench.summary` gives a client's calls."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds
    while not latencies or time.perf_counter() < stop:
        begin = time.perf_counter()
        commit_one(len(latencies))
        latencies.append(time.perf_counter() - begin)
    every = sorted(latencies)
    return {
        "commits": len(latencies),
        "rps": len(latencies) / sum(latencies),
        "p50_ms": 1000 * every[len(every) // 2],
        "p99_ms": 1000 * every[min(len(every) - 1, int(len(every) * 0.99))],
    }
