"""Move ids without a look before judging: a fresh move costs no query, and the store's unique
key finds a retry when its verdict is recorded, whatever the move would be judged now."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.engine.game import Game
from referee.errors import InvalidArgument, VersionConflict
from referee.model import Move, Outcome
from referee.service import CreatedTable, RefereeService
from referee.store.base import Proposal
from referee.store.memory import MemoryStore
from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore
from tests.support.server import DEAL

DRAW = Move("draw")
DISCARD_JH = Move("discard", {"card": "JH"})


def counting(base: type[Any]) -> type[Any]:
    """`base`, a store, counting the verdicts looked up by move id."""

    class Counting(base):  # type: ignore[misc]
        lookups = 0

        def find_verdict(self, table_id: str, move_id: str) -> Proposal | None:
            self.lookups += 1
            found: Proposal | None = super().find_verdict(table_id, move_id)
            return found

    return Counting


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "memory":
        opened = counting(MemoryStore)()
    elif request.param == "sqlite":
        opened = counting(SqliteStore)(tmp_path / "t.db")
    else:
        opened = counting(PostgresStore)(request.getfixturevalue("pg_url"))
    yield opened
    opened.close()


@pytest.fixture
def service(store: Any, games: dict[str, Game]) -> Iterator[RefereeService]:
    running = RefereeService(store, games, allow_stacked=True, sole_writer=True)
    yield running
    running.close()


@pytest.fixture
def table(service: RefereeService) -> CreatedTable:
    return service.create_table("pontinho", seats=3, deal=DEAL)


def stored_versions(store: Any, table: CreatedTable) -> list[int]:
    return [move.seq for move in store.load_table(table.table_id).moves]


def test_fresh_move_ids_cost_no_lookup(
    service: RefereeService, store: Any, table: CreatedTable
) -> None:
    service.propose(table.table_id, table.tokens[1], DRAW, move_id="m1")
    service.propose(table.table_id, table.tokens[2], DRAW, move_id="m2")  # rejected: remembered
    service.propose(table.table_id, table.tokens[1], DISCARD_JH, move_id="m3")
    assert store.lookups == 0
    again = service.propose(table.table_id, table.tokens[2], DRAW, move_id="m2")
    assert again.replayed and store.lookups == 1  # the control: a retry is looked up


def test_a_retry_judged_legal_now_still_gets_its_first_rejection(
    service: RefereeService, store: Any, table: CreatedTable
) -> None:
    """Seat 2's draw out of turn is rejected; retried on its turn, the draw would be accepted,
    but the move id's first verdict stands and the table does not move."""
    first = service.propose(table.table_id, table.tokens[2], DRAW, move_id="early")
    assert first.verdict.outcome is Outcome.REJECTED
    service.propose(table.table_id, table.tokens[1], DRAW)
    service.propose(table.table_id, table.tokens[1], DISCARD_JH)
    before = service.view(table.table_id, table.tokens[2])
    retry = service.propose(table.table_id, table.tokens[2], DRAW, move_id="early")
    assert retry.replayed and retry.verdict == first.verdict
    assert service.view(table.table_id, table.tokens[2]) == before
    assert stored_versions(store, table) == [1, 2]
    fresh = service.propose(table.table_id, table.tokens[2], DRAW, move_id="later")
    assert fresh.verdict.outcome is Outcome.ACCEPTED and fresh.verdict.version == 3


def test_a_move_id_reused_for_another_legal_move_changes_nothing(
    service: RefereeService, store: Any, table: CreatedTable
) -> None:
    service.propose(table.table_id, table.tokens[1], DRAW, move_id="m1")
    before = service.view(table.table_id, table.tokens[1])
    with pytest.raises(InvalidArgument, match="already used for another move"):
        service.propose(table.table_id, table.tokens[1], DISCARD_JH, move_id="m1")  # legal now
    assert service.view(table.table_id, table.tokens[1]) == before
    assert stored_versions(store, table) == [1]
    assert service.propose(table.table_id, table.tokens[1], DISCARD_JH).verdict.version == 2


def test_a_retry_naming_the_version_before_its_move_gets_its_verdict(
    service: RefereeService, table: CreatedTable
) -> None:
    first = service.propose(table.table_id, table.tokens[1], DRAW, move_id="m1", expected_version=0)
    retry = service.propose(table.table_id, table.tokens[1], DRAW, move_id="m1", expected_version=0)
    assert retry.replayed and retry.verdict == first.verdict
    with pytest.raises(VersionConflict, match="at version 1, not 0"):  # a fresh id is stale
        service.propose(
            table.table_id, table.tokens[1], DISCARD_JH, move_id="m2", expected_version=0
        )
