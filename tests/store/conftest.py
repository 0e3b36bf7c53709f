from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.store.base import Store
from referee.store.memory import MemoryStore
from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore


def open_store(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if kind == "memory":
        return MemoryStore()
    if kind == "sqlite":
        return SqliteStore(tmp_path / "t.db")
    # asked for here only: the memory and SQLite runs start no PostgreSQL
    return PostgresStore(request.getfixturevalue("pg_url"))


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Each store implementation, to check that they keep one contract."""
    opened = open_store(request.param, request, tmp_path)
    yield opened
    opened.close()
