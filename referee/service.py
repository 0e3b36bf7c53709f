"""The application service: tables, seats, proposals and verdicts, with no gRPC in sight.

It owns the store, the loaded games and a cache of live tables. Each live table has a lock: one
proposal at a time is judged, recorded, then answered. The promises it keeps:
- an accepted move is committed to the store *before* its verdict is returned; if the store fails,
  the cached table (which already applied the move) is dropped and rebuilt from the store, so memory
  never runs ahead of the log;
- a rejected move changes nothing, but its verdict is remembered when it came with a `move_id`;
- a `move_id` seen before gets its first verdict back, and nothing is applied twice;
- a seat acts only with its own token (only its sha256 is stored); a view, a verdict or an event
  stream shows a seat only what that seat may see: views are the table's (`Table.view(seat)`),
  verdicts and events pass the one redaction point (`referee.redaction`);
- several processes may share one store: before judging, a table is checked against the store's
  version, and a write that loses a race (`StoreConflict`) makes the table reload and judge again.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict, deque
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator, Mapping, Sequence

import structlog

from referee.engine import seeding
from referee.metrics import Metrics
from referee.engine.replay import adjudicate, adjudicate_yaml
from referee.engine.table import CLOSE_WINDOW, SYSTEM, Table, TableSetup
from referee.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    RefereeError,
    Unauthenticated,
    VersionConflict,
)
from referee.i18n.events import Narrator
from referee.i18n.verdicts import verdict_worded, with_hints
from referee.model import JSON, Event, Move, Verdict
from referee.redaction import events_for, verdict_for
from referee.scheduler import Call, Scheduler
from referee.spec.registry import Game, find_game
from referee.store import codec
from referee.store.base import Store, StoreConflict, TableRecord

log = structlog.get_logger("referee.service")



TOKEN_BYTES = 32
MAX_MOVE_ID_LENGTH = 128
MAX_LIVE_TABLES = 10_000   # tables kept in memory (about 7 KB each); the others are in the store
CONFLICT_RETRIES = 5  # races lost in a row before giving up with VersionConflict
WATCH_CAPACITY = 1024  # moves a watcher may fall behind before its stream is cut
MAX_STREAMS_PER_TABLE = 64  # Watch streams open on one table at once


class WatcherTooSlow(RefereeError):
    """A watcher did not read its events fast enough; it may resume from its last version."""

    code = "resource_exhausted"


class ShuttingDown(RefereeError):
    """The referee is stopping: a Watch stream open then ends with this, not as a finished table
    does; the watcher may watch again, from its last version, once the referee is back."""

    code = "unavailable"


SHUTTING_DOWN = "the referee is shutting down: watch again from the last version received"


class TooManyWatchers(RefereeError):
    """A table has as many open Watch streams as the server allows."""

    code = "resource_exhausted"


@dataclass(frozen=True)
class CreatedTable:
    table_id: str
    tokens: dict[int, str]  # seat -> secret token, given out once
    commitment: str
    version: int
    deal_commitment: str = ""  # sha256 of the seed chain's root (docs/fair-deal.md)


@dataclass(frozen=True)
class Ruling:
    """The answer to one proposal as the proposing seat may see it (`redaction.verdict_for`,
    `redaction.events_for`): the verdict names no card hidden from it."""

    verdict: Verdict
    seat: int
    move_id: str
    events: list[dict[str, JSON]]
    replayed: bool = False  # a retried move_id: this is the first verdict, given again
    texts: list[str] = field(default_factory=list)  # what each event says, in the seat's language

    def worded(self, table: Table, move: Move, languages: Sequence[str]) -> Ruling:
        """The ruling as its seat is told: worded in its language, then through the redaction
        point (a sentence in any language names no card hidden from the seat)."""
        game = table.game
        language = game.language(languages)
        verdict = verdict_worded(self.verdict, game.texts, language, game.spec.words)
        told = with_hints(verdict_for(table, self.seat, move, verdict), language)
        return replace(self, verdict=told,
                       texts=Narrator(game.spec.mechanics, language).tell_all(self.events))


@dataclass(frozen=True)
class SeatView:
    view: dict[str, JSON]
    version: int
    seat: int | None  # None: the public (spectator) view
    commitment: str
    over: bool


@dataclass(frozen=True)
class Accepted:
    """One accepted move as watchers need it: its version, its seat, its unredacted events."""

    version: int
    seat: int
    events: tuple[Event, ...]


@dataclass(frozen=True)
class SeenMove:
    """An accepted move redacted for one watcher."""

    version: int
    seat: int
    events: list[dict[str, JSON]]
    texts: list[str] = field(default_factory=list)  # what each event says, in the watcher's language


class Subscription:
    """One watcher's queue: the backlog, then each accepted move, redacted for its seat.

    Iterating blocks until the next move; it ends when the table is over or the watch is
    cancelled, and raises `WatcherTooSlow` (after the queued moves) if the watcher fell behind,
    `ShuttingDown` if the referee stopped first.
    An event loop reads it without blocking: `drain` takes what is queued, and `on_ready` tells
    (from the thread that pushed) when more is.
    """

    def __init__(self, seat: int | None, capacity: int, narrator: Narrator | None = None) -> None:
        self.seat = seat
        self._narrator = narrator or Narrator("")
        self._capacity = capacity
        self._items: deque[Accepted] = deque()
        self._ready = threading.Condition()
        self._closed = False
        self._overflowed = False
        self._shut_down = False  # ended by the referee's shutdown, not by the table
        self._on_cancel: list[Callable[[Subscription], None]] = []
        self._on_ready: list[Callable[[], None]] = []

    def push(self, item: Accepted) -> None:
        with self._ready:
            if self._closed:
                return
            if len(self._items) >= self._capacity:
                self._overflowed = self._closed = True
            else:
                self._items.append(item)
            self._ready.notify()
        self._tell_ready()

    def close(self) -> None:
        """No more moves: the watcher gets the queued ones, then the end of the stream."""
        with self._ready:
            self._closed = True
            self._ready.notify()
        self._tell_ready()

    def shut_down(self) -> None:
        """The referee stops: the watcher gets the queued moves, then `ShuttingDown`."""
        with self._ready:
            self._shut_down = True
        self.close()

    def on_ready(self, callback: Callable[[], None]) -> None:
        """Call `callback` (from the pushing thread) whenever a move is queued or the stream ends."""
        self._on_ready.append(callback)
        self._tell_ready()  # what was queued before

    def _tell_ready(self) -> None:
        for callback in self._on_ready:
            callback()

    def drain(self) -> tuple[list[SeenMove], bool]:
        """The moves queued now (without waiting), and whether the stream has ended; raises
        `WatcherTooSlow` once the queued moves of a watcher that fell behind are taken."""
        with self._ready:
            items, self._items = list(self._items), deque()
            ended = self._closed
        if ended and not items:
            self._raise_if_cut()
        return [self._seen(item) for item in items], ended and not items

    def on_cancel(self, callback: Callable[[Subscription], None]) -> None:
        self._on_cancel.append(callback)

    def cancel(self) -> None:
        """The watcher left: stop, and stop receiving."""
        self.close()
        for callback in self._on_cancel:
            callback(self)

    def __iter__(self) -> Iterator[SeenMove]:
        while (item := self._next()) is not None:
            yield self._seen(item)
        self._raise_if_cut()

    def _raise_if_cut(self) -> None:
        """At the end of the queue: why the stream ended, if not because the table did."""
        if self._overflowed:
            raise WatcherTooSlow("the watcher fell behind the table: watch again from the last "
                                 "version received")
        if self._shut_down:
            raise ShuttingDown(SHUTTING_DOWN)

    def _seen(self, item: Accepted) -> SeenMove:
        seen = events_for(item.events, self.seat)
        return SeenMove(item.version, item.seat, seen, self._narrator.tell_all(seen))

    def _next(self) -> Accepted | None:
        with self._ready:
            while not self._items and not self._closed:
                self._ready.wait()
            return self._items.popleft() if self._items else None


class Broadcast:
    """The watchers of one table, and the last version they were sent.

    Moves are published under the table's lock, so every watcher gets them in order. Moves that
    another process made reach the watchers when this process reloads the table (`catch_up`).
    """

    def __init__(self, version: int) -> None:
        self.version = version
        self._subscriptions: set[Subscription] = set()
        self._lock = threading.Lock()

    def add(self, subscription: Subscription, most: int) -> None:
        with self._lock:
            if most and len(self._subscriptions) >= most:
                raise TooManyWatchers(f"this table has {most} open Watch streams, the most "
                                      "the server allows")
            self._subscriptions.add(subscription)
        subscription.on_cancel(self.remove)

    def remove(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscriptions.discard(subscription)

    @property
    def watched(self) -> bool:
        with self._lock:
            return bool(self._subscriptions)

    def catch_up(self, history: list[Accepted], *, over: bool) -> None:
        """Send the moves of `history` not sent yet; after the last move of a table, end."""
        fresh = history[self.version:]
        if not fresh:
            return
        self.version = fresh[-1].version
        with self._lock:
            subscriptions = list(self._subscriptions)
            if over:
                self._subscriptions.clear()
        for subscription in subscriptions:
            for item in fresh:
                subscription.push(item)
            if over:
                subscription.close()

    def shut_down_all(self) -> None:
        """The referee stops: every stream ends with `ShuttingDown` (not as a finished table)."""
        with self._lock:
            subscriptions, self._subscriptions = list(self._subscriptions), set()
        for subscription in subscriptions:
            subscription.shut_down()


@dataclass
class LiveTable:
    """A table in memory, rebuilt from its record. Replaced (never repaired) when it goes stale."""

    table_id: str
    table: Table
    seat_of_token: dict[str, int]  # sha256 of the token -> seat
    history: list[Accepted]
    lock: threading.Lock = field(default_factory=threading.Lock)
    retired: bool = False  # dropped from the cache: whoever holds it must fetch a fresh one


class RefereeService:
    def __init__(self, store: Store, games: Mapping[str, Game], *,
                 watch_capacity: int = WATCH_CAPACITY,
                 max_live_tables: int = MAX_LIVE_TABLES,
                 max_streams_per_table: int = MAX_STREAMS_PER_TABLE,
                 allow_stacked: bool = False, metrics: Metrics | None = None) -> None:
        self._store = store
        self._allow_stacked = allow_stacked  # a chosen seed or a stacked deal (test mode)
        self._games = dict(games)
        self._watch_capacity = watch_capacity
        self._max_live_tables = max_live_tables
        self._max_streams_per_table = max_streams_per_table
        # the tables in memory, least recently used first: a cache of the store, bounded
        self._tables: OrderedDict[str, LiveTable] = OrderedDict()
        self._broadcasts: dict[str, Broadcast] = {}
        self._deadlines: dict[str, tuple[int, Call]] = {}  # table -> (window, its timed close)
        self._scheduler = Scheduler()
        self._lock = threading.Lock()  # guards the three dicts above
        self._closed = False
        self.metrics = metrics if metrics is not None else Metrics()  # a registry of its own
        self.metrics.bind(lambda: self.live_tables, store)

    @property
    def games(self) -> list[str]:
        """The names of the games loaded, sorted."""
        return sorted(self._games)

    # -- games ---------------------------------------------------------------------------------

    def list_games(self, languages: Sequence[str] = ()) -> list[dict[str, JSON]]:
        """Each game's description (as `describe_game`), by name."""
        return [self.describe_game(name, languages) for name in sorted(self._games)]

    def describe_game(self, name: str, languages: Sequence[str] = ()) -> dict[str, JSON]:
        """The game's options, moves and rules, worded in the first of `languages` (the caller's,
        most wanted first) that the game is written in, else in English."""
        game = self._game(name)
        return {"name": game.name, **game.describe(game.language(languages))}

    def _game(self, name: str) -> Game:
        if not name:
            raise InvalidArgument("missing `game`")
        return find_game(self._games, name)

    # -- tables --------------------------------------------------------------------------------

    def create_table(self, game_name: str, *, options: Mapping[str, JSON] | None = None,
                     seats: int, dealer: int = 0, seed: int | None = None,
                     deal: Mapping[str, JSON] | None = None,
                     scores: Mapping[int, int] | None = None,
                     balances: Mapping[int, int] | None = None,
                     entropy: str | None = None) -> CreatedTable:
        """Open a table (its options, seats and deal checked by the engine) and deal out tokens.
        A chosen seed or a stacked deal only where the service allows them (test mode)."""
        game = self._game(game_name)
        setup = TableSetup(game=game.name, options=dict(options or {}), seats=seats, dealer=dealer,
                           seed=seed, deal=dict(deal) if deal is not None else None,
                           scores=dict(scores) if scores else None,
                           balances=dict(balances) if balances else None, entropy=entropy)
        if seeding.chosen(setup) and not self._allow_stacked:
            raise FailedPrecondition("a chosen `seed` or a stacked `deal` is a test and dispute "
                                     "mode this referee does not allow: tables here are dealt "
                                     "fair (`referee serve --allow-stacked` allows them)")
        table = Table.create(game, setup)
        tokens = {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in range(seats)}
        digests = {seat: _digest(token) for seat, token in tokens.items()}
        table_id = secrets.token_hex(8)
        # the table's own setup: the engine filled in the seed and the commitment's salt, which
        # a restart needs to deal the same cards behind the same commitment
        self._store.create_table(table_id, table.setup.to_data(), digests)
        live = LiveTable(table_id, table, {d: s for s, d in digests.items()}, [])
        with self._lock:
            self._tables[table_id] = live
            self._evict_idle()
        log.info("table_created", table=table_id, game=game.name, seats=seats)
        return CreatedTable(table_id, tokens, table.commitment, table.version,
                            table.deal_commitment)

    def propose(self, table_id: str, token: str | None, move: Move, *, move_id: str = "",
                expected_version: int | None = None, seat: int | None = None,
                languages: Sequence[str] = ()) -> Ruling:
        """Judge `move` for the token's seat; record it; then answer (see the module docstring),
        worded in the first of `languages` the game is written in (the record stays English)."""
        _check_move_id(move_id)
        problem = codec.unstorable(move.to_data())
        if problem:  # the log could not hold it: refused before it is judged
            raise InvalidArgument(f"the move cannot be recorded: {problem}")
        for _ in range(CONFLICT_RETRIES):
            with self._locked(table_id, token) as live:
                actor = self._seat(live, token, seat)
                ruling = (self._first_verdict(live, actor, move, move_id)
                          or self._judge(live, actor, move, move_id, expected_version))
                if ruling is not None:
                    self.metrics.count_verdict(live.table.game.name, ruling.verdict)
                    return ruling.worded(live.table, move, languages)
        raise VersionConflict(f"table `{table_id}` kept changing while judging: propose again")

    def view(self, table_id: str, token: str | None, *, seat: int | None = None) -> SeatView:
        """The token's seat view, or the public view without a token."""
        with self._locked(table_id, token) as live:
            viewer = self._viewer(live, token, seat)
            table = live.table
            return SeatView(table.view(viewer, legal=True), table.version, viewer, table.commitment,
                            table.is_over)

    def watch(self, table_id: str, token: str | None, *, from_version: int = 0,
              languages: Sequence[str] = ()) -> Subscription:
        """Moves accepted after `from_version`, then live ones, each redacted for the caller
        (their texts in the first of `languages` the game is written in).

        The caller must `cancel()` the subscription when it stops reading early.
        """
        if from_version < 0:
            raise InvalidArgument(f"`from_version` must be 0 or more, got `{from_version}`")
        if self._closed:
            raise ShuttingDown(SHUTTING_DOWN)
        with self._locked(table_id, token) as live:
            viewer = self._viewer(live, token, None)
            backlog = live.history[from_version:]
            game = live.table.game
            narrator = Narrator(game.spec.mechanics, game.language(languages))
            subscription = Subscription(viewer, self._watch_capacity + len(backlog), narrator)
            for item in backlog:
                subscription.push(item)
            if live.table.is_over:
                subscription.close()
            else:  # registered under the table lock: no move falls between backlog and live
                self._broadcast(live).add(subscription, self._max_streams_per_table)
            return subscription

    def adjudicate(self, record: JSON) -> dict[str, JSON]:
        """Replay a game record: the first illegal move and why, or the confirmed final result."""
        if not isinstance(record, Mapping):
            raise InvalidArgument("a game record is a mapping with `game`, `seats`, `deal` or "
                                  "`seed`, and `steps`")
        return adjudicate(self._games, dict(record))

    def adjudicate_yaml(self, text: str) -> dict[str, JSON]:
        return adjudicate_yaml(self._games, text)

    def close(self) -> None:
        """End every watch stream (with `ShuttingDown`) and claim-window timer (on shutdown)."""
        with self._lock:
            self._closed = True
            broadcasts = list(self._broadcasts.values())
            self._deadlines.clear()
        self._scheduler.close()
        for broadcast in broadcasts:
            broadcast.shut_down_all()

    # -- claim windows (TD-4): the server's clock closes them ------------------------------------

    def resume_deadlines(self) -> int:
        """Load every stored table that may hold an open claim window and arm its deadline (a
        full window again), so a restarted referee closes windows left open without waiting for
        someone to touch the table. Returns how many it armed. Each table is replayed: run it
        in the background at startup."""
        armed = 0
        for table_id in self._store.table_ids():
            if self._closed:
                break
            try:
                setup = TableSetup.from_data(self._store.load_table(table_id).setup)
                game = self._game(setup.game)
                if not game.mechanic.has_windows(game.resolve_options(setup.options)):
                    continue
                armed += self._live(table_id).table.open_window is not None
            except RefereeError as error:  # one broken table must not stop the others
                log.error("deadline_not_resumed", table=table_id, error=str(error))
        log.info("deadlines_resumed", armed=armed)
        return armed

    @property
    def armed_deadlines(self) -> int:
        """How many claim windows wait for their deadline."""
        with self._lock:
            return len(self._deadlines)

    def _arm_deadline(self, live: LiveTable) -> None:
        """Start the timer of a newly opened claim window (a reloaded table's gets a full one)."""
        window = live.table.open_window
        if window is None:
            return
        number, length_ms = window
        with self._lock:
            armed = self._deadlines.get(live.table_id)
            if self._closed or (armed is not None and armed[0] == number):
                return
            if armed is not None:  # an earlier window's close, not run: it has nothing to do
                armed[1].cancel()
            call = self._scheduler.call_later(length_ms / 1000, self._deadline_passed,
                                              live.table_id, number)
            self._deadlines[live.table_id] = (number, call)

    def _deadline_passed(self, table_id: str, number: int) -> None:
        with self._lock:
            if self._deadlines.get(table_id, (None,))[0] == number:
                del self._deadlines[table_id]
        try:
            with self._locked(table_id) as live:
                window = live.table.open_window
                if window is None or window[0] != number:
                    return  # every seat answered before the deadline
                before = live.table.version
                verdict = live.table.close_window()
                if verdict is not None:
                    self._record(live, SYSTEM, Move(CLOSE_WINDOW), "", verdict, before)
                    log.info("claim_window_closed", table=table_id, window=number)
        except RefereeError as error:  # a timer has nobody to answer: log, never crash
            self._retire_quietly(table_id)
            log.error("claim_window_not_closed", table=table_id, window=number, error=str(error))

    def _retire_quietly(self, table_id: str) -> None:
        with self._lock:
            live = self._tables.pop(table_id, None)
        if live is not None:
            live.retired = True

    # -- the live-table cache ------------------------------------------------------------------

    @contextmanager
    def _locked(self, table_id: str, token: str | None = None) -> Iterator[LiveTable]:
        """The table, locked and as fresh as the store (reloaded when another process moved it).
        Asked with a token, an unknown table answers as a wrong token does: nobody learns from
        a token's answer whether a table exists."""
        if not table_id:
            raise InvalidArgument("missing `table_id`")
        while True:
            try:
                live = self._live(table_id)
            except NotFound:
                if token:
                    raise Unauthenticated(_not_valid(table_id)) from None
                raise
            with live.lock:
                if live.retired:
                    continue
                if self._store.version(table_id) != live.table.version:
                    self._retire(live, "stale")
                    continue
                self._tell_watchers(live)  # of moves another process made, if any
                yield live
                return

    def _live(self, table_id: str) -> LiveTable:
        with self._lock:
            live = self._tables.get(table_id)
            if live is not None:
                self._tables.move_to_end(table_id)
        if live is not None:
            return live
        loaded = self._load(self._store.load_table(table_id))  # outside the lock: replay is slow
        with self._lock:
            live = self._tables.setdefault(table_id, loaded)
            self._evict_idle()
        self._arm_deadline(live)
        return live

    def _evict_idle(self) -> None:
        """Drop the least recently used tables beyond the bound (under `self._lock`). The store
        holds each table whole: an evicted table is replayed when next asked for, its watchers
        and its claim window's deadline carry on (they find it by id)."""
        while len(self._tables) > self._max_live_tables:
            _, live = self._tables.popitem(last=False)
            live.retired = True
            broadcast = self._broadcasts.get(live.table_id)
            if broadcast is not None and not broadcast.watched:
                del self._broadcasts[live.table_id]

    @property
    def live_tables(self) -> int:
        """How many tables are held in memory."""
        with self._lock:
            return len(self._tables)

    def _load(self, record: TableRecord) -> LiveTable:
        setup = TableSetup.from_data(record.setup)
        game = self._game(setup.game)
        moves = [(m.seat, Move.from_data(m.move)) for m in record.moves]
        try:
            table = Table.replay(game, setup, moves)
        except RefereeError as error:  # the server's problem (a spec changed), not the client's
            raise RefereeError(f"table `{record.table_id}` does not replay: {error}") from error
        if table.version != record.version:
            raise RefereeError(f"table `{record.table_id}` does not replay: {record.version} "
                               f"moves stored, {table.version} accepted again")
        history = [Accepted(m.seq or 0, m.seat, Verdict.from_data(m.verdict).events)
                   for m in record.moves]
        seats = {digest: seat for seat, digest in record.token_hashes.items()}
        return LiveTable(record.table_id, table, seats, history)

    def _retire(self, live: LiveTable, reason: str) -> None:
        live.retired = True
        with self._lock:
            if self._tables.get(live.table_id) is live:
                del self._tables[live.table_id]
        log.info("table_reloading", table=live.table_id, reason=reason)

    def _broadcast(self, live: LiveTable) -> Broadcast:
        with self._lock:
            return self._broadcasts.setdefault(live.table_id, Broadcast(live.table.version))

    def _tell_watchers(self, live: LiveTable) -> None:
        with self._lock:
            broadcast = self._broadcasts.get(live.table_id)
        if broadcast is not None:
            broadcast.catch_up(live.history, over=live.table.is_over)

    # -- proposals -----------------------------------------------------------------------------

    def _seat(self, live: LiveTable, token: str | None, claimed: int | None) -> int:
        """The seat the token stands for: acting needs a token."""
        seat = self._viewer(live, token, claimed)
        if seat is None:
            raise Unauthenticated("missing seat token")
        return seat

    def _viewer(self, live: LiveTable, token: str | None, claimed: int | None) -> int | None:
        """The seat the token stands for, or None (the public) without a token."""
        if not token:
            if claimed is not None:
                raise Unauthenticated(f"missing seat token: seat {claimed}'s view needs it")
            return None
        seat = live.seat_of_token.get(_digest(token))
        if seat is None:
            raise Unauthenticated(_not_valid(live.table_id))
        if claimed is not None and claimed != seat:
            raise PermissionDenied(f"the token is seat {seat}'s: it cannot act for seat {claimed}")
        return seat

    def _first_verdict(self, live: LiveTable, seat: int, move: Move,
                       move_id: str) -> Ruling | None:
        if not move_id:
            return None
        first = self._store.find_verdict(live.table_id, move_id)
        if first is None:
            return None
        if first.seat != seat or first.move != codec.decode(codec.encode(move.to_data())):
            raise InvalidArgument(f"move id `{move_id}` was already used for another move")
        return _ruling(live, seat, move, move_id, Verdict.from_data(first.verdict), replayed=True)

    def _judge(self, live: LiveTable, seat: int, move: Move, move_id: str,
               expected_version: int | None) -> Ruling | None:
        """Judge, record, answer; None when another process recorded a move first (retry)."""
        _check_expected_version(live, expected_version)
        before = live.table.version
        verdict = live.table.propose(seat, move)
        try:
            self._record(live, seat, move, move_id, verdict, before)
        except StoreConflict:  # the store is ahead of this table: reload, judge again
            self._retire(live, "store conflict")
            return None
        except BaseException:  # the table may hold a move the store does not: drop it
            self._retire(live, "store failure")
            raise
        return _ruling(live, seat, move, move_id, verdict)

    def _record(self, live: LiveTable, seat: int, move: Move, move_id: str, verdict: Verdict,
                version_before: int) -> None:
        """Commit the move if it changed the table (else remember the verdict), tell the watchers.

        Whether a move is logged depends on the table's version, not on the outcome, so that
        whatever the engine counts as a change (a pending claim, say) is replayed after a restart.
        """
        if live.table.version == version_before:  # rejected: nothing changed
            if move_id:
                self._store.record_rejection(live.table_id, seat, move.to_data(), move_id,
                                             verdict.to_data())
            return
        if live.table.version != version_before + 1:
            raise RefereeError(f"one move moved table `{live.table_id}` from version "
                               f"{version_before} to {live.table.version}")
        self._store.append_move(live.table_id, live.table.version, seat, move.to_data(),
                                move_id or None, verdict.to_data())
        live.history.append(Accepted(live.table.version, seat, verdict.events))
        self._tell_watchers(live)
        self._arm_deadline(live)


def _ruling(live: LiveTable, seat: int, move: Move, move_id: str, verdict: Verdict, *,
            replayed: bool = False) -> Ruling:
    """The verdict as judged, unredacted: `Ruling.worded` makes it the proposer's."""
    return Ruling(verdict, seat, move_id, events_for(verdict.events, seat), replayed)


def _not_valid(table_id: str) -> str:
    return f"the seat token is not valid for table `{table_id}`"


def _digest(token: str) -> str:
    # Only digests are stored and compared: a leaked database gives no seat away, and a dict
    # lookup by digest leaks nothing useful through timing about the token itself.
    return hashlib.sha256(token.encode()).hexdigest()


def _check_move_id(move_id: str) -> None:
    if len(move_id) > MAX_MOVE_ID_LENGTH:
        raise InvalidArgument(f"`move_id` is longer than {MAX_MOVE_ID_LENGTH} characters")


def _check_expected_version(live: LiveTable, expected: int | None) -> None:
    if expected is not None and expected != live.table.version:
        raise VersionConflict(f"table `{live.table_id}` is at version {live.table.version}, "
                              f"not {expected}")

