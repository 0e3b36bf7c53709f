"""The clock deadlines are measured by, injected: the service asks it for the time and to call
back later, so a test moves a `ManualClock` instead of sleeping on the wall clock.

`referee.scheduler.Scheduler` is the real one (monotonic time, one thread for every call);
`ManualClock` runs what is due, on the caller's thread, when it is told time has passed.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol


class Timer(Protocol):
    def cancel(self) -> None:
        """Do not make the call (a no-op once it has run)."""


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a clock that never goes back (its origin means nothing)."""

    def time(self) -> float:
        """Seconds since the epoch: the time a store keeps a deadline's due time in (processes
        sharing a store must agree on it, as NTP keeps machines)."""

    def call_later(self, delay_s: float, function: Callable[..., Any], *args: Any) -> Timer:
        """Call `function(*args)` once `delay_s` seconds have passed."""

    def close(self) -> None:
        """Drop every call not yet made."""


@dataclass(order=True)
class Call:
    """One call waiting for its time: ordered by due time, then by when it was asked for."""

    due: float
    number: int
    function: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told (`advance`), and then makes the calls that fell due, in
    due order, on the thread that moved it."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._heap: list[Call] = []
        self._numbers = itertools.count()
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._now

    def time(self) -> float:
        """The same as `now`: a test's epoch is the clock's start."""
        return self.now()

    def call_later(self, delay_s: float, function: Callable[..., Any], *args: Any) -> Call:
        with self._lock:
            call = Call(self._now + max(0.0, delay_s), next(self._numbers), function, args)
            heapq.heappush(self._heap, call)
        return call

    @property
    def pending(self) -> int:
        with self._lock:
            return sum(1 for call in self._heap if not call.cancelled)

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass: each call due by then is made (a call it adds too, if due)."""
        with self._lock:
            until = self._now + seconds
        while (call := self._pop_due(until)) is not None:
            call.function(*call.args)
        with self._lock:
            self._now = max(self._now, until)

    def _pop_due(self, until: float) -> Call | None:
        with self._lock:
            while self._heap and (self._heap[0].cancelled or self._heap[0].due <= until):
                call = heapq.heappop(self._heap)
                if not call.cancelled:
                    self._now = max(self._now, call.due)
                    return call
            return None

    def close(self) -> None:
        with self._lock:
            self._heap.clear()
