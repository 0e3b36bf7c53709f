"""What only the PostgreSQL store promises: a durable database or a refusal, a versioned schema,
one winner of a race between processes, and UNAVAILABLE (never INTERNAL) when out of reach."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import grpc
import psycopg
import pytest

from referee.calls.status import status_of
from referee.errors import RefereeError
from referee.store import listening, postgres
from referee.store.base import (
    KEEP,
    Due,
    Keep,
    Snapshot,
    StoreConflict,
    StoreUnavailable,
    Summary,
    TableFilter,
)
from referee.store.durability import NotDurable, durability_problem
from referee.store.listening import APPLICATION_NAME, announcement, heard
from referee.store.postgres import MIGRATIONS, PostgresStore

SETUP = {"game": "pontinho", "seats": 3}
DRAW = {"type": "draw"}
VERDICT = {"outcome": "accepted", "violations": [], "events": [], "version": 1}
CUT_TIMEOUT_S = 5.0
RECONNECT_TIMEOUT_S = 10.0


@pytest.fixture
def store(pg_url: str) -> Iterator[PostgresStore]:
    opened = PostgresStore(pg_url)
    yield opened
    opened.close()


def schema_version(url: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT version FROM schema_version").fetchone()
    assert row is not None
    return int(row[0])


def run_sql(url: str, statement: str) -> None:
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(statement)


def database_name(url: str) -> str:
    return psycopg.conninfo.conninfo_to_dict(url)["dbname"]  # type: ignore[return-value]


def test_a_fresh_database_gets_the_latest_schema(store: PostgresStore, pg_url: str) -> None:
    assert schema_version(pg_url) == len(MIGRATIONS)
    PostgresStore(pg_url).close()  # opening again migrates nothing
    assert schema_version(pg_url) == len(MIGRATIONS)


def test_an_older_schema_is_migrated_keeping_the_tables(
    store: PostgresStore, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create_table("t1", SETUP, {0: "h0"})
    store.append_move("t1", 1, 1, DRAW, "m1", VERDICT)
    store.close()
    later = (*MIGRATIONS, "ALTER TABLE tables ADD COLUMN note TEXT")
    monkeypatch.setattr(postgres, "MIGRATIONS", later)
    again = PostgresStore(pg_url)
    assert schema_version(pg_url) == len(later)
    assert again.load_table("t1").version == 1
    run_sql(pg_url, "UPDATE tables SET note = 'the new column is there'")
    again.close()


def test_a_newer_schema_is_refused(store: PostgresStore, pg_url: str) -> None:
    run_sql(pg_url, f"UPDATE schema_version SET version = {len(MIGRATIONS) + 1}")
    with pytest.raises(
        RefereeError, match=f"newer than this referee's {len(MIGRATIONS)}: upgrade the referee"
    ):
        PostgresStore(pg_url)


def test_a_database_that_answers_before_it_syncs_is_refused(pg_url: str) -> None:
    run_sql(pg_url, f'ALTER DATABASE "{database_name(pg_url)}" SET synchronous_commit = off')
    with pytest.raises(NotDurable, match="`synchronous_commit` is `off`: turn it on, or serve"):
        PostgresStore(pg_url)
    PostgresStore(pg_url, unsafe_durability=True).close()  # said out loud: it serves


def test_every_level_of_synchronous_commit_but_off_syncs_and_fsync_must_be_on() -> None:
    for level in ("on", "local", "remote_write", "remote_apply"):
        assert durability_problem("on", level) is None
    assert durability_problem("off", "on") == "`fsync` is `off`"


def test_two_processes_race_for_one_move_and_one_wins(store: PostgresStore, pg_url: str) -> None:
    stores = [store, PostgresStore(pg_url)]
    store.create_table("t1", SETUP, {0: "h0"})
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def append(racer: PostgresStore, seat: int) -> None:
        start.wait()
        try:
            racer.append_move("t1", 1, seat, DRAW, None, VERDICT)
            outcomes.append("won")
        except StoreConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=append, args=(s, i)) for i, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict", "won"]
    assert [m.seq for m in stores[1].load_table("t1").moves] == [1]
    stores[1].close()


def test_a_move_is_committed_when_append_move_returns(store: PostgresStore, pg_url: str) -> None:
    store.create_table("t1", SETUP, {0: "h0"})
    store.append_move("t1", 1, 1, DRAW, None, VERDICT)
    with psycopg.connect(pg_url) as reader:  # another session sees it at once
        assert reader.execute("SELECT count(*) FROM proposals").fetchone() == (1,)


def test_a_database_out_of_reach_is_unavailable_in_one_line(tmp_path: object) -> None:
    with pytest.raises(StoreUnavailable) as refused:
        PostgresStore(f"postgresql://postgres@/referee?host={tmp_path}")  # no server there
    assert "\n" not in refused.value.message
    assert refused.value.message.startswith("the database `dbname=referee host=")
    assert status_of(refused.value)[0] is grpc.StatusCode.UNAVAILABLE


def test_a_cut_connection_is_replaced(store: PostgresStore, pg_url: str) -> None:
    store.create_table("t1", SETUP, {0: "h0"})
    cut_connections(pg_url)
    assert store.version("t1") == 0  # through a new connection, not an error


def test_calls_while_the_database_refuses_connections_are_unavailable(pg_url: str) -> None:
    store = PostgresStore(pg_url, pool_timeout=0.5)
    store.create_table("t1", SETUP, {0: "h0"})
    name = database_name(pg_url)
    server = postgres_of(pg_url)
    run_sql(server, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    cut_connections(pg_url)
    for call in (lambda: store.append_move("t1", 1, 1, DRAW, "m1", VERDICT), store.table_ids):
        with pytest.raises(StoreUnavailable) as down:
            call()
        assert status_of(down.value)[0] is grpc.StatusCode.UNAVAILABLE
    run_sql(server, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    # back: a retry goes through once the pool has reconnected (it waits 1 s, then 2 s, ...)
    deadline = time.monotonic() + RECONNECT_TIMEOUT_S
    while True:
        try:
            store.append_move("t1", 1, 1, DRAW, "m1", VERDICT)
            break
        except StoreUnavailable:
            assert time.monotonic() < deadline, "the store did not reconnect"
    assert store.version("t1") == 1
    store.close()


def postgres_of(url: str) -> str:
    """The server's `postgres` database, from which another database is altered."""
    return psycopg.conninfo.make_conninfo(url, dbname="postgres")


