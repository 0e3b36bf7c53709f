"""The service without gRPC: what happens when the store fails, is shared, or is reopened."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from referee.engine.game import Game
from referee.errors import InvalidArgument, NotFound
from referee.model import Move, Outcome
from referee.service import CreatedTable, RefereeService, WatcherTooSlow
from referee.store.base import KEEP, Due, Keep, Snapshot, Summary
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore
from tests.support.server import DEAL

DRAW = Move("draw")
DISCARD_JH = Move("discard", {"card": "JH"})


def open_table(service: RefereeService) -> CreatedTable:
    return service.create_table("pontinho", seats=3, deal=DEAL)


def views(service: RefereeService, table: CreatedTable) -> list[Any]:
    """What every seat and a spectator see: equal lists mean equal tables, to the players."""
    return [
        service.view(table.table_id, table.tokens.get(seat) if seat is not None else None)
        for seat in (0, 1, 2, None)
    ]


class BrokenDisk(MemoryStore):
    """A store whose next append fails, as a full disk would."""

    fail_next = False

    def append_move(self, *args: Any, **kwargs: Any) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        super().append_move(*args, **kwargs)


def test_a_move_the_store_did_not_keep_is_not_kept_in_memory(games: dict[str, Game]) -> None:
    store = BrokenDisk()
    service = RefereeService(store, games, allow_stacked=True)
    table = open_table(service)
    store.fail_next = True
    with pytest.raises(OSError):
        service.propose(table.table_id, table.tokens[1], DRAW)
    seat_1 = service.view(table.table_id, table.tokens[1])
    assert seat_1.version == 0 and len(seat_1.view["hand"]) == 9
    assert service.propose(table.table_id, table.tokens[1], DRAW).verdict.version == 1


class RacingStore(SqliteStore):
    """A real SQLite store that lets `rival` write just before its own next append."""

    rival: Callable[[], object] | None = None  # its result is not read

    def append_move(
        self,
        table_id: str,
        seq: int,
        seat: int,
        move: Mapping[str, Any],
        move_id: str | None,
        verdict: Mapping[str, Any],
        *,
        deadline: Due | Keep | None = KEEP,
        snapshot: Snapshot | None = None,
        summary: Summary | Keep = KEEP,
        seat_token: tuple[int, str] | None = None,
    ) -> None:
        rival, self.rival = self.rival, None
        if rival is not None:
            rival()
        super().append_move(
            table_id,
            seq,
            seat,
            move,
            move_id,
            verdict,
            deadline=deadline,
            snapshot=snapshot,
            summary=summary,
            seat_token=seat_token,
        )


def test_two_processes_on_one_database_judge_each_move_once(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """B's move loses the race to A's: B reloads the table and judges its move again."""
    store_a, store_b = SqliteStore(tmp_path / "t.db"), RacingStore(tmp_path / "t.db")
    a = RefereeService(store_a, games, allow_stacked=True)
    b = RefereeService(store_b, games, allow_stacked=True)
    table = open_table(a)
    token = table.tokens[1]
    store_b.rival = lambda: a.propose(table.table_id, token, DRAW, move_id="from-a")
    ruling = b.propose(table.table_id, token, DRAW, move_id="from-b")
    assert ruling.verdict.outcome is Outcome.REJECTED  # seat 1 has drawn already (through A)
    assert views(a, table) == views(b, table)
    assert a.view(table.table_id, None).version == 1


def test_a_process_sees_moves_another_process_made(tmp_path: Path, games: dict[str, Game]) -> None:
    a = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    b = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    table = open_table(a)
    assert b.view(table.table_id, None).version == 0  # b has the table cached now
    a.propose(table.table_id, table.tokens[1], DRAW)
    assert b.propose(table.table_id, table.tokens[1], DISCARD_JH).verdict.version == 2
    assert views(a, table) == views(b, table)


class LookingStore(SqliteStore):
    """Counts the looks a service takes at the store for moves its cached tables lack."""

    looks = 0

    def moves_after(self, table_id: str, version: int) -> Any:
        self.looks += 1
        return super().moves_after(table_id, version)


@pytest.mark.parametrize("sole_writer", [True, False])
def test_a_sole_writer_judges_its_tables_without_a_look_at_the_store(
    sole_writer: bool, tmp_path: Path, games: dict[str, Game]
) -> None:
    store = LookingStore(tmp_path / "t.db")
    service = RefereeService(store, games, allow_stacked=True, sole_writer=sole_writer)
    table = open_table(service)
    service.propose(table.table_id, table.tokens[1], DRAW, move_id="m1")
    service.propose(table.table_id, table.tokens[1], DISCARD_JH, move_id="m2")
    assert (store.looks == 0) is sole_writer  # the control: a shared store is looked at


def test_a_sole_writer_with_a_rival_after_all_still_never_forks_the_log(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """A second writer the sole writer does not expect (no claim in a test): the sole writer's
    move at a version the rival took fails to insert; the table is reloaded and judged again."""
    alone = RefereeService(
        SqliteStore(tmp_path / "t.db"), games, allow_stacked=True, sole_writer=True
    )
    rival = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    table = open_table(alone)
    assert alone.view(table.table_id, None).version == 0  # cached at version 0
    rival.propose(table.table_id, table.tokens[1], DRAW)
    ruling = alone.propose(table.table_id, table.tokens[1], DRAW)
    assert ruling.verdict.outcome is Outcome.REJECTED  # seat 1 has drawn already (the rival's)
    assert views(alone, table) == views(rival, table)
    assert alone.view(table.table_id, None).version == 1


def test_a_reopened_store_resumes_every_table_where_it_was(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    first = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    table = open_table(first)
    seeded = first.create_table("pontinho", seats=4)
    first.propose(table.table_id, table.tokens[1], DRAW, move_id="m-1")
    first.propose(seeded.table_id, seeded.tokens[1], DRAW)
    before = views(first, table), views(first, seeded)
    again = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    assert (views(again, table), views(again, seeded)) == before
    retry = again.propose(table.table_id, table.tokens[1], DRAW, move_id="m-1")
    assert retry.replayed and retry.verdict.version == 1
    assert again.propose(table.table_id, table.tokens[1], DISCARD_JH).verdict.version == 2


def test_a_cancelled_watch_ends_at_once(games: dict[str, Game]) -> None:
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    table = open_table(service)
    subscription = service.watch(table.table_id, None)
    subscription.cancel()
    assert list(subscription) == []


def test_a_slow_watcher_is_cut_off_and_told_so(games: dict[str, Game]) -> None:
    service = RefereeService(MemoryStore(), games, watch_capacity=1, allow_stacked=True)
    table = open_table(service)
    subscription = service.watch(table.table_id, None)
    service.propose(table.table_id, table.tokens[1], DRAW)
    service.propose(table.table_id, table.tokens[1], DISCARD_JH)
    seen = iter(subscription)
    assert next(seen).version == 1
    with pytest.raises(WatcherTooSlow, match="fell behind"):
        next(seen)


def test_bad_identifiers_are_refused(games: dict[str, Game]) -> None:
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    table = open_table(service)
    with pytest.raises(InvalidArgument, match="move_id"):
        service.propose(table.table_id, table.tokens[1], DRAW, move_id="m" * 129)
    with pytest.raises(InvalidArgument, match="table_id"):
        service.view("", None)
    with pytest.raises(NotFound, match="unknown table `nope`"):
        service.view("nope", None)
    with pytest.raises(InvalidArgument, match="from_version"):
        service.watch(table.table_id, None, from_version=-1)


def test_watchers_get_the_moves_another_process_made(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """B's watchers learn of A's moves when B next touches the table (here: a view)."""
    a = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    b = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    table = open_table(a)
    subscription = b.watch(table.table_id, None)
    a.propose(table.table_id, table.tokens[1], DRAW)
    a.propose(table.table_id, table.tokens[1], DISCARD_JH)
    b.view(table.table_id, None)
    subscription.close()
    assert [seen.version for seen in subscription] == [1, 2]


def test_concurrent_proposals_are_judged_one_at_a_time(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """Sixteen clients send seat 1's draw at once: one is accepted, once; retries of one move id
    all get that one verdict."""
    service = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    table = open_table(service)
    token = table.tokens[1]
    with ThreadPoolExecutor(max_workers=16) as pool:
        same = list(
            pool.map(
                lambda _: service.propose(table.table_id, token, DRAW, move_id="same").verdict,
                range(8),
            )
        )
        different = list(
            pool.map(
                lambda i: service.propose(table.table_id, token, DRAW, move_id=f"m-{i}").verdict,
                range(8),
            )
        )
    assert all(verdict == same[0] for verdict in same) and same[0].accepted
    assert not any(verdict.accepted for verdict in different)
    assert service.view(table.table_id, None).version == 1
