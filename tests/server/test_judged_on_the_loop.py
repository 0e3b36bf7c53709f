"""A proposal is judged on the event loop that received it, and its write committed by the
store's writer (issue 28, DESIGN.md "Serving a proposal"): a slow disk holds up no health check,
no view of another table, and no worker thread; writes queued while one group commits are
committed together."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.app import ServerConfig
from referee.engine.game import Game
from referee.engine.table import Table
from referee.model import Move, Verdict
from referee.service import RefereeService
from referee.store.base import Write
from referee.store.sqlite import SqliteStore
from tests.support.server import DEAL, OpenTable, open_table, serving

LOOP_THREAD = "referee-grpc"  # `referee.app.create_server`'s
HELD_S = 30  # longest the slow disk holds a commit (the test releases it long before)
ANSWER_S = 5  # longest wait for an answer that does not wait for the held commit
STALLED_S = 2  # the control's view of table B: it waits for the held commit, and fails


class SlowDisk(SqliteStore):
    """A real SQLite store whose writer, once `hold` is set, holds its next group until
    `release` is set (a disk that takes its time to sync)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.hold = threading.Event()
        self.holding = threading.Event()
        self.release = threading.Event()
        self.groups: list[int] = []  # the size of each group committed
        self.submitted = 0

    def submit(self, write: Write) -> Future[None]:
        self.submitted += 1
        return super().submit(write)

    def _write_group(self, writes: Sequence[Write]) -> list[BaseException | None]:
        if self.hold.is_set():
            self.hold.clear()
            self.holding.set()
            self.release.wait(HELD_S)
        self.groups.append(len(writes))
        return super()._write_group(writes)


@pytest.fixture
def judged_in(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each thread a move is judged in."""
    threads: list[str] = []
    judge = Table.propose

    def propose(table: Table, seat: int, move: Move) -> Verdict:
        threads.append(threading.current_thread().name)
        return judge(table, seat, move)

    monkeypatch.setattr(Table, "propose", propose)
    return threads


@pytest.mark.parametrize("sole_writer", [True, False])
def test_a_proposal_is_judged_on_the_event_loop(
    sole_writer: bool, tmp_path: Path, games: dict[str, Game], judged_in: list[str]
) -> None:
    """A table is judged on the loop once it is in memory, whether other processes write its
    store (it is caught up with the store first, by a thread) or not. The control: a table not
    in memory yet (created through another service on the same file) is loaded, and judged, on
    a worker thread: the loop does not wait on the disk."""
    creator = RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)
    service = RefereeService(
        SqliteStore(tmp_path / "t.db"), games, allow_stacked=True, sole_writer=sole_writer
    )
    created = creator.create_table("pontinho", seats=3, deal=DEAL)
    with serving(service, ServerConfig()) as address, grpc.insecure_channel(address) as channel:
        table = OpenTable(RefereeStub(channel), created.table_id, created.tokens, "")
        assert table.propose(1, "draw", move_id="m-1").outcome == pb.OUTCOME_ACCEPTED
        assert table.propose(1, "draw", move_id="m-2").outcome == pb.OUTCOME_REJECTED
        assert table.propose(1, "draw", move_id="m-3").outcome == pb.OUTCOME_REJECTED
    creator.close()
    on_loop = [name == LOOP_THREAD for name in judged_in]
    assert on_loop == [False, True, True]  # loaded on a worker, then in memory


def wait_until(holds: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + ANSWER_S
    while not holds():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def slow_disk(tmp_path: Path) -> Iterator[SlowDisk]:
    store = SlowDisk(tmp_path / "t.db")
    yield store
    store.release.set()  # whatever a failed test left held


@pytest.mark.parametrize("views_wait_on_the_loop", [True, False])
def test_a_slow_disk_stalls_no_health_check_and_no_view(
    views_wait_on_the_loop: bool,
    slow_disk: SlowDisk,
    games: dict[str, Game],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While table A's move is held on its way to the disk, the health check and table B's view
    answer, however many views of A wait for its commit: they wait on the event loop, holding
    no worker thread. The control: views of A sent to the workers at once take them all, and
    B's view waits for A's disk."""
    if not views_wait_on_the_loop:

        async def at_once(self: RefereeService, table_id: str) -> None:
            return None

        monkeypatch.setattr(RefereeService, "committed", at_once)
    service = RefereeService(slow_disk, games, allow_stacked=True, sole_writer=True)
    config = ServerConfig(max_workers=4)
    with (
        serving(service, config) as address,
        grpc.insecure_channel(address) as channel,
        ThreadPoolExecutor(16) as pool,
    ):
        stub = RefereeStub(channel)
        a, b = open_table(stub), open_table(stub)
        slow_disk.hold.set()
        proposed = pool.submit(a.propose, 1, "draw")
        assert slow_disk.holding.wait(ANSWER_S)
        views_of_a = [pool.submit(a.view, seat) for seat in (0, 1, 2, None) * 2]
        threading.Event().wait(0.5)  # time for the views of A to reach the server
        health = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=""), timeout=ANSWER_S
        )
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        try:
            seen_by_b = stub.GetView(pb.GetViewRequest(table_id=b.table_id), timeout=STALLED_S)
        except grpc.RpcError as error:
            assert not views_wait_on_the_loop
            assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        else:
            assert views_wait_on_the_loop
            assert seen_by_b.version == 0
        assert not proposed.done()  # all the above answered while A's move was held
        slow_disk.release.set()
        assert proposed.result(timeout=ANSWER_S).outcome == pb.OUTCOME_ACCEPTED
        # a view of A waited for the commit: none shows the move before it is durable, or
        # misses it after
        assert all(view.result(timeout=ANSWER_S)["version"] == 1 for view in views_of_a)


