"""Deadlines on the service's clock: a table whose state expires (a mechanic says when, and what
expiring does) has one call armed on the clock, made when the deadline passes. The clock is
injected (`referee.clock`): the real one in service, a `ManualClock` in tests."""

from __future__ import annotations

import threading
from collections.abc import Callable

from referee.clock import Clock, Timer
from referee.mechanics.base import Deadline


class Deadlines:
    """The deadline armed for each table (one at a time: a table is in one state). `due` is
    called with the table and the deadline's number once it passes, unless it was re-armed."""

    def __init__(self, clock: Clock, due: Callable[[str, int], None]) -> None:
        self._clock = clock
        self._due = due
        self._armed: dict[str, tuple[int, Timer]] = {}  # table -> (deadline number, its call)
        self._lock = threading.Lock()
        self._closed = False

    def arm(self, table_id: str, deadline: Deadline | None) -> None:
        """Start the clock on a table's new deadline (a reloaded table's gets a full one); the
        same deadline armed again is left running."""
        if deadline is None:
            return
        with self._lock:
            armed = self._armed.get(table_id)
            if self._closed or (armed is not None and armed[0] == deadline.number):
                return
            if armed is not None:  # an earlier deadline's call, not made: it has nothing to do
                armed[1].cancel()
            timer = self._clock.call_later(
                deadline.after_ms / 1000, self._passed, table_id, deadline.number
            )
            self._armed[table_id] = (deadline.number, timer)

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
