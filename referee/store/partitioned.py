"""Tables partitioned across several PostgreSQL databases: each call goes to the database its
table lives in, and that database alone serves it.

A table is placed when it is created (`new_table_id`), in a database chosen at random among
those this process hears now (a database whose listening connection is lost is likely down: a
new table goes elsewhere), and its id says which: database 1's tables have today's id, 16 hex
digits, so a deployment that grows from one database keeps its tables; database n's are
`n-` and 16 hex digits (`2-3fa9c2d1e0b4a7f6`), one URL path segment still. Random placement
needs no query and no agreement between processes, and spreads many small tables evenly; a
database added later takes its share of the new tables, not the old ones (nothing moves).

Every call of a table, its writes, its deadline and its watchers' news (each database has its
own listener, `follow` follows them all) are that database's: while one is down its tables are
unavailable and the others' keep playing. What is not a table's is the union (`deadlines`,
`table_ids`, `unsummarised`), the lobby merged by creation time (`list_tables`: each position
is the time, the database's number and its serial, `position_of`), the signing key the first
database's, and a rules version's text kept in the database of each table that plays it.

Each database keeps its place (`Place`: its number, and the id of its deployment, made by the
first database) from the first time it serves as one: a list in another order, or a database of
another deployment, is refused at start-up (`check_places`); a database added at the end takes
the next number.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TypeVar

import structlog

from referee.errors import FailedPrecondition, RefereeError
from referee.store.base import (
    JSON,
    KEEP,
    NEW_TABLE,
    Due,
    Follower,
    Keep,
    Listed,
    Proposal,
    Snapshot,
    Store,
    StoredSpec,
    StoreUnavailable,
    Summary,
    TableFilter,
    TableRecord,
    Write,
    unknown_table,
)
from referee.store.postgres import TIMED, Place, PostgresStore, safe_url

log = structlog.get_logger("referee.store")

MOST_DATABASES = 64  # a position keeps the database's number in 7 bits
SERIAL_BITS = 63  # a position: microseconds, then the number, then the serial
NUMBER_BITS = 7
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
LAST_MICROSECOND = (datetime.max.replace(tzinfo=UTC) - EPOCH) // timedelta(microseconds=1)
Answer = TypeVar("Answer")


class WrongPlace(FailedPrecondition):
    """The databases are not the ones, or not in the order, the deployment first had."""

    code = "wrong_place"


def table_id_in(number: int, random_hex: str) -> str:
    """The id of a table of database `number` (1: the first, which marks none)."""
    return random_hex if number == 1 else f"{number}-{random_hex}"


def number_of(table_id: str) -> int:
    """The number of the database a table id names: `n-...`'s n, else 1 (today's ids); 0 for
    a mark too long to be one."""
    mark, dash, _ = table_id.partition("-")
    if not dash or not (mark.isascii() and mark.isdecimal()) or mark.startswith("0"):
        return 1
    return int(mark) if len(mark) <= 2 else 0


def position_of(timed: int, number: int) -> int:
    """A table's lobby position among several databases, from its database's timed position
    (`microseconds * TIMED + serial`): newer tables, then higher numbers, are higher."""
    micros, serial = divmod(timed, TIMED)
    return (micros << (NUMBER_BITS + SERIAL_BITS)) | (number << SERIAL_BITS) | serial


def below_in(position: int, number: int) -> tuple[datetime, int]:
    """What database `number` lists below `position`: its tables before the (time, serial)
    returned. A table of the same time is below the position in a lower-numbered database
    (all of them: the largest serial), in a higher-numbered one none (serials start at 1)."""
    micros = position >> (NUMBER_BITS + SERIAL_BITS)
    of = (position >> SERIAL_BITS) & ((1 << NUMBER_BITS) - 1)
    serial = position & ((1 << SERIAL_BITS) - 1)
    at = EPOCH + timedelta(microseconds=micros)
    if number < of:
        return at, TIMED - 1
    if number > of:
        return at, 0
    return at, serial


def places_problem(found: Sequence[Place | None], urls: Sequence[str]) -> str | None:
    """What is wrong with the databases `urls`, given the places they keep, or None."""
    for number, (place, url) in enumerate(zip(found, urls, strict=True), 1):
        if place is not None and place.number != number:
            return (
                f"the database `{safe_url(url)}` is database {place.number} of its deployment, "
                f"given as database {number}: give the --store databases in their first order"
            )
    first = found[0]
    for place, url in zip(found[1:], urls[1:], strict=True):
        if place is not None and (first is None or place.deployment != first.deployment):
            return (
                f"the database `{safe_url(url)}` belongs to another deployment than "
                f"`{safe_url(urls[0])}`: give the --store databases of one deployment"
            )
    return None


def check_places(stores: Sequence[PostgresStore]) -> None:
    """Refuse databases given in another order than the first time, or of another deployment
    (`WrongPlace`); give each database met for the first time its place. Nothing is written
    before every database is checked."""
    urls = [store.url for store in stores]
    problem = places_problem([store.place() for store in stores], urls)
    if problem is not None:
        raise WrongPlace(problem)
    deployment = secrets.token_hex(8)  # a new deployment's, unless its first database has one
    for number, store in enumerate(stores, 1):
        kept = store.claim_place(Place(deployment, number))
        deployment = kept.deployment if number == 1 else deployment
        if kept != Place(deployment, number):  # another process, starting, claimed it otherwise
            raise WrongPlace(
                f"the database `{safe_url(store.url)}` is database {kept.number} already (the "
                "same database given twice, or another process starting with another list)"
            )


def open_databases(urls: Sequence[str], *, unsafe_durability: bool = False) -> Store:
    """The store of the databases `urls`, each checked as one alone is (durable, migrated), and
    in its place (`check_places`): one database's own store, or a `PartitionedStore`."""
    if not 0 < len(urls) <= MOST_DATABASES:
        raise RefereeError(f"serve on 1 to {MOST_DATABASES} databases, not {len(urls)}")
    twice = next((url for n, url in enumerate(urls) if url in urls[:n]), None)
    if twice is not None:
        raise WrongPlace(f"the database `{safe_url(twice)}` is given twice")
    stores: list[PostgresStore] = []
    try:
        for url in urls:
            stores.append(PostgresStore(url, unsafe_durability=unsafe_durability))
        check_places(stores)
    except BaseException:
        for store in stores:
            store.close()
        raise
    return stores[0] if len(stores) == 1 else PartitionedStore(stores)