def test_writes_queued_while_a_group_commits_are_committed_together(
    slow_disk: SlowDisk, games: dict[str, Game]
) -> None:
    service = RefereeService(slow_disk, games, allow_stacked=True, sole_writer=True)
    with (
        serving(service, ServerConfig()) as address,
        grpc.insecure_channel(address) as channel,
        ThreadPoolExecutor(8) as pool,
    ):
        stub = RefereeStub(channel)
        tables: list[OpenTable] = [open_table(stub) for _ in range(5)]
        slow_disk.hold.set()
        first = pool.submit(tables[0].propose, 1, "draw")
        assert slow_disk.holding.wait(ANSWER_S)
        submitted = slow_disk.submitted
        queued = [pool.submit(table.propose, 1, "draw") for table in tables[1:]]
        assert wait_until(lambda: slow_disk.submitted == submitted + 4)
        slow_disk.release.set()
        verdicts = [call.result(timeout=ANSWER_S) for call in [first, *queued]]
    assert all(v.outcome == pb.OUTCOME_ACCEPTED for v in verdicts)
    assert slow_disk.groups[-2:] == [1, 4]  # the held one, then the four queued behind it


class FailingDisk(SqliteStore):
    """A real SQLite store whose next group fails to commit once `fail` is set."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.fail = False

    def _write_group(self, writes: Sequence[Write]) -> list[BaseException | None]:
        if self.fail:
            self.fail = False
            raise sqlite3.OperationalError("disk I/O error")
        return super()._write_group(writes)


def test_a_move_the_writer_did_not_commit_is_not_kept(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """The table judged the move on the loop, then its commit failed: the call fails, and the
    table, dropped, is loaded again from the store, without the move."""
    store = FailingDisk(tmp_path / "t.db")
    service = RefereeService(store, games, allow_stacked=True, sole_writer=True)
    with serving(service, ServerConfig()) as address, grpc.insecure_channel(address) as channel:
        table = open_table(RefereeStub(channel))
        store.fail = True
        with pytest.raises(grpc.RpcError) as failed:
            table.propose(1, "draw", move_id="m-1")
        assert failed.value.code() != grpc.StatusCode.OK
        assert table.version() == 0
        assert table.propose(1, "draw", move_id="m-1").outcome == pb.OUTCOME_ACCEPTED
        assert table.version() == 1
    assert SqliteStore(tmp_path / "t.db").version(table.table_id) == 1
