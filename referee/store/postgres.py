"""The shared store: one PostgreSQL database for several referee processes.

Each call takes a connection from a pool (psycopg_pool), runs in its own transaction and commits
before it returns: with `fsync` and `synchronous_commit` on (checked at start-up, `durability`),
an accepted move is on the database's disk before its verdict is sent. Accepted moves and
remembered rejections go to one writer thread (`referee.store.writer`), which commits whatever
was queued in one transaction, each write under a savepoint of its own (one that fails is undone
alone), one commit making them all durable. A move is inserted only
where its table is at the version before it, in one statement: of two processes appending the
same move number, the second waits on the (table, seq) unique key and gets `StoreConflict`.

A database that cannot be reached (down, restarting, a connection cut) is `StoreUnavailable`,
which clients get as UNAVAILABLE: they retry, by `move_id`, and get the first verdict if the move
was committed before the connection was lost.

Every move is also announced on the channel `referee_moves` (NOTIFY, sent when its transaction
commits): each process listens on a connection of its own (`follow`), so its watchers see moves
made through the others, and it learns of the deadlines they set. A process that was not
listening (a connection lost, now back) is told it may have missed some (`Follower.missed`).

The schema is versioned in a one-row `schema_version` table: each entry of `MIGRATIONS` moves the
database one version up, in one transaction, under an advisory lock (processes starting together
migrate one after the other).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from referee.errors import RefereeError
from referee.store import codec, rows
from referee.store.base import (
    JSON,
    NEW_TABLE,
    Due,
    Follower,
    Listed,
    Proposal,
    Snapshot,
    StoreConflict,
    StoredSpec,
    StoreUnavailable,
    Summary,
    TableFilter,
    TableRecord,
    Write,
    unknown_table,
)
from referee.store.durability import check_durable
from referee.store.listening import CHANNEL, Listener, announcement
from referee.store.writer import GroupWriter, GroupWrittenStore

MIGRATIONS: tuple[str, ...] = (
    # version 1: as SQLite's version 1, JSON kept as text (codec.py: what comes back is what went in)
    """
    CREATE TABLE tables (
        id          TEXT PRIMARY KEY,
        game        TEXT NOT NULL,
        setup       TEXT NOT NULL,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        created     BIGSERIAL NOT NULL
    );
    CREATE TABLE seat_tokens (
        table_id      TEXT NOT NULL REFERENCES tables(id),
        seat          INTEGER NOT NULL,
        token_sha256  TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE proposals (
        table_id    TEXT NOT NULL REFERENCES tables(id),
        seq         INTEGER,
        move_id     TEXT,
        seat        INTEGER NOT NULL,
        move        TEXT NOT NULL,
        verdict     TEXT NOT NULL,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        CHECK (seq IS NOT NULL OR move_id IS NOT NULL),
        UNIQUE (table_id, seq),
        UNIQUE (table_id, move_id)
    );
    """,
    # version 2: each table's pending deadline (a claim window's), set with the move that opened it
    """
    ALTER TABLE tables ADD COLUMN deadline_number INTEGER;
    ALTER TABLE tables ADD COLUMN deadline_at DOUBLE PRECISION;
    CREATE INDEX tables_by_deadline ON tables (deadline_at) WHERE deadline_at IS NOT NULL;
    """,
    # version 3: each table's latest snapshot (a cache of the log's fold: referee.engine.snapshot)
    """
    CREATE TABLE snapshots (
        table_id    TEXT PRIMARY KEY REFERENCES tables(id),
        version     INTEGER NOT NULL,
        data        TEXT NOT NULL
    );
    """,
    # version 4: rules versions: each spec's text once, by its hash, and the one a table plays
    """
    CREATE TABLE specs (
        sha256      TEXT PRIMARY KEY,
        game        TEXT NOT NULL,
        text        TEXT NOT NULL,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    ALTER TABLE tables ADD COLUMN spec_sha256 TEXT REFERENCES specs(sha256);
    """,
    # version 5: the referee's signing key (one row), made by the first process to start
    """
    CREATE TABLE signing_key (
        one         INTEGER PRIMARY KEY CHECK (one = 1),
        seed        TEXT NOT NULL,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    """,
    # version 6: every snapshot of a table, not its latest alone (as SQLite's version 6)
    """
    ALTER TABLE snapshots DROP CONSTRAINT snapshots_pkey;
    ALTER TABLE snapshots ADD PRIMARY KEY (table_id, version);
    """,
    # version 7: the lobby's summary of each table (as SQLite's version 7), listed newest first
    """
    ALTER TABLE tables ADD COLUMN game_over INTEGER;
    ALTER TABLE tables ADD COLUMN open_disputes TEXT;
    CREATE INDEX tables_unsummarised ON tables (id) WHERE game_over IS NULL;
    CREATE INDEX tables_by_creation ON tables (created);
    """,
    # version 8: the database's place among several (`referee.store.partitioned`), written the
    # first time it serves as one of them; their lobby lists tables by creation time
    """
    CREATE TABLE deployment (
        one         INTEGER PRIMARY KEY CHECK (one = 1),
        id          TEXT NOT NULL,
        number      INTEGER NOT NULL,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE INDEX tables_by_creation_time ON tables (created_at, created);
    """,
)

# a table's place in time among several databases' (`referee.store.partitioned`): when it was
# created, in microseconds since the epoch, then its serial, as one number (`TIMED_POSITION`)
TIMED = 2**63  # serials are below it (BIGSERIAL)
TIMED_POSITION = (
    f"(EXTRACT(EPOCH FROM t.created_at) * 1000000)::numeric(30, 0) * {TIMED} + t.created"
)

# the table's latest snapshot at a version or before it
SNAPSHOT_BEFORE = (
    "SELECT version, data FROM snapshots WHERE table_id = %s AND version <= %s "
    "ORDER BY version DESC LIMIT 1"
)

MIGRATION_LOCK = 0x7265_6665  # pg_advisory_xact_lock key of the migrations ("refe")
CONNECT_TIMEOUT_S = 5  # a database that does not answer is unavailable, not waited for
# longest wait for a pooled connection before the call is UNAVAILABLE: a database restarting in
# less is not noticed by clients, one down for longer is said so rather than waited for
POOL_TIMEOUT_S = 2.0
POOL_SIZE = 8  # connections per referee process (its worker threads share them)
# what psycopg raises when the database is down or the connection was cut: the database is
# unavailable, the call may be retried (a SQL error of ours is not among them: it stays a bug)
UNREACHABLE = (psycopg.OperationalError, psycopg.InterfaceError, psycopg_pool.PoolTimeout)


@dataclass(frozen=True)
class Place:
    """A database's place among several: database `number` (1: the first) of the deployment
    whose first database made the id `deployment`."""

    deployment: str
    number: int


class PostgresStore(GroupWrittenStore):
    def __init__(
        self,
        url: str,
        *,
        unsafe_durability: bool = False,
        pool_size: int = POOL_SIZE,
        pool_timeout: float = POOL_TIMEOUT_S,
    ) -> None:
        problem = url_problem(url)
        if problem is not None:
            raise RefereeError(f"cannot read the database URL: {problem}")
        self.url = url
        self.instance = secrets.token_hex(6)  # names this process's announcements
        self._listeners: list[Listener] = []
        with _reachable(url):
            with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S) as db:
                if not unsafe_durability:
                    check_durable(_setting(db, "fsync"), _setting(db, "synchronous_commit"))
                migrate(db)
            self._pool = psycopg_pool.ConnectionPool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=pool_timeout,
                kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S},
                # a connection left broken by a database restart is replaced, not handed out
                check=psycopg_pool.ConnectionPool.check_connection,
                open=False,
            )
            self._pool.open(wait=True, timeout=pool_timeout)
        self._writer = GroupWriter(self._write_group, "postgres-writer")

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        with _reachable(self.url), self._pool.connection() as db:
            yield db

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """One transaction, committed when the block ends (and before the caller returns)."""
        with self._connection() as db, db.transaction():
            yield db

    def create_table(
        self,
        table_id: str,
        setup: Mapping[str, JSON],
        token_hashes: Mapping[int, str],
        spec: StoredSpec | None = None,
        deadline: Due | None = None,
        summary: Summary = NEW_TABLE,
    ) -> None:
        with self._transaction() as db:
            if spec is not None:  # kept once: the first table of a version writes its text
                db.execute(
                    "INSERT INTO specs (sha256, game, text) VALUES (%s, %s, %s) "
                    "ON CONFLICT (sha256) DO NOTHING",
                    (spec.version, spec.game, spec.text),
                )
            try:
                db.execute(
                    "INSERT INTO tables (id, game, setup, spec_sha256, deadline_number, "
                    "deadline_at, game_over, open_disputes) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (
                        table_id,
                        str(setup.get("game", "")),
                        codec.encode(setup),
                        None if spec is None else spec.version,
                        *rows.due_columns(deadline),
                        *rows.summary_columns(summary),
                    ),
                )
            except pg_errors.UniqueViolation as error:
                raise StoreConflict(f"table `{table_id}` already exists") from error
            db.cursor().executemany(
                "INSERT INTO seat_tokens (table_id, seat, token_sha256) VALUES (%s, %s, %s)",
                [(table_id, seat, digest) for seat, digest in token_hashes.items()],
            )

    def load_table(self, table_id: str, *, after_snapshot: bool = False) -> TableRecord:
        with self._transaction() as db:  # one snapshot: the set-up and moves of one moment
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            row = db.execute(
                "SELECT setup, deadline_number, deadline_at, spec_sha256 FROM tables WHERE id = %s",
                (table_id,),
            ).fetchone()
            if row is None:
                raise unknown_table(table_id)
            tokens = db.execute(
                "SELECT seat, token_sha256 FROM seat_tokens WHERE table_id = %s", (table_id,)
            ).fetchall()
            snapshot = (
                db.execute(SNAPSHOT_BEFORE, (table_id, rows.LATEST)).fetchone()
                if after_snapshot
                else None
            )
            moves = db.execute(
                f"SELECT {rows.PROPOSAL_COLUMNS} FROM proposals "
                "WHERE table_id = %s AND seq > %s ORDER BY seq",
                (table_id, rows.skipped_before(snapshot)),
            ).fetchall()
        return rows.table_record(table_id, row[0], tokens, moves, row[1:3], snapshot, row[3])

    def stored_spec(self, version: str) -> StoredSpec | None:
        with self._connection() as db:
            row = db.execute(
                "SELECT sha256, game, text FROM specs WHERE sha256 = %s", (version,)
            ).fetchone()
        return rows.stored_spec(row)

    def signing_key(self, new: str) -> str:
        with self._transaction() as db:  # two processes starting at once: one row, both read it
            db.execute(
                "INSERT INTO signing_key (one, seed) VALUES (1, %s) ON CONFLICT (one) DO NOTHING",
                (new,),
            )
            row = db.execute("SELECT seed FROM signing_key").fetchone()
        if row is None:  # inserted, or there already, in this very transaction
            raise RefereeError("the database keeps no signing key")
        return str(row[0])

    def moves_after(self, table_id: str, version: int) -> tuple[Proposal, ...]:
        with self._connection() as db:
            found = db.execute(
                f"SELECT {rows.PROPOSAL_COLUMNS} FROM proposals "
                "WHERE table_id = %s AND seq > %s ORDER BY seq",
                (table_id, version),
            ).fetchall()
        return tuple(map(rows.proposal, found))

    def moves_between(self, table_id: str, after: int, last: int) -> tuple[Proposal, ...]:
        with self._connection() as db:
            found = db.execute(
                f"SELECT {rows.PROPOSAL_COLUMNS} FROM proposals "
                "WHERE table_id = %s AND seq > %s AND seq <= %s ORDER BY seq",
                (table_id, after, last),
            ).fetchall()
        return tuple(map(rows.proposal, found))

    def snapshot_before(self, table_id: str, version: int) -> Snapshot | None:
        with self._connection() as db:
            row = db.execute(SNAPSHOT_BEFORE, (table_id, version)).fetchone()
        return rows.snapshot_of(row)

    def _write_group(self, writes: Sequence[Write]) -> list[BaseException | None]:
        """The writer's: every write in one transaction on one connection, each undone alone
        if it fails (a savepoint), and one commit for them all. A write alone in its group
        takes no savepoint (two round trips fewer): its error fails the group, itself."""
        with self._transaction() as db:
            if len(writes) == 1:
                _write(db, self.instance, writes[0])
                return [None]
            return [_written(db, self.instance, write) for write in writes]

    def find_verdict(self, table_id: str, move_id: str) -> Proposal | None:
        with self._connection() as db:
            row = db.execute(
                f"SELECT {rows.PROPOSAL_COLUMNS} FROM proposals "
                "WHERE table_id = %s AND move_id = %s",
                (table_id, move_id),
            ).fetchone()
        return rows.proposal(row) if row else None

    def version(self, table_id: str) -> int:
        with self._connection() as db:
            return _version(db, table_id)

    def table_ids(self) -> list[str]:
        with self._connection() as db:
            found = db.execute("SELECT id FROM tables ORDER BY created").fetchall()
        return [r[0] for r in found]

    def list_tables(
        self, where: TableFilter, *, below: int | None = None, limit: int
    ) -> list[Listed]:
        conditions, values = rows.filter_conditions(where, "%s")
        if below is not None:
            conditions.append("t.created < %s")
            values.append(below)
        columns = rows.LISTED_COLUMNS.format(version=rows.VERSION_OF_ROW, position="t.created")
        holding = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        with self._connection() as db:
            found = db.execute(
                f"SELECT {columns} FROM tables t{holding} ORDER BY t.created DESC LIMIT %s",
                (*values, limit),
            ).fetchall()
        return [rows.listed(row) for row in found]

    def list_tables_by_time(
        self, where: TableFilter, *, below: tuple[datetime, int] | None = None, limit: int
    ) -> list[Listed]:
        """As `list_tables`, but by creation time (then serial: `TIMED_POSITION`, each position
        `microseconds * TIMED + serial`), from the newest below (time, serial) `below`: the
        order in which the tables of several databases merge."""
        conditions, values = rows.filter_conditions(where, "%s")
        if below is not None:
            conditions.append("(t.created_at, t.created) < (%s, %s)")
            values.extend(below)
        columns = rows.LISTED_COLUMNS.format(version=rows.VERSION_OF_ROW, position=TIMED_POSITION)
        holding = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        with self._connection() as db:
            found = db.execute(
                f"SELECT {columns} FROM tables t{holding} "
                "ORDER BY t.created_at DESC, t.created DESC LIMIT %s",
                (*values, limit),
            ).fetchall()
        return [rows.listed(row) for row in found]

    def unsummarised(self, limit: int) -> list[str]:
        with self._connection() as db:
            found = db.execute(
                "SELECT id FROM tables WHERE game_over IS NULL LIMIT %s", (limit,)
            ).fetchall()
        return [str(row[0]) for row in found]

    def set_summary(self, table_id: str, summary: Summary) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE tables SET game_over = %s, open_disputes = %s WHERE id = %s AND game_over IS NULL",
                (*rows.summary_columns(summary), table_id),
            )

    def deadlines(self) -> dict[str, Due]:
        with self._connection() as db:
            found = db.execute(
                "SELECT id, deadline_number, deadline_at FROM tables WHERE deadline_at IS NOT NULL"
            ).fetchall()
        return {table_id: Due(int(number), float(at)) for table_id, number, at in found}

    def deadline(self, table_id: str) -> Due | None:
        with self._connection() as db:
            row = db.execute(
                "SELECT deadline_number, deadline_at FROM tables WHERE id = %s", (table_id,)
            ).fetchone()
        if row is None:
            raise unknown_table(table_id)
        return rows.due(row)

    def place(self) -> Place | None:
        """Which database of which deployment this one is, if it has served as one."""
        with self._connection() as db:
            row = db.execute("SELECT id, number FROM deployment").fetchone()
        return None if row is None else Place(str(row[0]), int(row[1]))

    def claim_place(self, place: Place) -> Place:
        """Keep `place` as this database's, unless it has one already: the one it keeps."""
        with self._transaction() as db:  # as the migrations: processes starting together
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            db.execute(
                "INSERT INTO deployment (one, id, number) VALUES (1, %s, %s) "
                "ON CONFLICT (one) DO NOTHING",
                (place.deployment, place.number),
            )
            row = db.execute("SELECT id, number FROM deployment").fetchone()
        if row is None:  # inserted, or there already, in this very transaction
            raise RefereeError("the database keeps no place")
        return Place(str(row[0]), int(row[1]))

    @property
    def heard(self) -> bool:
        """Whether this process hears the database now (its listening connection holds): a
        database not heard is likely down. True while nothing listens (no `follow`)."""
        return all(listener.listening.is_set() for listener in self._listeners)

    def follow(self, follower: Follower) -> bool:
        listener = Listener(self.url, self.instance, follower, connect_timeout=CONNECT_TIMEOUT_S)
        self._listeners.append(listener)
        listener.start()
        # a process serves once it hears the others (else it keeps trying, in the background)
        listener.listening.wait(CONNECT_TIMEOUT_S)
        return True

    def close(self) -> None:
        self._writer.close()  # what was queued is committed first
        for listener in self._listeners:
            listener.stop()
        self._pool.close()


def migrate(db: psycopg.Connection[Any]) -> None:
    """Bring the database's schema to `len(MIGRATIONS)`; refuse a newer one."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = db.execute("SELECT version FROM schema_version").fetchone()
        current = 0 if row is None else int(row[0])
        if current > len(MIGRATIONS):
            raise RefereeError(
                f"the database has schema version {current}, newer than this "
                f"referee's {len(MIGRATIONS)}: upgrade the referee"
            )
        for script in MIGRATIONS[current:]:
            db.execute(script)  # several statements: psycopg sends a query without parameters whole
        if row is None:
            db.execute("INSERT INTO schema_version (version) VALUES (%s)", (len(MIGRATIONS),))
        else:
            db.execute("UPDATE schema_version SET version = %s", (len(MIGRATIONS),))


@contextmanager
def _reachable(url: str) -> Iterator[None]:
    """Turn a database that cannot be reached into `StoreUnavailable`, said in one line."""
    try:
        yield
    except UNREACHABLE as problem:
        reason = str(problem).strip().splitlines()[0] if str(problem).strip() else "no answer"
        raise StoreUnavailable(
            f"the database `{safe_url(url)}` is unavailable: {reason}: try again"
        ) from problem


def url_problem(url: str) -> str | None:
    """What libpq cannot read in `url` (an unknown parameter, a broken address), or None."""
    try:
        psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as problem:
        return str(problem).strip().splitlines()[0]
    return None


def safe_url(url: str) -> str:
    """`url` without its password, to be logged and shown."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    shown = {k: v for k, v in info.items() if k != "password" and v not in (None, "")}
    return " ".join(f"{k}={v}" for k, v in sorted(shown.items()))


def _setting(db: psycopg.Connection[Any], name: str) -> str:
    row = db.execute(f"SHOW {name}").fetchone()  # a name of ours: SHOW takes no parameter
    return str(row[0]) if row else ""


def _version(db: psycopg.Connection[Any], table_id: str) -> int:
    row = db.execute(
        "SELECT (SELECT MAX(seq) FROM proposals WHERE table_id = t.id) "
        "FROM tables t WHERE t.id = %s",
        (table_id,),
    ).fetchone()
    if row is None:
        raise unknown_table(table_id)
    return int(row[0] or 0)


def _written(db: psycopg.Connection[Any], instance: str, write: Write) -> BaseException | None:
    """`write` in the open transaction, or its error, the write undone alone (a savepoint): the
    other writes of the group stay in it."""
    try:
        with db.transaction():
            _write(db, instance, write)
    except UNREACHABLE:  # the connection is gone: the group fails whole
        raise
    except Exception as error:  # noqa: BLE001 - this write's own failure, told to its caller
        return error
    return None


def _write(db: psycopg.Connection[Any], instance: str, write: Write) -> None:
    _insert(db, write.table_id, write.seq, write.seat, write.move, write.move_id, write.verdict)
    if write.seq is None:
        return
    for statement, parameters in rows.changes(write, "%s"):
        db.execute(statement, parameters)
    # sent when the transaction commits, not before: nobody hears of an undone move
    db.execute(
        "SELECT pg_notify(%s, %s)",
        (CHANNEL, announcement(instance, write.table_id, write.seq, write.deadline)),
    )


def _insert(
    db: psycopg.Connection[Any],
    table_id: str,
    seq: int | None,
    seat: int,
    move: Mapping[str, JSON],
    move_id: str | None,
    verdict: Mapping[str, JSON],
) -> None:
    """Insert a proposal: accepted move `seq` only where its table is at `seq - 1`, a rejection
    (`seq` None) by its move id. One statement, with nothing read or locked first: of two
    writers of one move number, the second waits on the (table, seq) unique key and fails."""
    at_version = (
        ""
        if seq is None
        else " AND (SELECT COALESCE(MAX(seq), 0) FROM proposals WHERE table_id = t.id) = %s"
    )
    values = (table_id, seq, move_id, seat, codec.encode(move), codec.encode(verdict))
    try:
        inserted = db.execute(
            "INSERT INTO proposals (table_id, seq, move_id, seat, move, verdict)"
            f" SELECT %s, %s, %s, %s, %s, %s FROM tables t WHERE t.id = %s{at_version} RETURNING seat",
            (*values, table_id, *(() if seq is None else (seq - 1,))),
        ).fetchone()
    except pg_errors.UniqueViolation as error:  # a race lost, or the move id taken
        raise StoreConflict(
            f"move {seq} or move id `{move_id}` of table `{table_id}` is taken"
        ) from error
    if inserted is None:  # the table is unknown, or at another version
        version = _version(db, table_id)  # NotFound for an unknown table
        raise StoreConflict(f"table `{table_id}` is at version {version}: move {seq} is not next")
