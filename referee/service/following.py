"""What other processes write to a shared store, acted on here (`referee.store.base.Follower`):
a move made elsewhere reaches this process's watchers of its table, and a deadline set elsewhere
is armed here too, a little late (`HEARD_LATE_S`), so that the process that set it calls it first
and this one only if that one is gone. A deadline is called once whoever calls it: expiring is a
move, and the store takes one move per version.

What is told can still go untold: a process of an older version that does not announce its moves,
a notification lost without its connection. So every `CHECK_EVERY_S` the follower also checks
what it holds against the store, as after a lost connection (`missed`).

The store's listening thread only hands work over: the tables are caught up on a thread of this
module's own, one after another, a table asked for twice before its turn caught up once.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import structlog

from referee.clock import Clock
from referee.errors import RefereeError
from referee.service.deadlines import Deadlines
from referee.service.watching import Watchers
from referee.store.base import Due, Keep, Store

log = structlog.get_logger("referee.service")

HEARD_LATE_S = 0.25  # how long after its due time a deadline set elsewhere is called here
CHECK_EVERY_S = 5.0  # how often what this process holds is checked against the store anyway


class Following:
    def __init__(
        self,
        store: Store,
        deadlines: Deadlines,
        watchers: Watchers,
        catch_up: Callable[[str], None],
    ) -> None:
        """`catch_up(table_id)` brings the table up to the store and tells its watchers."""
        self._store = store
        self._deadlines = deadlines
        self._watchers = watchers
        self._catch_up = catch_up
        self._queued: set[str] = set()
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="referee-following")
        self._closed = False

    def moved(self, table_id: str, version: int, deadline: Due | Keep | None) -> None:
        if isinstance(deadline, Due):
            self._deadlines.arm(table_id, deadline, late_by=HEARD_LATE_S)
        if self._watchers.is_watched(table_id):
            self._queue(table_id)

    def missed(self) -> None:
        for table_id, due in self._store.deadlines().items():
            self._deadlines.arm(table_id, due, late_by=HEARD_LATE_S)
        for table_id in self._watchers.watched():
            self._queue(table_id)

    def check_every(self, clock: Clock, seconds: float = CHECK_EVERY_S) -> None:
        """Check against the store every `seconds` of `clock`, until `close`."""
        clock.call_later(seconds, self._check, clock, seconds)

    def close(self) -> None:
        self._closed = True
        self._worker.shutdown(wait=False, cancel_futures=True)

    def _check(self, clock: Clock, seconds: float) -> None:
        if self._closed:
            return
        try:
            self.missed()
        except RefereeError as error:  # the store is down, say: the next check tries again
            log.warning("store_not_checked", error=str(error))
        self.check_every(clock, seconds)

    def _queue(self, table_id: str) -> None:
        with self._lock:
            if table_id in self._queued:
                return
            self._queued.add(table_id)
        with contextlib.suppress(RuntimeError):  # shut down: the service is stopping
            self._worker.submit(self._run, table_id)

    def _run(self, table_id: str) -> None:
        with self._lock:
            self._queued.discard(table_id)
        try:
            self._catch_up(table_id)
        except RefereeError as error:  # the store is down, say: the next move tells again
            log.warning("table_not_followed", table=table_id, error=str(error))
