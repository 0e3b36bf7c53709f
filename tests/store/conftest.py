from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.store.base import Store
from referee.store.memory import MemoryStore
from referee.store.partitioned import PartitionedStore
from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore
from tests.support.postgres_server import fresh_database


def open_store(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if kind == "memory":
        return MemoryStore()
    if kind == "sqlite":
        return SqliteStore(tmp_path / "t.db")
    # asked for here only: the memory and SQLite runs start no PostgreSQL
    url = request.getfixturevalue("pg_url")
    if kind == "postgresql":
        return PostgresStore(url)
    # the tests' ids (`t1`...) are the first database's: the routing keeps the contract, and
    # the second, shared by the tests, stays empty (and its place unchecked)
    second = request.getfixturevalue("second_database")
    return PartitionedStore([PostgresStore(url), PostgresStore(second)])


@pytest.fixture(scope="session")
def second_database(pg_server: str) -> Iterator[str]:
    """A database the partitioned store's contract runs share as their second."""
    with fresh_database(pg_server) as url:
        yield url


@pytest.fixture(params=["memory", "sqlite", "postgresql", "partitioned"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Each store implementation, to check that they keep one contract."""
    opened = open_store(request.param, request, tmp_path)
    yield opened
    opened.close()
