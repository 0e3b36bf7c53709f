"""How soon a watcher on one referee process sees a move made through another (issue 13: within
100 ms): moves are made through process 0, one at a time, and watched through process 0 itself
(the baseline) and through process 1, which hears of them from PostgreSQL (LISTEN/NOTIFY). The
delay is from the moment the proposer has its verdict to the moment the watcher has the move.
"""

from __future__ import annotations

import random
import statistics
import threading
import time
from collections.abc import Callable, Sequence

from referee_client.client import RefereeClient
from tests.bench_cluster.cluster import Referee
from tests.harden.ledger import draw_or_discard

WAIT_S = 10.0


class Watching:
    """A Watch stream read in a thread: when each version arrived."""

    def __init__(self, client: RefereeClient, table_id: str, last: int) -> None:
        self.arrived: dict[int, float] = {}
        self.started = threading.Event()
        self._thread = threading.Thread(
            target=self._read, args=(client, table_id, last), daemon=True
        )
        self._thread.start()

    def _read(self, client: RefereeClient, table_id: str, last: int) -> None:
        stream = client.watch(table_id)
        self.started.set()
        for update in stream:
            self.arrived[update["version"]] = time.monotonic()
            if update["version"] >= last:
                return

    def join(self) -> None:
        self._thread.join(WAIT_S)


def measure(
    processes: Sequence[Referee], moves: int = 200, say: Callable[[str], None] = print
) -> dict[str, list[float]]:
    """The delays in ms, watched through the proposing process and through another."""
    proposer = RefereeClient(processes[0].address)
    others = {"same process": proposer, "another process": RefereeClient(processes[1].address)}
    table = proposer.create_table("pontinho", seats=3)
    watchers = {name: Watching(client, table.id, moves) for name, client in others.items()}
    for watcher in watchers.values():
        watcher.started.wait(WAIT_S)
    time.sleep(0.2)  # each stream registered before the first move
    rng, answered = random.Random(2), {}
    for version in range(1, moves + 1):
        seat = int(proposer.view(table.id)["to_act"])
        move = draw_or_discard(proposer.view(table.id, table.tokens[seat]), rng)
        assert proposer.propose(table.id, table.tokens[seat], move)["version"] == version
        answered[version] = time.monotonic()
        time.sleep(0.005)  # a move at a time, as people play
    delays = {}
    for name, watcher in watchers.items():
        watcher.join()
        missing = sorted(set(answered) - set(watcher.arrived))
        assert not missing, f"{name}: versions {missing[:5]} never arrived"
        delays[name] = [1000 * (watcher.arrived[v] - answered[v]) for v in answered]
        say(f"{name:<16} {summary(delays[name])}")
    for client in others.values():
        client.close()
    return delays


def summary(delays_ms: list[float]) -> str:
    ordered = sorted(delays_ms)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{len(ordered)} moves: p50 {statistics.median(ordered):5.1f} ms, p99 {p99:5.1f} ms, "
        f"max {ordered[-1]:5.1f} ms"
    )
