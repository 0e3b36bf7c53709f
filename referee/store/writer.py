"""One writer: a thread that commits whatever was queued, as one group, and resolves its futures.

The service judges on the event loop and must not wait on the disk there (DESIGN.md, "Serving a
proposal"): it queues a proposal's write here (`submit`) and awaits the future, which is done once
the write is committed, durably, or failed. While one group commits, the next one queues: under
load a commit (one fsync) makes many writes durable at once, and a lone write waits for no
other. A write that fails on its own (a move id taken, a move that is not next) fails alone;
a group whose commit fails fails whole, and none of its writes is durable.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future

from referee.model import JSON
from referee.store.base import KEEP, Due, Keep, Snapshot, Store, Summary, Write

# commits the group, durably: each write's error in its place (None: written), or raises if the
# commit itself failed (then no write of it is durable)
CommitGroup = Callable[[Sequence[Write]], Sequence[BaseException | None]]
_STOP = None
# how long the thread waits for a write before it ends (the next write starts another): a store
# nobody writes, or forgot to close, holds no thread
IDLE_S = 1.0


class GroupWriter:
    def __init__(self, commit_group: CommitGroup, name: str) -> None:
        self._commit_group = commit_group
        self._name = name
        self._queue: queue.SimpleQueue[tuple[Write, Future[None]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._started = threading.Lock()
        self._closed = False

    def submit(self, write: Write) -> Future[None]:
        """Queue `write`: its future is done when it is committed (or failed)."""
        future: Future[None] = Future()
        with self._started:
            if self._closed:
                raise RuntimeError("the store is closed")
            # started with a write (a store that only reads has none), and again after an idle
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._queue.put((write, future))
        return future

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        with self._started:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(_STOP)
            thread.join()

    def _run(self) -> None:
        while True:
            try:
                first = self._queue.get(timeout=IDLE_S)
            except queue.Empty:
                with self._started:
                    if self._queue.empty():  # nothing came meanwhile: the next write starts one
                        self._thread = None
                        return
                continue
            group = [first]
            while not self._queue.empty():  # everything queued while the last group committed
                group.append(self._queue.get_nowait())
            pending = [item for item in group if item is not None]
            if pending:
                self._commit(pending)
            if len(pending) < len(group):  # stop, once what came before it is committed
                return

    def _commit(self, pending: list[tuple[Write, Future[None]]]) -> None:
        live = [
            (write, future) for write, future in pending if future.set_running_or_notify_cancel()
        ]
        try:
            errors = self._commit_group([write for write, _ in live])
        except BaseException as failed:  # noqa: BLE001 - the commit failed: every write of it did
            for _, future in live:
                future.set_exception(failed)
            return
        for (_, future), error in zip(live, errors, strict=True):
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)


class GroupWrittenStore(Store):
    """A store with a disk: every write, a proposal's or not, goes through its `GroupWriter`
    (`_writer`, set by the store), so there is one path to the disk and one commit a group."""

    _writer: GroupWriter

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
        write = Write(
            table_id, seq, seat, move, move_id, verdict, deadline, snapshot, summary, seat_token
        )
        self.submit(write).result()

    def record_rejection(
        self,
        table_id: str,
        seat: int,
        move: Mapping[str, JSON],
        move_id: str,
        verdict: Mapping[str, JSON],
    ) -> None:
        self.submit(Write(table_id, None, seat, move, move_id, verdict)).result()

    def submit(self, write: Write) -> Future[None]:
        return self._writer.submit(write)
