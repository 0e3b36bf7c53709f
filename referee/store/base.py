"""The event store interface: a table is its set-up plus its accepted moves, in order.

A store keeps, per table: the set-up data (`TableSetup.to_data()`), the sha256 of each seat's
token (never the token), and every *proposal* whose verdict must survive a restart: each accepted
move with its sequence number (1, 2, 3... = the table version it made), and each rejection that
came with a `move_id` (so a retry gets the same answer). The unique keys (table, seq) and
(table, move_id) are what make several referee processes on one database safe: the second writer
gets `StoreConflict`, reloads the table and judges again.

A store may also keep snapshots of a table (`Snapshot`: its state at a version, written with the
move that made it), a cache of the log's fold: loading a table then reads its latest snapshot and
the moves after it, not the whole log (`load_table(..., after_snapshot=True)`); it keeps every
one, so that the table at a past version is restored from the one at or before it
(`snapshot_before`) and the few moves after it (`moves_between`), as Explain needs.

A store keeps each table's rules version (`StoredSpec`: the hash of its game's spec as loaded,
`referee.engine.versions`), and each version's text once, so that a table is judged by the rules it
was created under after the specs change. A table from before rules versions has none.

A store also keeps a small summary of each table for the lobby (`Summary`: whether it is over,
its open disputes), written with the move that changed it, so that the tables are listed, and
filtered, by a query of the store (`list_tables`), never by loading each one. A table from
before summaries has none (`Listed.summary` None) until its next move, or until the service
fills it in (`unsummarised`, `set_summary`).

A seat's token is replaced (ReissueSeat) with the move that logs it (`append_move(seat_token=)`):
the log tells every process of the change as it tells them of any move.

A store also keeps each table's pending deadline (`Due`: a claim window's, say), written with the
move that set it, so that whichever process is alive can fire it. A store several processes share
tells each of them what the others wrote (`follow`), so their watchers and deadlines keep up.

A store names each new table (`new_table_id`): one store, a random 16-hex id; a store of several
databases, an id that says which of them keeps the table (`referee.store.partitioned`).

Implementations: `MemoryStore` (tests), `SqliteStore` (the default, embedded), `PostgresStore`
(shared by several processes), `PartitionedStore` (tables spread over several PostgreSQL
databases), with the same two unique keys.
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from referee.errors import NotFound, RefereeError, VersionConflict

JSON = Any


class StoreConflict(VersionConflict):
    """Another writer already used this (table, seq) or (table, move_id): reload and judge again."""


class StoreUnavailable(RefereeError):
    """The database cannot be reached (down, restarting, a connection cut): try again later. A
    move whose commit was cut may have been committed: retry it by its `move_id`."""

    code = "unavailable"


@dataclass(frozen=True)
class Proposal:
    """One stored verdict: an accepted move (with its `seq`) or a remembered rejection."""

    seat: int
    move: Mapping[str, JSON]
    verdict: Mapping[str, JSON]
    move_id: str | None = None
    seq: int | None = None  # None: a rejection
    at: str | None = None  # when the store took it: ISO 8601, UTC (a game record's server time)

    @property
    def accepted(self) -> bool:
        return self.seq is not None


@dataclass(frozen=True)
class Due:
    """A table's pending deadline: the mechanic's deadline `number` and when it falls due, in
    seconds since the epoch (`Clock.time()`: processes sharing a store share a wall clock)."""

    number: int
    at: float


class Keep(Enum):
    """`append_move(deadline=KEEP)`: the move leaves the table's pending deadline as it was."""

    KEEP = "keep"


KEEP = Keep.KEEP


@dataclass(frozen=True)
class Snapshot:
    """A table's state at `version` (`referee.engine.snapshot`'s text): a cache, never the truth."""

    version: int
    data: str


@dataclass(frozen=True)
class StoredSpec:
    """A rules version: its hash (hex sha256), its game, and its spec's text
    (`referee.spec.source.SpecSource`), kept once however many tables play it."""

    version: str
    game: str
    text: str


