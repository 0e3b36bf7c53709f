"""Tables partitioned across two PostgreSQL databases (issue 30, point 4): each table in one,
named by its id, every call of it served there alone; the lobby pages across both; each
database keeps its place in the list; a database down leaves the other's tables playing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest

from referee.engine.game import Game
from referee.engine.versions import rules_version
from referee.errors import InvalidArgument, NotFound
from referee.model import Move
from referee.plugins.games import load_games
from referee.service import RefereeService, lobby
from referee.store.base import Due, Keep, Snapshot, Store, StoredSpec, StoreUnavailable, TableFilter
from referee.store.partitioned import (
    PartitionedStore,
    WrongPlace,
    number_of,
    open_databases,
    table_id_in,
)
from referee.store.postgres import PostgresStore
from tests.store.test_store_contract import ACCEPTED, DRAW, REJECTED, RULES, SETUP, TOKENS
from tests.support.postgres_server import fresh_database
from tests.versions.corrected import ALLOWED_BEFORE_ONLY, corrected_specs


@pytest.fixture
def urls(pg_server: str) -> Iterator[list[str]]:
    """Two fresh databases of the test server."""
    with ExitStack() as stack:
        yield [stack.enter_context(fresh_database(pg_server)) for _ in range(2)]


@pytest.fixture
def third(pg_server: str) -> Iterator[str]:
    with fresh_database(pg_server) as url:
        yield url


@pytest.fixture
def both(urls: list[str]) -> Iterator[PartitionedStore]:
    store = open_databases(urls[:2], unsafe_durability=True)
    assert isinstance(store, PartitionedStore)
    yield store
    store.close()


def ids_in(url: str) -> set[str]:
    with psycopg.connect(url) as db:
        return {row[0] for row in db.execute("SELECT id FROM tables").fetchall()}


def test_an_id_says_its_database_and_today_s_ids_are_the_first_s() -> None:
    assert table_id_in(1, "3fa9c2d1e0b4a7f6") == "3fa9c2d1e0b4a7f6"  # today's: database 1
    assert table_id_in(2, "3fa9c2d1e0b4a7f6") == "2-3fa9c2d1e0b4a7f6"
    assert [number_of(i) for i in ("3fa9c2d1e0b4a7f6", "2-3fa9", "12-ab", "t1", "a-b")] == [
        1,
        2,
        12,
        1,
        1,
    ]
    assert number_of("123-ab") == 0  # no database has that number
    assert number_of("02-ab") == 1  # not a mark: an id of the first database


def test_new_tables_spread_over_both_each_kept_in_its_own_alone(
    both: PartitionedStore, urls: list[str]
) -> None:
    made = [both.new_table_id() for _ in range(40)]
    for table_id in made:
        both.create_table(table_id, SETUP, TOKENS)
    first = {t for t in made if number_of(t) == 1}
    second = {t for t in made if number_of(t) == 2}
    assert first and second and first | second == set(made)  # 40 random picks: both, surely
    assert all(len(t) == 16 for t in first) and all(t.startswith("2-") for t in second)
    assert (ids_in(urls[0]), ids_in(urls[1])) == (first, second)
    assert set(both.table_ids()) == set(made)


def test_every_call_of_a_table_is_its_database_s(both: PartitionedStore, urls: list[str]) -> None:
    one, two = "a" * 16, "2-" + "b" * 16
    for table_id in (one, two):
        both.create_table(table_id, SETUP, TOKENS, RULES, Due(1, 100.0))
        both.append_move(table_id, 1, 1, DRAW, "m1", ACCEPTED, snapshot=Snapshot(1, "s"))
        both.record_rejection(table_id, 1, DRAW, "r1", REJECTED)
    alone = PostgresStore(urls[1], unsafe_durability=True)  # the second database, read alone
    try:
        assert alone.load_table(two).version == 1 and alone.find_verdict(two, "r1") is not None
        with pytest.raises(NotFound):
            alone.load_table(one)
    finally:
        alone.close()
    assert both.load_table(two).version == both.version(two) == 1
    assert [m.move_id for m in both.moves_after(two, 0)] == ["m1"]
    assert both.moves_between(two, 0, 1) == both.moves_after(two, 0)
    assert both.snapshot_before(two, 1) == Snapshot(1, "s")
    assert both.find_verdict(two, "r1") is not None
    assert both.deadline(two) == Due(1, 100.0)
    assert both.deadlines() == {one: Due(1, 100.0), two: Due(1, 100.0)}
    assert both.stored_spec(RULES.version) == RULES


def test_an_id_naming_no_database_is_unknown_everywhere(both: PartitionedStore) -> None:
    for table_id in ("3-" + "c" * 16, "999-x"):
        with pytest.raises(NotFound):
            both.load_table(table_id)
        with pytest.raises(NotFound):
            both.append_move(table_id, 1, 0, DRAW, None, ACCEPTED)
        with pytest.raises(NotFound):
            both.version(table_id)
        assert both.moves_after(table_id, 0) == () and both.find_verdict(table_id, "m") is None


def listed_ids(store: Store, where: TableFilter, size: int) -> list[str]:
    """Every table `where` asks for, a page of `size` at a time, each page below the last."""
    seen: list[str] = []
    below = None
    while True:
        page = store.list_tables(where, below=below, limit=size)
        seen += [listed.table_id for listed in page]
        if len(page) < size:
            return seen
        below = page[-1].position


def test_the_lobby_pages_newest_first_across_both(both: PartitionedStore, urls: list[str]) -> None:
    made = [both.new_table_id() for _ in range(13)]
    for number, table_id in enumerate(made):  # one at a time: each newer than the one before
        both.create_table(table_id, {**SETUP, "game": "even" if number % 2 else "odd"}, TOKENS)
    newest_first = made[::-1]
    for size in (1, 2, 5, 13, 50):
        assert listed_ids(both, TableFilter(), size) == newest_first
    assert listed_ids(both, TableFilter(game="odd"), 2) == newest_first[::2]
    # tables created at the very same time: by database, then by serial, still each once
    for url in urls[:2]:
        with psycopg.connect(url) as db:
            db.execute("UPDATE tables SET created_at = '2026-01-01T00:00:00Z'")
    tied = listed_ids(both, TableFilter(), 50)
    assert sorted(tied) == sorted(made)
    for size in (1, 3, 4):
        assert listed_ids(both, TableFilter(), size) == tied


def test_a_page_token_of_the_partitioned_store_is_read_back(both: PartitionedStore) -> None:
    for table_id in (table_id_in(1, "1" * 16), table_id_in(2, "2" * 16)):
        both.create_table(table_id, SETUP, TOKENS)
    page = lobby.page(both, TableFilter(), None, 1)
    below = lobby.below(page.next_page_token, both.positions_below)
    assert below is not None and below >= 2**63  # beyond one database's: a page token holds it
    assert len(lobby.page(both, TableFilter(), below, 1).tables) == 1
    # the largest position a token may hold still reads as a time: every table is below it
    assert len(both.list_tables(TableFilter(), below=both.positions_below - 1, limit=5)) == 2
    with pytest.raises(InvalidArgument):  # one database's store takes no such position
        lobby.below(lobby.page_token(below))


def test_a_rules_version_is_kept_with_the_tables_that_play_it(
    both: PartitionedStore, urls: list[str]
) -> None:
    corrected = StoredSpec("9" * 64, "pontinho", "text of the old rules")
    both.create_table("2-" + "d" * 16, SETUP, TOKENS, corrected)
    both.close()
    again = open_databases(urls[:2], unsafe_durability=True)  # a restart
    try:
        assert again.stored_spec(corrected.version) == corrected
        first = PostgresStore(urls[0], unsafe_durability=True)
        assert first.stored_spec(corrected.version) is None  # the second database's alone
        first.close()
    finally:
        again.close()


def test_the_signing_key_is_the_first_database_s(both: PartitionedStore, urls: list[str]) -> None:
    key = both.signing_key("ab" * 32)
    first = PostgresStore(urls[0], unsafe_durability=True)
    try:
        assert first.signing_key("cd" * 32) == key
    finally:
        first.close()


def refusal(urls: list[str]) -> str:
    with pytest.raises(WrongPlace) as refused:
        open_databases(urls, unsafe_durability=True).close()
    return str(refused.value)


def test_databases_in_another_order_are_refused(urls: list[str]) -> None:
    open_databases(urls[:2], unsafe_durability=True).close()  # the first start: places kept
    said = refusal([urls[1], urls[0]])
    assert "is database 2 of its deployment, given as database 1" in said
    assert "give the --store databases in their first order" in said
    assert "is database 2 of its deployment, given as database 1" in refusal([urls[1]])  # alone
    open_databases(urls[:2], unsafe_durability=True).close()  # the first order still serves


def test_a_database_of_another_deployment_is_refused_and_nothing_is_written(
    urls: list[str], third: str, pg_server: str
) -> None:
    open_databases(urls[:2], unsafe_durability=True).close()  # deployment X
    with fresh_database(pg_server) as other_first, fresh_database(pg_server) as fresh:
        open_databases([other_first, third], unsafe_durability=True).close()  # deployment Y
        said = refusal([urls[0], third])  # Y's second database as X's second
        assert "belongs to another deployment than" in said
        assert "belongs to another deployment than" in refusal([fresh, third])
        alone = PostgresStore(fresh, unsafe_durability=True)
        assert alone.place() is None  # a refusal claims no database: `fresh` is free still
        alone.close()


def test_a_database_given_twice_is_refused(urls: list[str]) -> None:
    assert "is given twice" in refusal([urls[0], urls[1], urls[0]])
    spelt_otherwise = urls[0].replace("?", "?connect_timeout=5&")  # the same database
    assert "is database 1 already (the same database given twice" in refusal(
        [urls[0], spelt_otherwise]
    )


def test_a_database_added_at_the_end_takes_the_next_number(urls: list[str], third: str) -> None:
    single = open_databases(urls[:1], unsafe_durability=True)  # a deployment of one, as today
    assert isinstance(single, PostgresStore)
    single.create_table("e" * 16, SETUP, TOKENS)
    single.close()
    grown = open_databases([*urls, third], unsafe_durability=True)
    try:
        assert isinstance(grown, PartitionedStore)
        assert grown.load_table("e" * 16).version == 0  # today's id: the first database's
        places = [db.place() for db in grown.databases]
        assert [place.number for place in places if place] == [1, 2, 3]
        assert len({place.deployment for place in places if place}) == 1
    finally:
        grown.close()


def test_a_database_down_leaves_the_other_s_tables_playing(urls: list[str], pg_server: str) -> None:
    # a short wait for a connection: the second database's calls are UNAVAILABLE in 0.2 s
    both = PartitionedStore(
        [PostgresStore(url, unsafe_durability=True, pool_timeout=0.2) for url in urls[:2]]
    )
    try:
        down_and_back(both, urls, pg_server)
    finally:
        both.close()


class Deaf:
    """A follower that needs telling nothing: the test watches the listeners alone."""

    def moved(self, table_id: str, version: int, deadline: Due | Keep | None) -> None:
        pass

    def missed(self) -> None:
        pass


def heard_within(store: PostgresStore, heard: bool) -> None:
    give_up = time.monotonic() + 10
    while store.heard != heard:
        assert time.monotonic() < give_up, f"heard is still {store.heard}"
        time.sleep(0.05)


def down_and_back(both: PartitionedStore, urls: list[str], pg_server: str) -> None:
    one, two = "a" * 16, "2-" + "b" * 16
    assert both.follow(Deaf())
    for table_id in (one, two):
        both.create_table(table_id, SETUP, TOKENS, deadline=Due(1, 50.0))
    with psycopg.connect(pg_server, autocommit=True) as admin:  # the second one gone
        name = psycopg.conninfo.conninfo_to_dict(urls[1])["dbname"]
        admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
    try:
        with pytest.raises(StoreUnavailable):
            both.load_table(two)
        with pytest.raises(StoreUnavailable):
            both.append_move(two, 1, 1, DRAW, "m2", ACCEPTED)
        both.append_move(one, 1, 1, DRAW, "m1", ACCEPTED)  # the first one's keep playing
        assert both.load_table(one).version == 1
        assert both.deadlines() == {one: Due(1, 50.0)}  # the second's again once it is back
        with pytest.raises(StoreUnavailable):  # a page of the lobby is whole, or not given
            both.list_tables(TableFilter(), limit=10)
        heard_within(both.databases[1], False)  # its listener lost: new tables go elsewhere
        assert {number_of(both.new_table_id()) for _ in range(20)} == {1}
    finally:
        with psycopg.connect(pg_server, autocommit=True) as admin:
            admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
    back_by = time.monotonic() + 10  # the pool tries again a little later each time
    while True:
        try:
            assert both.load_table(two).version == 0  # back: nothing of it was lost
            break
        except StoreUnavailable:
            assert time.monotonic() < back_by
            time.sleep(0.1)
    heard_within(both.databases[1], True)  # heard again: it takes new tables again
    assert {number_of(both.new_table_id()) for _ in range(40)} == {1, 2}


def test_a_second_database_table_keeps_its_rules_after_a_correction_and_a_restart(
    urls: list[str], games: dict[str, Game], tmp_path: Path
) -> None:
    """The referee restarted with Pontoon's bet rule corrected: a table of database 2, created
    before, is judged by the rules it was created under, their text read from its database."""
    store = open_databases(urls[:2], unsafe_durability=True)
    first = RefereeService(store, games)
    made = [first.create_table("pontoon", seats=3)]
    while number_of(made[-1].table_id) != 2:  # placement is random: the first of database 2
        made.append(first.create_table("pontoon", seats=3))
    old = made[-1]
    first.close()
    store.close()
    corrected = load_games(corrected_specs(tmp_path / "specs"))
    store = open_databases(urls[:2], unsafe_durability=True)
    again = RefereeService(store, corrected)
    try:
        view = again.view(old.table_id, None)
        assert view.rules_version == rules_version(games["pontoon"])
        assert view.rules_version != rules_version(corrected["pontoon"])
        seat = int(view.view["to_act"])
        bet = Move.from_data({"type": "bet", "amount": ALLOWED_BEFORE_ONLY})
        assert again.propose(old.table_id, old.tokens[seat], bet).verdict.violations == ()
    finally:
        again.close()
        store.close()
    # the text is kept where its tables are: in database 1 only if one of them landed there
    for number, url in enumerate(urls[:2], 1):
        alone = PostgresStore(url, unsafe_durability=True)
        try:
            kept = alone.stored_spec(rules_version(games["pontoon"])) is not None
        finally:
            alone.close()
        assert kept == any(number_of(table.table_id) == number for table in made)
