"""The default store: one SQLite file, WAL journal, `synchronous=FULL`.

With `synchronous=FULL` a commit returns only once the write-ahead log is synced to disk, so an
accepted move survives `kill -9` and power loss; the service sends the verdict after the commit.
SQLite has a single writer anyway, and the cost of a move is the sync, not the SQL. So accepted
moves, and rejections remembered by move id, go to one writer thread with a connection of its own
(`referee.store.writer`): it commits whatever was queued as one group, one sync making every
write in it durable before any of their verdicts is sent (`append_move` and `record_rejection`
return, and `submit`'s future is done, only once their group is committed). Everything else
(reads, a new table) uses the other connection, guarded by a lock: in WAL a read does not wait
for the writer's sync. Several stores may open the same file (the busy timeout makes them take
turns); the unique keys turn a race on one table into `StoreConflict` for the loser. `referee
serve` lets one process serve a file (`referee.store.sqlite_claim`): two would starve each other.

The schema is versioned with `PRAGMA user_version`: each entry of `MIGRATIONS` moves the file one
version up, inside a transaction.

`synchronous` and `connect` are there for the durability tests (tests/harden/test_power_loss.py):
they run this store's own statements through a file layer that can cut the power, with FULL and
with NORMAL, which loses the last commits; the referee always serves with FULL.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from referee.errors import RefereeError
from referee.store import codec, rows
from referee.store.base import (
    JSON,
    NEW_TABLE,
    Due,
    Listed,
    Proposal,
    Snapshot,
    StoreConflict,
    StoredSpec,
    Summary,
    TableFilter,
    TableRecord,
    Write,
    unknown_table,
)
from referee.store.writer import GroupWriter, GroupWrittenStore

MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE tables (
        id          TEXT PRIMARY KEY,
        game        TEXT NOT NULL,
        setup       TEXT NOT NULL,        -- TableSetup.to_data(), JSON
        created_at  TEXT NOT NULL
    );
    CREATE TABLE seat_tokens (
        table_id      TEXT NOT NULL REFERENCES tables(id),
        seat          INTEGER NOT NULL,
        token_sha256  TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    -- accepted moves (seq = 1, 2, 3 ...) and rejections remembered by move id (seq NULL)
    CREATE TABLE proposals (
        table_id    TEXT NOT NULL REFERENCES tables(id),
        seq         INTEGER,
        move_id     TEXT,
        seat        INTEGER NOT NULL,
        move        TEXT NOT NULL,        -- Move.to_data(), JSON
        verdict     TEXT NOT NULL,        -- Verdict.to_data(), JSON, with every secret
        created_at  TEXT NOT NULL,
        CHECK (seq IS NOT NULL OR move_id IS NOT NULL),
        UNIQUE (table_id, seq),
        UNIQUE (table_id, move_id)
    );
    """,
    # version 2: each table's pending deadline (a claim window's), set with the move that opened it
    """
    ALTER TABLE tables ADD COLUMN deadline_number INTEGER;
    ALTER TABLE tables ADD COLUMN deadline_at REAL;        -- seconds since the epoch
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
        sha256      TEXT PRIMARY KEY,     -- referee.engine.versions.rules_version
        game        TEXT NOT NULL,
        text        TEXT NOT NULL,        -- referee.spec.source.SpecSource, JSON
        created_at  TEXT NOT NULL
    );
    -- NULL: a table created before rules versions (served under the spec loaded now)
    ALTER TABLE tables ADD COLUMN spec_sha256 TEXT REFERENCES specs(sha256);
    """,
    # version 5: the referee's signing key (one row), made on first start (referee.records)
    """
    CREATE TABLE signing_key (
        one         INTEGER PRIMARY KEY CHECK (one = 1),
        seed        TEXT NOT NULL,        -- Ed25519 private key seed, hex
        created_at  TEXT NOT NULL
    );
    """,
    # version 6: every snapshot of a table, not its latest alone: a past version is restored
    # from the one at or before it (Explain), the latest kept as it was
    """
    CREATE TABLE every_snapshot (
        table_id    TEXT NOT NULL REFERENCES tables(id),
        version     INTEGER NOT NULL,
        data        TEXT NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    INSERT INTO every_snapshot (table_id, version, data)
        SELECT table_id, version, data FROM snapshots;
    DROP TABLE snapshots;
    ALTER TABLE every_snapshot RENAME TO snapshots;
    """,
    # version 7: the lobby's summary of each table (ListTables), written with the moves that
    # change it; NULL in a table from before it, until its next move or the service fills it in
    """
    ALTER TABLE tables ADD COLUMN game_over INTEGER;      -- 1: the game is over, 0: in play
    ALTER TABLE tables ADD COLUMN open_disputes TEXT;     -- their numbers, `3,5`; '': none
    CREATE INDEX tables_unsummarised ON tables (id) WHERE game_over IS NULL;
    """,
)