@dataclass(frozen=True)
class TableRecord:
    """Everything needed to rebuild a table: fold `moves` over `setup` (or, read after its
    snapshot, restore `snapshot` and fold the moves after it)."""

    table_id: str
    setup: Mapping[str, JSON]
    token_hashes: Mapping[int, str]  # seat -> hex sha256 of its token
    moves: tuple[Proposal, ...] = field(default=())  # accepted moves, by seq, after `skipped`
    deadline: Due | None = None  # the pending deadline the last move left, if any
    snapshot: Snapshot | None = None  # read with `after_snapshot` only
    skipped: int = 0  # the first moves, not read: all but the last the snapshot folds in
    rules_version: str | None = None  # its spec's hash; None: created before rules versions

    @property
    def version(self) -> int:
        return self.skipped + len(self.moves)


@dataclass(frozen=True)
class Summary:
    """What the lobby lists and filters a table by, besides its set-up and deadline: whether it
    is over, and its open disputes (raised, not yet ruled on) by number."""

    over: bool = False
    open_disputes: tuple[int, ...] = ()


NEW_TABLE = Summary()  # a table just created: in play, no dispute


@dataclass(frozen=True)
class TableFilter:
    """Which tables `list_tables` gives: each condition set (not None) must hold."""

    game: str | None = None
    over: bool | None = None
    open_disputes: bool | None = None  # has an open dispute (True), or none (False)
    clock_running: bool | None = None  # has a pending deadline (True), or none (False)


@dataclass(frozen=True)
class Listed:
    """A table as the lobby lists it: read from one row, its moves not loaded. `position`
    orders tables by creation (higher: newer), and is what the next page starts below."""

    table_id: str
    setup: Mapping[str, JSON]
    version: int
    summary: Summary | None  # None: not known yet (a table from before summaries)
    deadline: Due | None
    created_at: str
    rules_version: str | None
    position: int


@dataclass(frozen=True)
class Write:
    """A proposal to record: accepted move number `seq`, with what changes with it (see
    `Store.append_move`), or a rejection remembered by its move id (`seq` None)."""

    table_id: str
    seq: int | None
    seat: int
    move: Mapping[str, JSON]
    move_id: str | None
    verdict: Mapping[str, JSON]
    deadline: Due | Keep | None = KEEP
    snapshot: Snapshot | None = None
    summary: Summary | Keep = KEEP
    seat_token: tuple[int, str] | None = None


def unknown_table(table_id: str) -> NotFound:
    return NotFound(f"unknown table `{table_id}`")


class Follower(Protocol):
    """Told by a shared store what other processes wrote (`Store.follow`)."""

    def moved(self, table_id: str, version: int, deadline: Due | Keep | None) -> None:
        """Another process committed move `version` of the table, which left `deadline`."""

    def missed(self) -> None:
        """What others wrote may have gone untold (a lost connection, now back): check anew."""


