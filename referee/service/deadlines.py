"""Deadlines on the service's clock: a table whose state expires (a mechanic says when, and what
expiring does) has one call armed on the clock, made when the deadline passes. The clock is
injected (`referee.clock`): the real one in service, a `ManualClock` in tests.

A deadline's due time is kept in the store with the move that set it (`referee.store.base.Due`),
so a restarted process, or another process on a shared store, arms it for the time it has left."""

from __future__ import annotations

import threading
from collections.abc import Callable

from referee.clock import Clock, Timer
from referee.store.base import Due


class Deadlines:
    """The deadline armed for each table (one at a time: a table is in one state). `due` is
    called with the table and the deadline's number once it passes, unless it was re-armed."""

    def __init__(self, clock: Clock, due: Callable[[str, int], None]) -> None:
        self._clock = clock
        self._due = due
        self._armed: dict[str, tuple[int, Timer]] = {}  # table -> (deadline number, its call)
        self._lock = threading.Lock()
        self._closed = False

    def arm(self, table_id: str, deadline: Due | None, *, late_by: float = 0.0) -> None:
        """Start the clock on a table's new deadline, to be called `late_by` seconds after it
        falls due (a deadline another process set: that process calls it first); the same
        deadline armed again is left running."""
        if deadline is None:
            return
        with self._lock:
            armed = self._armed.get(table_id)
            if self._closed or (armed is not None and armed[0] == deadline.number):
                return
            if armed is not None:  # an earlier deadline's call, not made: it has nothing to do
                armed[1].cancel()
            delay = deadline.at + late_by - self._clock.time()
            timer = self._clock.call_later(delay, self._passed, table_id, deadline.number)
            self._armed[table_id] = (deadline.number, timer)

    def disarm(self, table_id: str) -> None:
        """The table has no deadline any more (another process's move closed it)."""
        with self._lock:
            armed = self._armed.pop(table_id, None)
        if armed is not None:
            armed[1].cancel()

    @property
    def armed(self) -> int:
        """How many deadlines are waiting."""
        with self._lock:
            return len(self._armed)

    def close(self) -> None:
        """Drop every deadline and stop the clock (the service is stopping)."""
        with self._lock:
            self._closed = True
            self._armed.clear()
        self._clock.close()

    def _passed(self, table_id: str, number: int) -> None:
        with self._lock:
            if self._armed.get(table_id, (None,))[0] == number:
                del self._armed[table_id]
        self._due(table_id, number)