class PartitionedStore(Store):
    """Several PostgreSQL databases as one store: database n (1, 2, ...) is `databases[n-1]`."""

    positions_below = (LAST_MICROSECOND + 1) << (NUMBER_BITS + SERIAL_BITS)

    def __init__(self, databases: Sequence[PostgresStore]) -> None:
        self.databases = list(databases)

    def new_table_id(self) -> str:
        """A random database among those heard now (all, if none is), and a random id in it."""
        heard = [n for n, db in enumerate(self.databases, 1) if db.heard]
        number = random.choice(heard or range(1, len(self.databases) + 1))
        return table_id_in(number, secrets.token_hex(8))

    def _database(self, table_id: str) -> PostgresStore | None:
        """The database the table lives in; None if its id names none of them."""
        number = number_of(table_id)
        return self.databases[number - 1] if 0 < number <= len(self.databases) else None

    def _of(self, table_id: str) -> PostgresStore:
        database = self._database(table_id)
        if database is None:
            raise unknown_table(table_id)
        return database

    # -- a table's calls: its database's ---------------------------------------------------

    def create_table(
        self,
        table_id: str,
        setup: Mapping[str, JSON],
        token_hashes: Mapping[int, str],
        spec: StoredSpec | None = None,
        deadline: Due | None = None,
        summary: Summary = NEW_TABLE,
    ) -> None:
        database = self._database(table_id)
        if database is None:
            raise RefereeError(f"the table id `{table_id}` names none of the databases")
        database.create_table(table_id, setup, token_hashes, spec, deadline, summary)

    def load_table(self, table_id: str, *, after_snapshot: bool = False) -> TableRecord:
        return self._of(table_id).load_table(table_id, after_snapshot=after_snapshot)

    def append_move(
        self,
        table_id: str,
        seq: int,
        seat: int,
        move: Mapping[str, JSON],
        move_id: str | None,
        verdict: Mapping[str, JSON],
        *,
        deadline: Due | Keep | None = KEEP,
        snapshot: Snapshot | None = None,
        summary: Summary | Keep = KEEP,
        seat_token: tuple[int, str] | None = None,
    ) -> None:
        self._of(table_id).append_move(
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

    def record_rejection(
        self,
        table_id: str,
        seat: int,
        move: Mapping[str, JSON],
        move_id: str,
        verdict: Mapping[str, JSON],
    ) -> None:
        self._of(table_id).record_rejection(table_id, seat, move, move_id, verdict)

    def submit(self, write: Write) -> Future[None]:
        database = self._database(write.table_id)
        if database is None:
            failed: Future[None] = Future()
            failed.set_exception(unknown_table(write.table_id))
            return failed
        return database.submit(write)  # its own writer: each database commits its own groups

    def moves_after(self, table_id: str, version: int) -> tuple[Proposal, ...]:
        database = self._database(table_id)
        return () if database is None else database.moves_after(table_id, version)

    def moves_between(self, table_id: str, after: int, last: int) -> tuple[Proposal, ...]:
        database = self._database(table_id)
        return () if database is None else database.moves_between(table_id, after, last)

    def snapshot_before(self, table_id: str, version: int) -> Snapshot | None:
        database = self._database(table_id)
        return None if database is None else database.snapshot_before(table_id, version)

    def find_verdict(self, table_id: str, move_id: str) -> Proposal | None:
        database = self._database(table_id)
        return None if database is None else database.find_verdict(table_id, move_id)

    def version(self, table_id: str) -> int:
        return self._of(table_id).version(table_id)

    def set_summary(self, table_id: str, summary: Summary) -> None:
        database = self._database(table_id)
        if database is not None:
            database.set_summary(table_id, summary)

    def deadline(self, table_id: str) -> Due | None:
        return self._of(table_id).deadline(table_id)

    # -- what is no one table's ------------------------------------------------------------

    def stored_spec(self, version: str) -> StoredSpec | None:
        """Kept in the database of each table that plays it: the first that has it."""
        return self._first(lambda database: database.stored_spec(version))

    def signing_key(self, new: str) -> str:
        return self.databases[0].signing_key(new)  # the first database's, kept from the first

    def deadlines(self) -> dict[str, Due]:
        """Those of the databases reachable now: a database back up is checked anew then (its
        listener tells the follower it `missed` some)."""
        pending: dict[str, Due] = {}
        for found in self._each_reachable(lambda database: database.deadlines()):
            pending.update(found)
        return pending

    def unsummarised(self, limit: int) -> list[str]:
        waiting: list[str] = []
        for found in self._each_reachable(lambda database: database.unsummarised(limit)):
            waiting.extend(found)
        return waiting[:limit]

    def table_ids(self) -> list[str]:
        """Every table: the first database's, oldest first, then the second's..."""
        return [table_id for database in self.databases for table_id in database.table_ids()]

    def list_tables(
        self, where: TableFilter, *, below: int | None = None, limit: int
    ) -> list[Listed]:
        """Each database's newest `limit` below `below`, merged by creation time: a page is
        whole or UNAVAILABLE while a database is down (a partial one would skip its tables)."""
        merged: list[Listed] = []
        for number, database in enumerate(self.databases, 1):
            since = None if below is None else below_in(below, number)
            for listed in database.list_tables_by_time(where, below=since, limit=limit):
                merged.append(_placed(listed, number))
        merged.sort(key=lambda listed: listed.position, reverse=True)
        return merged[:limit]

    def follow(self, follower: Follower) -> bool:
        for database in self.databases:  # a listener each: LISTEN/NOTIFY is per database
            database.follow(follower)
        return True

    def close(self) -> None:
        for database in self.databases:
            database.close()

    def _first(self, read: Callable[[PostgresStore], Answer | None]) -> Answer | None:
        """What the first database that has it answers; StoreUnavailable if none has it and
        one could not be asked."""
        unreachable: StoreUnavailable | None = None
        for database in self.databases:
            try:
                found = read(database)
            except StoreUnavailable as error:
                unreachable = error
                continue
            if found is not None:
                return found
        if unreachable is not None:
            raise unreachable
        return None

    def _each_reachable(self, read: Callable[[PostgresStore], Answer]) -> list[Answer]:
        """What each database answers, the unreachable ones left out (logged); StoreUnavailable
        if none is reachable."""
        answers: list[Answer] = []
        for database in self.databases:
            try:
                answers.append(read(database))
            except StoreUnavailable as error:
                log.warning("store_database_unavailable", error=str(error))
        if not answers:
            raise StoreUnavailable("none of the databases is reachable: try again")
        return answers


def _placed(listed: Listed, number: int) -> Listed:
    """`listed` of database `number`, its position among the databases'."""
    return replace(listed, position=position_of(listed.position, number))