def cut_connections(url: str) -> None:
    """End every session of `url`'s database but the caller's, as a restart would, and wait for
    them to be gone (pg_terminate_backend only signals them)."""
    others = (
        f"FROM pg_stat_activity WHERE datname = '{database_name(url)}' AND pid <> pg_backend_pid()"
    )
    run_sql(postgres_of(url), f"SELECT pg_terminate_backend(pid) {others}")
    deadline = time.monotonic() + CUT_TIMEOUT_S
    with psycopg.connect(postgres_of(url), autocommit=True) as db:
        while db.execute(f"SELECT count(*) {others}").fetchone() != (0,):
            assert time.monotonic() < deadline, "the sessions outlived pg_terminate_backend"
            time.sleep(0.01)


def test_a_url_libpq_cannot_read_is_refused_before_any_connection() -> None:
    with pytest.raises(
        RefereeError, match='cannot read the database URL: invalid URI query parameter: "x"'
    ):
        PostgresStore("postgresql:///referee?x=1")


class Heard:
    """A follower that writes down what it is told."""

    def __init__(self) -> None:
        self.moves: list[tuple[str, int, Due | Keep | None]] = []
        self.misses = 0
        self.changed = threading.Condition()

    def moved(self, table_id: str, version: int, deadline: Due | Keep | None) -> None:
        with self.changed:
            self.moves.append((table_id, version, deadline))
            self.changed.notify_all()

    def missed(self) -> None:
        with self.changed:
            self.misses += 1
            self.changed.notify_all()

    def wait_for(self, what: Callable[[], bool]) -> bool:
        with self.changed:
            return self.changed.wait_for(what, RECONNECT_TIMEOUT_S)


def following(store: PostgresStore) -> Heard:
    heard = Heard()
    store.follow(heard)
    assert heard.wait_for(lambda: heard.misses == 1)  # told once it listens
    return heard


def test_a_process_hears_the_moves_of_the_others_not_its_own(
    store: PostgresStore, pg_url: str
) -> None:
    other = PostgresStore(pg_url)
    try:
        mine, theirs = following(store), following(other)
        store.create_table("t1", SETUP, {0: "h0"})
        store.append_move("t1", 1, 0, DRAW, None, VERDICT, deadline=Due(3, 12.5))
        store.append_move("t1", 2, 0, DRAW, None, VERDICT)
        store.append_move("t1", 3, 0, DRAW, None, VERDICT, deadline=None)
        assert theirs.wait_for(lambda: len(theirs.moves) == 3)
        assert theirs.moves == [("t1", 1, Due(3, 12.5)), ("t1", 2, KEEP), ("t1", 3, None)]
        other.append_move("t1", 4, 0, DRAW, None, VERDICT)
        assert mine.wait_for(lambda: len(mine.moves) == 1)
        assert mine.moves == [("t1", 4, KEEP)]  # its own three are not told back
    finally:
        other.close()


