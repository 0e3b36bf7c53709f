"""The live tables: a bounded cache of the store, least recently used first. A table is replayed
from its record when first asked for; each has a lock (one proposal at a time). One another
process moved catches up: the moves it lacks are read from the log and applied again, as a reload
would. One whose write failed, or that does not catch up, is replaced, never repaired."""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import structlog

from referee.engine import reissues, snapshot
from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.snapshot import SnapshotError
from referee.engine.table import Table
from referee.errors import InvalidArgument, NotFound, RefereeError, Unauthenticated
from referee.model import DIRECTOR, Move, Verdict
from referee.service.auth import not_valid
from referee.service.stored_log import StoredLog
from referee.service.watching import Accepted, Watchers
from referee.store.base import Due, Proposal, Snapshot, Store, Summary

log = structlog.get_logger("referee.service")

MAX_LIVE_TABLES = 10_000  # tables kept in memory (about 7 KB each); the others are in the store


@dataclass
class LiveTable:
    """A table in memory, rebuilt from its record. Replaced (never repaired) when it goes stale."""

    table_id: str
    table: Table
    seat_of_token: dict[str, int]  # sha256 of the token -> seat
    history: StoredLog[Accepted]  # the events of each accepted move, by version
    due: Due | None = None  # the pending deadline as the store keeps it (when it falls due)
    restored_from: int | None = None  # the version of the snapshot it was loaded from, if any
    # the lobby's summary of it as the store keeps it (None: not known, written with the next move)
    summary: Summary | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    # the event loop's turn at the table (`RefereeService.propose_on_loop`): a proposal judged
    # there holds it, and `lock`, until its write is committed; the next one waits on the loop
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    retired: bool = False  # dropped from the cache: whoever holds it must fetch a fresh one