# the table's latest snapshot at a version or before it
SNAPSHOT_BEFORE = (
    "SELECT version, data FROM snapshots WHERE table_id = ? AND version <= ? "
    "ORDER BY version DESC LIMIT 1"
)

BUSY_TIMEOUT_S = 10.0
# `PRAGMA synchronous` levels that sync the write-ahead log at every commit (FULL), or only at a
# checkpoint (NORMAL: a commit survives `kill -9` but not a power cut)
SYNCHRONOUS_LEVELS = ("FULL", "EXTRA", "NORMAL")


class Rows(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """What the store uses of a `sqlite3.Connection` in autocommit mode (raising sqlite3's
    errors)."""

    @property
    def in_transaction(self) -> bool: ...
    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Rows: ...
    def executemany(self, sql: str, parameters: Any, /) -> Any: ...
    def close(self) -> None: ...


def open_sqlite3(path: Path) -> Connection:
    # autocommit mode (isolation_level=None): transactions are explicit, see `_transaction`
    return sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )


class SqliteStore(GroupWrittenStore):
    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: str = "FULL",
        connect: Callable[[Path], Connection] = open_sqlite3,
    ) -> None:
        if synchronous not in SYNCHRONOUS_LEVELS:
            raise RefereeError(f"unknown synchronous level `{synchronous}`")
        self.path = Path(path)
        self.synchronous = synchronous
        self._lock = threading.Lock()  # guards `_db`, the connection of reads
        # told each commit's duration in seconds (the metrics, `referee.service.metrics`)
        self.on_commit: Callable[[float], None] = _ignore
        self._db = connect(self.path)
        _configure(self._db, self.path, synchronous)
        self._migrate()
        self._writes = connect(self.path)  # the writer thread's own
        _configure(self._writes, self.path, synchronous)
        self._writer = GroupWriter(self._write_group, f"sqlite-writer:{self.path.name}")

    def _migrate(self) -> None:
        with self._transaction() as db:
            current = db.execute("PRAGMA user_version").fetchone()[0]
            if current > len(MIGRATIONS):
                raise RefereeError(
                    f"`{self.path}` has schema version {current}, newer than this "
                    f"referee's {len(MIGRATIONS)}: upgrade the referee"
                )
            for version, script in enumerate(MIGRATIONS[current:], start=current + 1):
                for statement in _statements(script):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version={version}")  # a pragma cannot take a parameter

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """One write transaction; IMMEDIATE takes the write lock up front (no upgrade deadlock)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._commit(self._db)

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
                    "INSERT INTO specs (sha256, game, text, created_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (sha256) DO NOTHING",
                    (spec.version, spec.game, spec.text, _now()),
                )
            try:
                db.execute(
                    "INSERT INTO tables (id, game, setup, created_at, spec_sha256, "
                    "deadline_number, deadline_at, game_over, open_disputes) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table_id,
                        str(setup.get("game", "")),
                        codec.encode(setup),
                        _now(),
                        None if spec is None else spec.version,
                        *rows.due_columns(deadline),
                        *rows.summary_columns(summary),
                    ),
                )
            except sqlite3.IntegrityError as error:
                raise StoreConflict(f"table `{table_id}` already exists") from error
            db.executemany(
                "INSERT INTO seat_tokens (table_id, seat, token_sha256) VALUES (?, ?, ?)",
                [(table_id, seat, digest) for seat, digest in token_hashes.items()],
            )

    def load_table(self, table_id: str, *, after_snapshot: bool = False) -> TableRecord:
        with self._lock:
            row = self._db.execute(
                "SELECT setup, deadline_number, deadline_at, spec_sha256 FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                raise unknown_table(table_id)
            tokens = self._db.execute(
                "SELECT seat, token_sha256 FROM seat_tokens WHERE table_id = ?", (table_id,)
            ).fetchall()
            snapshot = (
                self._db.execute(SNAPSHOT_BEFORE, (table_id, rows.LATEST)).fetchone()
                if after_snapshot
                else None
            )
            moves = self._db.execute(
                f"SELECT {rows.PROPOSAL_COLUMNS} FROM proposals "
                "WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, rows.skipped_before(snapshot)),
            ).fetchall()
        return rows.table_record(table_id, row[0], tokens, moves, row[1:3], snapshot, row[3])

    def stored_spec(self, version: str) -> StoredSpec | None:
        with self._lock:
            row = self._db.execute(
                "SELECT sha256, game, text FROM specs WHERE sha256 = ?", (version,)
            ).fetchone()
        return rows.stored_spec(row)

    def signing_key(self, new: str) -> str:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO signing_key (one, seed, created_at) VALUES (1, ?, ?) "
                "ON CONFLICT (one) DO NOTHING",
                (new, _now()),
            )
            return str(db.execute("SELECT seed FROM signing_key").fetchone()[0])

    def moves_after(self, table_id: str, version: int) -> tuple[Proposal, ...]:
        with self._lock:
            found = self._db.execute(
                f"SELECT {rows.PROPOSAL_COLUMNS} FROM proposals "
                "WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, version),
            ).fetchall()
        return tuple(map(rows.proposal, found))

    def moves_between(self, table_id: str, after: int, last: int) -> tuple[Proposal, ...]:
        with self._lock:
            found = self._db.execute(
                f"SELECT {rows.PROPOSAL_COLUMNS} FROM proposals "
                "WHERE table_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
                (table_id, after, last),
            ).fetchall()
        return tuple(map(rows.proposal, found))

    def snapshot_before(self, table_id: str, version: int) -> Snapshot | None:
        with self._lock:
            row = self._db.execute(SNAPSHOT_BEFORE, (table_id, version)).fetchone()
        return rows.snapshot_of(row)

    def _write_group(self, writes: Sequence[Write]) -> list[BaseException | None]:
        """The writer's: every write in one transaction, each undone alone if it fails, and one
        commit (one sync) for them all."""
        db = self._writes
        db.execute("BEGIN IMMEDIATE")
        try:
            errors = [_written(db, write) for write in writes]
            self._commit(db)
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return errors

    def _commit(self, db: Connection) -> None:
        """COMMIT, its duration told to `on_commit`."""
        started = time.perf_counter()
        db.execute("COMMIT")
        self.on_commit(time.perf_counter() - started)

    def find_verdict(self, table_id: str, move_id: str) -> Proposal | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {rows.PROPOSAL_COLUMNS} FROM proposals WHERE table_id = ? AND move_id = ?",
                (table_id, move_id),
            ).fetchone()
        return rows.proposal(row) if row else None

    def version(self, table_id: str) -> int:
        with self._lock:
            return _version(self._db, table_id)

    def table_ids(self) -> list[str]:
        with self._lock:
            found = self._db.execute("SELECT id FROM tables ORDER BY created_at, rowid").fetchall()
        return [r[0] for r in found]

    def list_tables(
        self, where: TableFilter, *, below: int | None = None, limit: int
    ) -> list[Listed]:
        conditions, values = rows.filter_conditions(where, "?")
        if below is not None:
            conditions.append("t.rowid < ?")
            values.append(below)
        columns = rows.LISTED_COLUMNS.format(version=rows.VERSION_OF_ROW, position="t.rowid")
        holding = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        with self._lock:
            found = self._db.execute(
                f"SELECT {columns} FROM tables t{holding} ORDER BY t.rowid DESC LIMIT ?",
                (*values, limit),
            ).fetchall()
        return [rows.listed(row) for row in found]

    def unsummarised(self, limit: int) -> list[str]:
        with self._lock:
            found = self._db.execute(
                "SELECT id FROM tables WHERE game_over IS NULL LIMIT ?", (limit,)
            ).fetchall()
        return [str(row[0]) for row in found]

    def set_summary(self, table_id: str, summary: Summary) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE tables SET game_over = ?, open_disputes = ? WHERE id = ? AND game_over IS NULL",
                (*rows.summary_columns(summary), table_id),
            )

    def deadlines(self) -> dict[str, Due]:
        with self._lock:
            found = self._db.execute(
                "SELECT id, deadline_number, deadline_at FROM tables WHERE deadline_at IS NOT NULL"
            ).fetchall()
        return {table_id: Due(int(number), float(at)) for table_id, number, at in found}

    def deadline(self, table_id: str) -> Due | None:
        with self._lock:
            row = self._db.execute(
                "SELECT deadline_number, deadline_at FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        if row is None:
            raise unknown_table(table_id)
        return rows.due(row)

    def close(self) -> None:
        self._writer.close()  # what was queued is committed first
        self._writes.close()
        with self._lock:
            self._db.close()


def _ignore(seconds: float) -> None:
    return None


def _configure(db: Connection, path: Path, synchronous: str) -> None:
    mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if mode != "wal":
        raise RefereeError(f"cannot use a write-ahead log for `{path}`: got `{mode}`")
    db.execute(f"PRAGMA synchronous={synchronous}")  # one of SYNCHRONOUS_LEVELS
    db.execute("PRAGMA foreign_keys=ON")


def _written(db: Connection, write: Write) -> BaseException | None:
    """`write` in the open transaction, or its error: a write whose proposal is refused (its
    number or move id taken) writes nothing, and the other writes of the group stay in it (a
    failing statement is undone alone). No savepoint: each statement costs the writer a wait for
    the GIL, which the event loop holds most of the time."""
    try:
        _insert(db, write.table_id, write.seq, write.seat, write.move, write.move_id, write.verdict)
    except Exception as error:  # noqa: BLE001 - this write's own failure, told to its caller
        return error
    for statement, parameters in rows.changes(write, "?"):
        db.execute(statement, parameters)
    return None


def _version(db: Connection, table_id: str) -> int:
    row = db.execute(
        "SELECT (SELECT MAX(seq) FROM proposals WHERE table_id = t.id) "
        "FROM tables t WHERE t.id = ?",
        (table_id,),
    ).fetchone()
    if row is None:
        raise unknown_table(table_id)
    return int(row[0] or 0)


def _insert(
    db: Connection,
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
        else " AND (SELECT COALESCE(MAX(seq), 0) FROM proposals WHERE table_id = t.id) = ?"
    )
    values = (table_id, seq, move_id, seat, codec.encode(move), codec.encode(verdict), _now())
    try:
        inserted = db.execute(
            "INSERT INTO proposals (table_id, seq, move_id, seat, move, verdict, created_at)"
            f" SELECT ?, ?, ?, ?, ?, ?, ? FROM tables t WHERE t.id = ?{at_version} RETURNING seat",
            (*values, table_id, *(() if seq is None else (seq - 1,))),
        ).fetchone()
    except sqlite3.IntegrityError as error:  # a race lost, or the move id taken
        raise StoreConflict(
            f"move {seq} or move id `{move_id}` of table `{table_id}` is taken"
        ) from error
    if inserted is None:  # the table is unknown, or at another version
        version = _version(db, table_id)  # NotFound for an unknown table
        raise StoreConflict(f"table `{table_id}` is at version {version}: move {seq} is not next")


def _statements(script: str) -> list[str]:
    """Split a migration into statements (no `;` inside the schema's literals or comments)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