def test_a_move_undone_is_never_heard(store: PostgresStore, pg_url: str) -> None:
    other = PostgresStore(pg_url)
    try:
        theirs = following(other)
        store.create_table("t1", SETUP, {0: "h0"})
        store.append_move("t1", 1, 0, DRAW, None, VERDICT)
        with pytest.raises(StoreConflict):
            store.append_move("t1", 1, 0, DRAW, None, VERDICT)  # rolled back: no NOTIFY sent
        store.append_move("t1", 2, 0, DRAW, None, VERDICT)
        assert theirs.wait_for(lambda: len(theirs.moves) == 2)
        assert [version for _, version, _ in theirs.moves] == [1, 2]
    finally:
        other.close()


def test_a_listener_cut_off_listens_again_and_says_it_may_have_missed_moves(
    store: PostgresStore, pg_url: str
) -> None:
    other = PostgresStore(pg_url)
    try:
        theirs = following(other)
        run_sql(
            pg_url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE application_name = '{APPLICATION_NAME}' AND datname = current_database()",
        )
        assert theirs.wait_for(lambda: theirs.misses == 2)  # listening again, and told so
        store.create_table("t1", SETUP, {0: "h0"})
        store.append_move("t1", 1, 0, DRAW, None, VERDICT)
        assert theirs.wait_for(lambda: theirs.moves == [("t1", 1, KEEP)])
    finally:
        other.close()


def test_an_announcement_that_is_not_one_is_ignored() -> None:
    said = announcement("p1", "t1", 4, Due(2, 9.0))
    assert heard(said) == listening.Heard("p1", "t1", 4, Due(2, 9.0))
    for garbage in ("", "{", "[]", '{"by": "p"}', '{"by":1,"table":2,"version":"x"}'):
        assert heard(garbage) is None


def test_a_table_from_before_rules_versions_is_migrated_with_none(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database of schema version 3 (no `specs`): its tables come through the later versions unpinned."""
    with monkeypatch.context() as patched:
        patched.setattr(postgres, "MIGRATIONS", MIGRATIONS[:3])
        PostgresStore(pg_url).close()
    run_sql(pg_url, "INSERT INTO tables (id, game, setup) VALUES ('t1', 'pontinho', '{}')")
    store = PostgresStore(pg_url)
    try:
        assert schema_version(pg_url) == len(MIGRATIONS) == 8
        assert store.load_table("t1").rules_version is None
    finally:
        store.close()


def test_a_table_s_latest_snapshot_comes_through_the_migration_to_every_snapshot(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database of schema version 5 kept one snapshot a table: it is kept, and the later ones
    beside it."""
    with monkeypatch.context() as patched:
        patched.setattr(postgres, "MIGRATIONS", MIGRATIONS[:5])
        PostgresStore(pg_url).close()
    # a table at version 1, as the referee then wrote it
    run_sql(pg_url, "INSERT INTO tables (id, game, setup) VALUES ('t1', 'pontinho', '{}')")
    run_sql(
        pg_url,
        "INSERT INTO proposals (table_id, seq, seat, move, verdict) "
        "VALUES ('t1', 1, 1, '{\"type\": \"draw\"}', '{}')",
    )
    run_sql(pg_url, "INSERT INTO snapshots (table_id, version, data) VALUES ('t1', 1, 'one')")
    store = PostgresStore(pg_url)
    try:
        store.append_move("t1", 2, 1, DRAW, None, VERDICT, snapshot=Snapshot(2, "two"))
        assert schema_version(pg_url) == len(MIGRATIONS)
        found = [store.snapshot_before("t1", v) for v in (1, 2)]
        assert found == [Snapshot(1, "one"), Snapshot(2, "two")]
    finally:
        store.close()


def test_a_table_from_before_summaries_is_migrated_without_one(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database of schema version 6: its tables come through unsummarised (the lobby fills
    them in), listed newest first by their creation all the same."""
    with monkeypatch.context() as patched:
        patched.setattr(postgres, "MIGRATIONS", MIGRATIONS[:6])
        PostgresStore(pg_url).close()
    for table_id in ("t1", "t2"):
        run_sql(
            pg_url,
            f"INSERT INTO tables (id, game, setup) VALUES ('{table_id}', 'pontinho', '{{}}')",
        )
    store = PostgresStore(pg_url)
    try:
        assert schema_version(pg_url) == len(MIGRATIONS) == 8
        assert sorted(store.unsummarised(5)) == ["t1", "t2"]
        listed = store.list_tables(TableFilter(), limit=5)
        assert [(t.table_id, t.summary) for t in listed] == [("t2", None), ("t1", None)]
        assert store.list_tables(TableFilter(over=False), limit=5) == []
        store.set_summary("t1", Summary(True, ()))
        assert [t.table_id for t in store.list_tables(TableFilter(over=True), limit=5)] == ["t1"]
    finally:
        store.close()
