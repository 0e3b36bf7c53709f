from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.store.base import Store
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Each store implementation, to check that they keep one contract."""
    opened: Store = MemoryStore() if request.param == "memory" else SqliteStore(tmp_path / "t.db")
    yield opened
    opened.close()