class LiveTables:
    """The cache. `game_of(table_id, game, rules_version)` is the game a stored table plays (its
    own version); `loaded` is told of each table replayed into memory (to arm its deadline)."""

    def __init__(
        self,
        store: Store,
        game_of: Callable[[str, str, str | None], Game],
        watchers: Watchers,
        *,
        most: int = MAX_LIVE_TABLES,
        loaded: Callable[[LiveTable], None],
    ) -> None:
        self._store = store
        self._game = game_of
        self._watchers = watchers
        self._most = most
        self._loaded = loaded
        self._tables: OrderedDict[str, LiveTable] = OrderedDict()
        self._lock = threading.Lock()
        # whether other processes may write the store: if not (`RefereeService`'s
        # `sole_writer`), a table in memory is the store's truth, with no need to catch up
        self.others_write = True

    @property
    def count(self) -> int:
        """How many tables are held in memory."""
        with self._lock:
            return len(self._tables)

    def holds(self, table_id: str) -> bool:
        """Whether the table is in memory (a deadline of a table that is not can be checked in
        the store before loading it)."""
        with self._lock:
            return table_id in self._tables

    def add(self, live: LiveTable) -> None:
        with self._lock:
            self._tables[live.table_id] = live
            self._evict_idle()

    @contextmanager
    def locked(self, table_id: str, token: str | None = None) -> Iterator[LiveTable]:
        """The table, locked and as fresh as the store (reloaded when another process moved it).
        Asked with a token, an unknown table answers as a wrong token does: nobody learns from
        a token's answer whether a table exists."""
        if not table_id:
            raise InvalidArgument("missing `table_id`")
        while True:
            try:
                live = self.live(table_id)
            except NotFound:
                if token:
                    raise Unauthenticated(not_valid(table_id)) from None
                raise
            with live.lock:
                if live.retired or not self.caught_up(live):
                    continue
                yield live
                return

    def in_memory(self, table_id: str) -> LiveTable | None:
        """The table if it is in memory (None: it must be loaded from the store first)."""
        with self._lock:
            live = self._tables.get(table_id)
            if live is not None:
                self._tables.move_to_end(table_id)
            return live

    def live(self, table_id: str) -> LiveTable:
        with self._lock:
            live = self._tables.get(table_id)
            if live is not None:
                self._tables.move_to_end(table_id)
        if live is not None:
            return live
        loaded = self._load(table_id)  # outside the lock: a replay is slow
        with self._lock:
            live = self._tables.setdefault(table_id, loaded)
            self._evict_idle()
        self._loaded(live)
        return live

    def caught_up(self, live: LiveTable) -> bool:
        """Whether the table (locked by the caller) is as fresh as the store, the moves other
        processes made applied and told to its watchers; False: it was retired, load it again."""
        if not self.others_write:
            return True
        if not self._catch_up(live):
            self.retire(live, "stale")
            return False
        self.tell_watchers(live)
        return True

    def tell_watchers(self, live: LiveTable) -> None:
        self._watchers.tell(live.table_id, live.history, over=live.table.is_over)

    def retire(self, live: LiveTable, reason: str) -> None:
        live.retired = True
        with self._lock:
            if self._tables.get(live.table_id) is live:
                del self._tables[live.table_id]
        log.info("table_reloading", table=live.table_id, reason=reason)

    def retire_quietly(self, table_id: str) -> None:
        with self._lock:
            live = self._tables.pop(table_id, None)
        if live is not None:
            live.retired = True

    def _evict_idle(self) -> None:
        """Drop the least recently used tables beyond the bound (under `self._lock`). The store
        holds each table whole: an evicted table is replayed when next asked for, its watchers
        and its deadline carry on (they find it by id)."""
        while len(self._tables) > self._most:
            _, live = self._tables.popitem(last=False)
            live.retired = True
            self._watchers.forget_if_unwatched(live.table_id)

    def _catch_up(self, live: LiveTable) -> bool:
        """Apply the moves other processes logged since the table's version (under its lock):
        False if one does not apply, and the table, left half way, must be reloaded."""
        logged = self._store.moves_after(live.table_id, live.table.version)
        if not logged:
            return True
        if any(_reissue(stored) for stored in logged):  # a seat's token changed: reload them
            return False
        try:
            for stored in logged:
                if stored.seq != live.table.version + 1:
                    return False
                live.table.redo(stored.seat, Move.from_data(stored.move))
                live.history.append(_accepted(stored))
        except RefereeError as error:
            log.error("table_not_caught_up", table=live.table_id, error=str(error))
            return False
        live.due = self._store.deadline(live.table_id) if live.table.deadline else None
        live.summary = None  # as another process wrote it: the next move writes it again
        return True

    def _load(self, table_id: str) -> LiveTable:
        """The table from its latest snapshot and the moves after it, else replayed whole (a
        snapshot is a cache: one that does not fit is set aside, and the log decides)."""
        record = self._store.load_table(table_id, after_snapshot=True)
        setup = TableSetup.from_data(record.setup)
        game = self._game(table_id, setup.game, record.rules_version)
        skipped = self._skipped_reader(table_id, record.skipped)
        moves = StoredLog(
            record.skipped, map(_logged_move, record.moves), lambda: [*map(_logged_move, skipped())]
        )
        table = restored_from = None
        try:
            if record.snapshot is not None:
                table = self._restored(game, setup, record.snapshot, moves, table_id)
                restored_from = record.snapshot.version if table is not None else None
            if table is None:
                table = Table.replay(game, setup, moves)
        except RefereeError as error:  # the server's problem (a spec changed), not the client's
            raise RefereeError(f"table `{table_id}` does not replay: {error}") from error
        if table.version != record.version:
            raise RefereeError(
                f"table `{table_id}` does not replay: {record.version} "
                f"moves stored, {table.version} accepted again"
            )
        history = StoredLog(
            record.skipped, map(_accepted, record.moves), lambda: [*map(_accepted, skipped())]
        )
        seats = {digest: seat for seat, digest in record.token_hashes.items()}
        return LiveTable(table_id, table, seats, history, record.deadline, restored_from)

    def _restored(
        self,
        game: Game,
        setup: TableSetup,
        stored: Snapshot,
        moves: StoredLog[tuple[int, Move]],
        table_id: str,
    ) -> Table | None:
        try:
            table = snapshot.restore(game, setup, stored.data, moves)
        except SnapshotError as refused:
            log.warning(
                "snapshot_refused", table=table_id, version=stored.version, why=str(refused)
            )
            return None
        log.debug("table_restored", table=table_id, snapshot=stored.version, version=table.version)
        return table

    def _skipped_reader(self, table_id: str, skipped: int) -> Callable[[], Sequence[Proposal]]:
        """Reads the first `skipped` moves, once, when a log first needs them."""
        read: list[Sequence[Proposal]] = []

        def first_moves() -> Sequence[Proposal]:
            if not read:
                read.append(self._store.moves_between(table_id, 0, skipped))
            return read[0]

        return first_moves


def _logged_move(stored: Proposal) -> tuple[int, Move]:
    return stored.seat, Move.from_data(stored.move)


def _reissue(stored: Proposal) -> bool:
    """A seat's token reissued (`referee.engine.reissues`): the tokens in memory are stale."""
    return stored.seat == DIRECTOR and stored.move.get("type") == reissues.REISSUE


def _accepted(stored: Proposal) -> Accepted:
    return Accepted(stored.seq or 0, stored.seat, Verdict.from_data(stored.verdict).events)
