"""Watching tables: each watcher's queue of accepted moves (`Subscription`), redacted for its
seat, and the watchers of each table (`Broadcast`, `Watchers`)."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from referee.errors import RefereeError
from referee.model import JSON, Event
from referee.redaction import events_for
from referee.service.spoken import Teller


class WatcherTooSlow(RefereeError):
    """A watcher did not read its events fast enough; it may resume from its last version."""

    code = "resource_exhausted"
    reason = "watcher_too_slow"  # referee_refusals_total's word for it


class ShuttingDown(RefereeError):
    """The referee is stopping: a Watch stream open then ends with this, not as a finished table
    does; the watcher may watch again, from its last version, once the referee is back."""

    code = "unavailable"


SHUTTING_DOWN = "the referee is shutting down: watch again from the last version received"


class TooManyWatchers(RefereeError):
    """A table has as many open Watch streams as the server allows."""

    code = "resource_exhausted"
    reason = "streams_per_table"  # the quota (`serve --max-streams-per-table`)


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
    texts: list[str] = field(
        default_factory=list
    )  # what each event says, in the watcher's language


class Subscription:
    """One watcher's queue: the backlog, then each accepted move, redacted for its seat.

    Iterating blocks until the next move; it ends when the table is over or the watch is
    cancelled, and raises `WatcherTooSlow` (after the queued moves) if the watcher fell behind,
    `ShuttingDown` if the referee stopped first.
    An event loop reads it without blocking: `drain` takes what is queued, and `on_ready` tells
    (from the thread that pushed) when more is.
    """

    def __init__(self, seat: int | None, capacity: int, narrator: Teller | None = None) -> None:
        self.seat = seat
        self._narrator = narrator or Teller("")
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
            raise WatcherTooSlow(
                "the watcher fell behind the table: watch again from the last version received"
            )
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
    another process made reach the watchers when this process catches the table up (`catch_up`),
    told of them by the store (`referee.service.following`) or at the next call on the table.
    """

    def __init__(self, version: int) -> None:
        self.version = version
        self._subscriptions: set[Subscription] = set()
        self._lock = threading.Lock()

    def add(self, subscription: Subscription, most: int) -> None:
        with self._lock:
            if most and len(self._subscriptions) >= most:
                raise TooManyWatchers(
                    f"this table has {most} open Watch streams, the most the server allows"
                )
            self._subscriptions.add(subscription)
        subscription.on_cancel(self.remove)

    def remove(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscriptions.discard(subscription)

    @property
    def watched(self) -> bool:
        with self._lock:
            return bool(self._subscriptions)

    def catch_up(self, history: Sequence[Accepted], *, over: bool) -> None:
        """Send the moves of `history` not sent yet; after the last move of a table, end."""
        fresh = history[self.version :]
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


class Watchers:
    """Each table's `Broadcast`, made when its first watcher comes; kept while it has watchers,
    so a table leaving memory (and coming back) keeps its streams."""

    def __init__(self) -> None:
        self._broadcasts: dict[str, Broadcast] = {}
        self._lock = threading.Lock()

    def of(self, table_id: str, version: int) -> Broadcast:
        with self._lock:
            return self._broadcasts.setdefault(table_id, Broadcast(version))

    def tell(self, table_id: str, history: Sequence[Accepted], *, over: bool) -> None:
        """Send the table's watchers the moves of `history` they have not had yet."""
        with self._lock:
            broadcast = self._broadcasts.get(table_id)
        if broadcast is not None:
            broadcast.catch_up(history, over=over)

    def watched(self) -> list[str]:
        """The tables with a watcher here."""
        with self._lock:
            broadcasts = list(self._broadcasts.items())
        return [table_id for table_id, broadcast in broadcasts if broadcast.watched]

    def is_watched(self, table_id: str) -> bool:
        with self._lock:
            broadcast = self._broadcasts.get(table_id)
        return broadcast is not None and broadcast.watched

    def forget_if_unwatched(self, table_id: str) -> None:
        with self._lock:
            broadcast = self._broadcasts.get(table_id)
            if broadcast is not None and not broadcast.watched:
                del self._broadcasts[table_id]

    def shut_down(self) -> None:
        """The referee stops: every stream ends with `ShuttingDown`."""
        with self._lock:
            broadcasts = list(self._broadcasts.values())
        for broadcast in broadcasts:
            broadcast.shut_down_all()
