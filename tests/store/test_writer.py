"""The store's writer (`referee.store.writer`): one thread, while there is something to write."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import pytest

from referee.store import writer
from referee.store.base import Write
from referee.store.writer import GroupWriter

WRITE = Write("t1", 1, 1, {"type": "draw"}, None, {"outcome": "accepted"})


def threads_named(name: str) -> int:
    return sum(thread.name == name for thread in threading.enumerate())


def test_an_idle_writer_holds_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A store nobody writes any more (one a test or a command forgot to close) keeps no
    thread: the writer's ends once idle, and the next write starts another."""
    monkeypatch.setattr(writer, "IDLE_S", 0.05)
    groups: list[int] = []

    def commit(writes: Sequence[Write]) -> list[BaseException | None]:
        groups.append(len(writes))
        return [None] * len(writes)

    idle = GroupWriter(commit, "writer-under-test")
    idle.submit(WRITE).result(timeout=5)
    assert threads_named("writer-under-test") == 1
    deadline = time.monotonic() + 5
    while threads_named("writer-under-test") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threads_named("writer-under-test") == 0
    idle.submit(WRITE).result(timeout=5)  # a thread again
    idle.close()
    assert groups == [1, 1] and threads_named("writer-under-test") == 0


def test_a_group_whose_commit_fails_fails_every_write_of_it() -> None:
    def commit(writes: Sequence[Write]) -> list[BaseException | None]:
        raise OSError("disk full")

    failing = GroupWriter(commit, "failing-writer")
    futures = [failing.submit(WRITE) for _ in range(3)]
    assert all(isinstance(f.exception(timeout=5), OSError) for f in futures)
    failing.close()
    with pytest.raises(RuntimeError):  # closed: no write is taken
        failing.submit(WRITE)
