"""What only the SQLite store promises: durability settings, a versioned schema, shared files."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from referee.errors import RefereeError
from referee.store import sqlite
from referee.store.base import Snapshot, StoreConflict
from referee.store.sqlite import MIGRATIONS, SqliteStore

SETUP = {"game": "pontinho", "seats": 3}
DRAW = {"type": "draw"}
VERDICT = {"outcome": "accepted", "violations": [], "events": [], "version": 1}


def pragma(store: SqliteStore, name: str) -> object:
    return store._db.execute(f"PRAGMA {name}").fetchone()[0]


def test_it_writes_ahead_and_syncs_every_commit(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db")
    assert pragma(store, "journal_mode") == "wal"
    assert pragma(store, "synchronous") == 2  # FULL
    assert pragma(store, "user_version") == len(MIGRATIONS)


def test_the_synchronous_level_can_be_lowered_for_the_power_loss_test(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db", synchronous="NORMAL")
    assert pragma(store, "synchronous") == 1
    store.close()
    with pytest.raises(RefereeError, match="unknown synchronous level `OFF`"):
        SqliteStore(tmp_path / "u.db", synchronous="OFF")


def test_tables_survive_closing_and_reopening(tmp_path: Path) -> None:
    first = SqliteStore(tmp_path / "t.db")
    first.create_table("t1", SETUP, {0: "h0"})
    first.append_move("t1", 1, 1, DRAW, "m1", VERDICT)
    first.close()
    again = SqliteStore(tmp_path / "t.db")
    record = again.load_table("t1")
    assert (record.setup, record.token_hashes, record.version) == (SETUP, {0: "h0"}, 1)
    assert again.find_verdict("t1", "m1") is not None


def test_a_committed_move_is_visible_to_another_connection_at_once(tmp_path: Path) -> None:
    """Nothing waits in a buffer: when append_move returns, the move is in the file."""
    store = SqliteStore(tmp_path / "t.db")
    store.create_table("t1", SETUP, {0: "h0"})
    store.append_move("t1", 1, 1, DRAW, None, VERDICT)
    reader = sqlite3.connect(tmp_path / "t.db")
    assert reader.execute("SELECT count(*) FROM proposals").fetchone()[0] == 1


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "t.db").close()
    db = sqlite3.connect(tmp_path / "t.db")
    db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    db.commit()
    db.close()
    with pytest.raises(RefereeError, match="newer than this referee"):
        SqliteStore(tmp_path / "t.db")


def test_two_processes_on_one_file_race_and_one_wins(tmp_path: Path) -> None:
    """Two stores (as two referee processes) append move 1 of one table: exactly one succeeds."""
    stores = [SqliteStore(tmp_path / "t.db") for _ in range(2)]
    stores[0].create_table("t1", SETUP, {0: "h0"})
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def append(store: SqliteStore, seat: int) -> None:
        start.wait()
        try:
            store.append_move("t1", 1, seat, DRAW, None, VERDICT)
            outcomes.append("won")
        except StoreConflict:
            outcomes.append("lost")

    threads = [threading.Thread(target=append, args=(s, i)) for i, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["lost", "won"]
    assert stores[1].version("t1") == 1


def test_a_failed_write_leaves_no_trace(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db")
    store.create_table("t1", SETUP, {0: "h0"})
    with pytest.raises(ValueError):  # NaN is not JSON: refused before anything is written
        store.append_move("t1", 1, 1, {"type": "bet", "amount": float("nan")}, None, VERDICT)
    assert store.version("t1") == 0
    store.append_move("t1", 1, 1, DRAW, None, VERDICT)  # and the store still works


def test_a_table_from_before_rules_versions_is_migrated_with_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of schema version 3 (no `specs`): its tables come through the later versions unpinned."""
    with monkeypatch.context() as patched:
        patched.setattr(sqlite, "MIGRATIONS", MIGRATIONS[:3])
        SqliteStore(tmp_path / "t.db").close()
    db = sqlite3.connect(tmp_path / "t.db")
    db.execute(
        "INSERT INTO tables (id, game, setup, created_at) VALUES ('t1', 'pontinho', '{}', 'then')"
    )
    db.commit()
    db.close()
    store = SqliteStore(tmp_path / "t.db")
    assert pragma(store, "user_version") == len(MIGRATIONS) == 7
    assert store.load_table("t1").rules_version is None


def test_a_table_s_latest_snapshot_comes_through_the_migration_to_every_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of schema version 5 kept one snapshot a table: it is kept, and the later ones
    beside it."""
    with monkeypatch.context() as patched:
        patched.setattr(sqlite, "MIGRATIONS", MIGRATIONS[:5])
        SqliteStore(tmp_path / "t.db").close()
    db = sqlite3.connect(tmp_path / "t.db")  # a table at version 1, as the referee then wrote it
    db.execute(
        "INSERT INTO tables (id, game, setup, created_at) VALUES ('t1', 'pontinho', '{}', 'then')"
    )
    db.execute(
        "INSERT INTO proposals (table_id, seq, seat, move, verdict, created_at) "
        "VALUES ('t1', 1, 1, '{\"type\": \"draw\"}', '{}', 'then')"
    )
    db.execute("INSERT INTO snapshots (table_id, version, data) VALUES ('t1', 1, 'one')")
    db.commit()
    db.close()
    store = SqliteStore(tmp_path / "t.db")
    store.append_move("t1", 2, 1, DRAW, None, VERDICT, snapshot=Snapshot(2, "two"))
    assert pragma(store, "user_version") == len(MIGRATIONS)
    assert [store.snapshot_before("t1", v) for v in (1, 2)] == [
        Snapshot(1, "one"),
        Snapshot(2, "two"),
    ]


def test_the_signing_key_outlives_the_process(tmp_path: Path) -> None:
    first = SqliteStore(tmp_path / "t.db")
    kept = first.signing_key("c" * 64)
    first.close()
    assert SqliteStore(tmp_path / "t.db").signing_key("d" * 64) == kept


def test_a_remembered_rejection_is_committed_before_it_returns(tmp_path: Path) -> None:
    """A rejection joins the open group of writes, as an accepted move does, and is on disk
    (committed, seen by another connection) when `record_rejection` returns."""
    store = SqliteStore(tmp_path / "t.db")
    commits: list[float] = []
    store.on_commit = commits.append
    store.create_table("t1", SETUP, {0: "h0"})
    before = len(commits)
    store.record_rejection("t1", 1, {"type": "draw"}, "m-1", {"outcome": "rejected"})
    assert len(commits) == before + 1
    other = SqliteStore(tmp_path / "t.db")
    found = other.find_verdict("t1", "m-1")
    assert found is not None and found.seq is None
    with pytest.raises(StoreConflict):  # the move id is taken: the write undone alone
        store.record_rejection("t1", 1, {"type": "draw"}, "m-1", {"outcome": "rejected"})
    store.append_move("t1", 1, 1, {"type": "draw"}, "m-2", {"outcome": "accepted"})
    assert other.version("t1") == 1  # the group went on after the refused write
