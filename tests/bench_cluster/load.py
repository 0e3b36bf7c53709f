"""The bench's clients, in processes of their own: a Python process runs at most one core of
Python at a time (its GIL), so 16 client threads in the harness's process would measure the
harness. Each process runs some of the clients as threads, and is kept for the whole run (a
process takes a second or more to start)."""

from __future__ import annotations

import functools
import multiprocessing
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection

from referee.bench import (
    Servers,
    Session,
    Workload,
    health_floor,
    replay_session,
    timed_calls,
    workloads,
)
from referee.plugins.games import load_games

FLOOR = "floor"  # the health check: what a call costs the transport, on the same processes
GAMES = "games"  # client i plays the (i mod 3)th game of the bench's Propose workloads
# between the order to run and the first timed call: each client creates its table (and a
# Tarocchi client reads its views); the floor's clients only open a channel
LEAD_S = {FLOOR: 0.3, GAMES: 1.0}


@dataclass(frozen=True)
class Phase:
    """One measurement, as a client process runs it: its clients (by index), each calling
    `servers[index % len(servers)]`, from `start` to `stop` (wall-clock time)."""

    workload: str
    servers: tuple[Servers, ...]
    clients: tuple[int, ...]
    start: float
    stop: float


@dataclass(frozen=True)
class Window:
    start: float
    stop: float


READY = "ready"  # a client process's first word
RECORDED_MOST = 600  # proposals recorded of each game's bot game (a table replays them, then anew)


@functools.cache
def recorded() -> list[Workload]:
    """The bench's recorded workloads, their accepted moves only: every Propose is committed."""
    return [w.accepted_only() for w in workloads(load_games(), RECORDED_MOST)]


def session_of(workload: str, servers: Sequence[Servers]) -> Callable[[int], Session]:
    """The session of client `index`: the floor, or a game of the bench's workloads."""

    def session(index: int) -> Session:
        where = servers[index % len(servers)]
        if workload == FLOOR:
            return health_floor(where)(index)
        games = recorded()
        w = games[index % len(games)]
        return replay_session(where, w.game, w.setup, w.recorded)(index)

    return session


def _serve(orders: Connection) -> None:
    """A client process: run each phase it is sent, answer each client's latencies (or what
    went wrong, as text: a gRPC error does not pickle), until it is sent None. It records the
    workloads first, and says when it is ready: no phase's window waits on a recording."""
    recorded()
    orders.send(READY)
    while (phase := orders.recv()) is not None:
        try:
            session = session_of(phase.workload, phase.servers)
            orders.send(timed_calls(phase.clients, session, phase.start, phase.stop))
        except Exception as exc:  # noqa: BLE001 - sent to the harness, which raises it
            orders.send(f"{type(exc).__name__}: {exc}")


class ClientProcesses:
    """`count` client processes, spawned (not forked: gRPC does not survive a fork)."""

    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._orders: list[Connection] = []
        self._processes = []
        for _ in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs,), daemon=True)
            process.start()
            theirs.close()
            self._orders.append(ours)
            self._processes.append(process)
        for orders in self._orders:  # each has recorded the workloads
            if orders.recv() != READY:
                raise RuntimeError("a bench client process did not start")
        self._busy: list[Connection] = []

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self._processes if p.pid is not None]

    def used(self, clients: int) -> int:
        """How many of the processes `clients` clients run in."""
        return min(clients, len(self._processes))

    def begin(
        self, workload: str, servers: Sequence[Servers], clients: int, seconds: float
    ) -> Window:
        """Start a phase of `clients` clients, dealt round-robin to the processes: its window."""
        start = time.time() + LEAD_S[workload]
        window = Window(start, start + seconds)
        self._busy = self._orders[: self.used(clients)]
        for k, orders in enumerate(self._busy):
            mine = tuple(range(k, clients, len(self._busy)))
            orders.send(Phase(workload, tuple(servers), mine, window.start, window.stop))
        return window

    def collect(self) -> list[list[float]]:
        """Every client's latencies of the phase begun; a client's failure is raised here."""
        answers = [orders.recv() for orders in self._busy]
        failed = [a for a in answers if isinstance(a, str)]
        if failed:
            raise RuntimeError(f"a bench client failed: {failed[0]}")
        return [per for answer in answers for per in answer]

    def close(self) -> None:
        for orders in self._orders:
            orders.send(None)
        for process in self._processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