class Store(ABC):
    """Durable tables. Every write is committed (on disk, for a durable store) when it returns."""

    # every `Listed.position` is below it: a page token's larger number is not one of ours
    positions_below = 2**63

    def new_table_id(self) -> str:
        """The id of a table about to be created: 16 random hex digits (one URL path segment)."""
        return secrets.token_hex(8)

    @abstractmethod
    def create_table(
        self,
        table_id: str,
        setup: Mapping[str, JSON],
        token_hashes: Mapping[int, str],
        spec: StoredSpec | None = None,
        deadline: Due | None = None,
        summary: Summary = NEW_TABLE,
    ) -> None:
        """Record a new table, pinned to the rules version `spec` (its text kept unless the
        store has it already), with the deadline it starts with (a first turn's clock) and
        its lobby summary; `StoreConflict` if the id is taken."""

    @abstractmethod
    def stored_spec(self, version: str) -> StoredSpec | None:
        """The rules version of this hash, if the store keeps it."""

    @abstractmethod
    def signing_key(self, new: str) -> str:
        """The key the referee signs records with (an Ed25519 seed, hex): the one kept, else
        `new`, kept from now on. Every process sharing the store gets the same."""

    @abstractmethod
    def load_table(self, table_id: str, *, after_snapshot: bool = False) -> TableRecord:
        """The table's set-up, token hashes and accepted moves; `NotFound` if unknown. With
        `after_snapshot`, its latest snapshot too, and only the moves from the last one that
        snapshot folds in (the one it is checked against) on."""

    @abstractmethod
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
        """Commit accepted move number `seq` and the table's pending deadline after it (None:
        none, KEEP: as it was), and its `snapshot` at `seq` if given (kept beside the earlier
        ones; the first one given at a version stays), its lobby `summary` after it (KEEP: as
        it was), and a seat's new token hash (`seat_token`: seat, hex sha256) in place of its
        old one, all in one transaction; `StoreConflict` if `seq` or `move_id` is taken."""

    @abstractmethod
    def record_rejection(
        self,
        table_id: str,
        seat: int,
        move: Mapping[str, JSON],
        move_id: str,
        verdict: Mapping[str, JSON],
    ) -> None:
        """Remember a rejected proposal by its move id; `StoreConflict` if the id is taken."""

    @abstractmethod
    def moves_after(self, table_id: str, version: int) -> tuple[Proposal, ...]:
        """The accepted moves after `version`, by seq (a cached table catching up); none for an
        unknown table (one query: this is how a cached table learns it is fresh)."""

    @abstractmethod
    def moves_between(self, table_id: str, after: int, last: int) -> tuple[Proposal, ...]:
        """The accepted moves after version `after` up to `last`, by seq (a past version's fold
        reads no more of the log); none for an unknown table."""

    @abstractmethod
    def snapshot_before(self, table_id: str, version: int) -> Snapshot | None:
        """The table's latest snapshot at `version` or before it, if it keeps one."""

    @abstractmethod
    def find_verdict(self, table_id: str, move_id: str) -> Proposal | None:
        """The first verdict given to `move_id` at this table, if any."""

    @abstractmethod
    def version(self, table_id: str) -> int:
        """The number of accepted moves (cheap: checks whether a cached table is stale)."""

    @abstractmethod
    def table_ids(self) -> list[str]:
        """Every table, oldest first."""

    @abstractmethod
    def list_tables(
        self, where: TableFilter, *, below: int | None = None, limit: int
    ) -> list[Listed]:
        """At most `limit` tables for which `where` holds, newest first, from the newest below
        `position` `below` (None: the newest of all). A table without a summary yet matches no
        condition on it (`over`, `open_disputes`)."""

    @abstractmethod
    def unsummarised(self, limit: int) -> list[str]:
        """Up to `limit` tables with no summary yet (created before summaries were kept)."""

    @abstractmethod
    def set_summary(self, table_id: str, summary: Summary) -> None:
        """Give a table without a summary yet its summary (one it has already is left alone:
        a move wrote it, since)."""

    @abstractmethod
    def deadlines(self) -> dict[str, Due]:
        """Every table's pending deadline, by table id."""

    @abstractmethod
    def deadline(self, table_id: str) -> Due | None:
        """The table's pending deadline, if any (`NotFound` if the table is unknown)."""

    def record(self, write: Write) -> None:
        """Commit `write` (an accepted move or a remembered rejection), as `append_move` or
        `record_rejection` would."""
        if write.seq is None:
            if write.move_id is None:
                raise RefereeError("a rejection is remembered by its move id: it has none")
            self.record_rejection(
                write.table_id, write.seat, write.move, write.move_id, write.verdict
            )
            return
        self.append_move(
            write.table_id,
            write.seq,
            write.seat,
            write.move,
            write.move_id,
            write.verdict,
            deadline=write.deadline,
            snapshot=write.snapshot,
            summary=write.summary,
            seat_token=write.seat_token,
        )

    def submit(self, write: Write) -> Future[None]:
        """`record(write)` without waiting: the future is done once it is committed (or with
        its error). A store with a disk commits on a writer thread of its own, grouping the
        writes queued meanwhile (`referee.store.writer`); this one records it now."""
        future: Future[None] = Future()
        try:
            self.record(write)
        except BaseException as error:  # noqa: BLE001 - the caller gets it from the future
            future.set_exception(error)
        else:
            future.set_result(None)
        return future

    def follow(self, follower: Follower) -> bool:
        """Tell `follower` what other processes write, from now on, until `close`; whether there
        is anything to tell (False: a store only this process writes)."""
        return False

    def close(self) -> None:  # noqa: B027 - a no-op unless the store holds connections
        """Release connections; the store is unusable afterwards."""
