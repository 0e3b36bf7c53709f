"""The real clock (`referee.clock.Clock`): one thread for every timed call, the deadlines'.

A thread per open window would let a thousand windows hold a thousand OS threads. Here a heap
of due times and one worker thread, woken when an earlier call is added; calls run one after
another on that thread (each is short: expire a state, commit, tell the watchers). The standard
library's `sched` cannot be woken by a call added from another thread while it sleeps.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Any

import structlog

from referee.clock import Call

log = structlog.get_logger("referee.scheduler")


class Scheduler:
    def __init__(self, name: str = "referee-scheduler") -> None:
        self._heap: list[Call] = []
        self._numbers = itertools.count()
        self._wake = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def now(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return time.time()

    def call_later(self, delay_s: float, function: Callable[..., Any], *args: Any) -> Call:
        call = Call(time.monotonic() + max(0.0, delay_s), next(self._numbers), function, args)
        with self._wake:
            heapq.heappush(self._heap, call)
            if self._heap[0] is call:
                self._wake.notify()
        return call

    @property
    def pending(self) -> int:
        with self._wake:
            return sum(1 for c in self._heap if not c.cancelled)

    def close(self) -> None:
        """Drop every call not yet run and stop the thread."""
        with self._wake:
            self._closed = True
            self._heap.clear()
            self._wake.notify()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            call = self._next_due()
            if call is None:
                return
            try:
                call.function(*call.args)
            except Exception:  # one failed call must not stop the others
                log.exception(
                    "scheduled_call_failed", function=getattr(call.function, "__name__", "?")
                )

    def _next_due(self) -> Call | None:
        with self._wake:
            while not self._closed:
                while self._heap and self._heap[0].cancelled:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._wake.wait()
                    continue
                wait = self._heap[0].due - time.monotonic()
                if wait <= 0:
                    return heapq.heappop(self._heap)
                self._wake.wait(wait)
            return None
