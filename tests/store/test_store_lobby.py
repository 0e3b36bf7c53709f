"""The lobby's part of the store contract (ListTables, ReissueSeat), memory, SQLite and
PostgreSQL alike: summaries written with the moves, filters and pages read from rows, a seat's
token hash replaced with the move that logs it, and a database from before summaries."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from referee.store import sqlite
from referee.store.base import Due, Store, StoreConflict, Summary, TableFilter
from referee.store.sqlite import MIGRATIONS, SqliteStore
from tests.store.test_store_contract import ACCEPTED, DRAW, SETUP, TOKENS

EVERY = TableFilter()


def ids(store: Store, where: TableFilter = EVERY, **page: int) -> list[str]:
    limit = page.pop("limit", 100)
    return [t.table_id for t in store.list_tables(where, limit=limit, **page)]


def four_tables(store: Store) -> None:
    """t1 (pontinho, in play), t2 (pontoon, a clock), t3 (pontinho, a dispute open), t4 (over)."""
    store.create_table("t1", SETUP, TOKENS)
    store.create_table("t2", {**SETUP, "game": "pontoon"}, TOKENS, deadline=Due(0, 99.5))
    store.create_table("t3", SETUP, TOKENS)
    store.append_move("t3", 1, 1, DRAW, None, ACCEPTED, summary=Summary(False, (1,)))
    store.create_table("t4", SETUP, TOKENS)
    store.append_move("t4", 1, 1, DRAW, None, ACCEPTED, summary=Summary(True, ()))


def test_tables_are_listed_newest_first_with_their_summary(store: Store) -> None:
    four_tables(store)
    listed = store.list_tables(EVERY, limit=10)
    assert [t.table_id for t in listed] == ["t4", "t3", "t2", "t1"]
    by_id = {t.table_id: t for t in listed}
    assert by_id["t3"].summary == Summary(False, (1,)) and by_id["t3"].version == 1
    assert by_id["t4"].summary == Summary(True, ()) and by_id["t1"].summary == Summary()
    assert by_id["t2"].deadline == Due(0, 99.5) and by_id["t1"].deadline is None
    assert by_id["t2"].setup["game"] == "pontoon" and by_id["t1"].created_at[:2] == "20"
    positions = [t.position for t in listed]
    assert positions == sorted(positions, reverse=True)


def test_each_filter_holds_alone_and_together(store: Store) -> None:
    four_tables(store)
    assert ids(store, TableFilter(game="pontoon")) == ["t2"]
    assert ids(store, TableFilter(over=True)) == ["t4"]
    assert ids(store, TableFilter(over=False)) == ["t3", "t2", "t1"]
    assert ids(store, TableFilter(open_disputes=True)) == ["t3"]
    assert ids(store, TableFilter(open_disputes=False)) == ["t4", "t2", "t1"]
    assert ids(store, TableFilter(clock_running=True)) == ["t2"]
    assert ids(store, TableFilter(clock_running=False)) == ["t4", "t3", "t1"]
    assert ids(store, TableFilter(game="pontinho", over=False, open_disputes=False)) == ["t1"]
    assert ids(store, TableFilter(game="euchre")) == []


def test_pages_follow_one_another_below_the_last_position(store: Store) -> None:
    four_tables(store)
    first = store.list_tables(EVERY, limit=3)
    rest = ids(store, below=first[-1].position)
    assert [t.table_id for t in first] + rest == ["t4", "t3", "t2", "t1"]
    assert ids(store, TableFilter(over=False), below=first[0].position, limit=1) == ["t3"]


def test_a_move_that_keeps_the_summary_leaves_it(store: Store) -> None:
    four_tables(store)
    store.append_move("t3", 2, 1, DRAW, None, ACCEPTED)  # summary: KEEP
    assert ids(store, TableFilter(open_disputes=True)) == ["t3"]
    store.append_move("t3", 3, 1, DRAW, None, ACCEPTED, summary=Summary(False, ()))
    assert ids(store, TableFilter(open_disputes=True)) == []


def test_a_seat_token_is_replaced_with_the_move_that_logs_it(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.append_move(
        "t1", 1, -1, {"type": "reissue", "seat": 1}, None, ACCEPTED, seat_token=(1, "d" * 64)
    )
    assert store.load_table("t1").token_hashes == {**TOKENS, 1: "d" * 64}


def test_a_token_is_not_replaced_by_a_move_that_lost_its_race(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.append_move("t1", 1, 1, DRAW, None, ACCEPTED)
    with pytest.raises(StoreConflict):
        store.append_move("t1", 1, -1, DRAW, None, ACCEPTED, seat_token=(1, "d" * 64))
    assert store.load_table("t1").token_hashes == TOKENS


def test_a_summary_is_set_once_for_a_table_without_one(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    assert store.unsummarised(10) == []
    store.set_summary("t1", Summary(True, (4,)))  # it has one: a move wrote it
    assert store.list_tables(EVERY, limit=1)[0].summary == Summary()


def test_a_database_from_before_summaries_lists_its_tables_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of schema version 6: its tables have no summary, match no filter on one, until
    `set_summary` gives them theirs; the deadline filter holds from the start."""
    with monkeypatch.context() as patched:
        patched.setattr(sqlite, "MIGRATIONS", MIGRATIONS[:6])
        SqliteStore(tmp_path / "t.db").close()
    db = sqlite3.connect(tmp_path / "t.db")
    db.execute(
        "INSERT INTO tables (id, game, setup, created_at, deadline_number, deadline_at) "
        "VALUES ('t1', 'pontinho', '{\"game\": \"pontinho\"}', 'then', 0, 5.0)"
    )
    db.commit()
    db.close()
    store = SqliteStore(tmp_path / "t.db")
    assert store.list_tables(EVERY, limit=5)[0].summary is None
    assert ids(store, TableFilter(over=False)) == [] and store.unsummarised(5) == ["t1"]
    assert ids(store, TableFilter(clock_running=True)) == ["t1"]
    store.set_summary("t1", Summary(False, (2,)))
    assert ids(store, TableFilter(open_disputes=True)) == ["t1"] and store.unsummarised(5) == []
    assert sqlite3.connect(tmp_path / "t.db").execute("PRAGMA user_version").fetchone()[0] == 7
