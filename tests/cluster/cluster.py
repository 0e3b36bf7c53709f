"""Several `referee serve` processes on one PostgreSQL database: what the cluster tests share.

`CLUSTER_SCALE` sizes the runs: 1 is the issue's (200 rounds of a race, 1,000 moves under
`kill -9`: `make cluster`), 0.15 a short pass. `make test` runs the short pass of one truth
among the processes (`test_one_truth.py`: races, watchers, alternating processes, a frozen one);
the failures (`test_failures.py`: kill -9, a PostgreSQL restart, claim windows and turns whose
process died) run only where the scale is set (`make cluster`): PostgreSQL and several referee
processes for most of a minute of the two cores.
"""

from __future__ import annotations

import os
import signal
from concurrent.futures import ThreadPoolExecutor

import pytest

from referee_client.client import RefereeClient
from tests.support.server import ServerProcess

SCALE = float(os.environ.get("CLUSTER_SCALE", "0.15"))
# the failure tests' mark: `make cluster` sets the scale and runs them
ONLY_IN_MAKE_CLUSTER = pytest.mark.skipif(
    "CLUSTER_SCALE" not in os.environ, reason="make cluster runs it"
)


def scaled(size: int) -> int:
    """`size` at the issue's scale, multiplied by `CLUSTER_SCALE`."""
    return max(1, round(size * SCALE))


class Cluster:
    """`size` real referee processes (`--store URL`), each reached by its own client."""

    def __init__(self, url: str, size: int) -> None:
        self.url = url
        with ThreadPoolExecutor(size) as starting:  # each takes a second or so: side by side
            self.processes = list(starting.map(lambda _: self._start(), range(size)))

    def _start(self) -> ServerProcess:
        return ServerProcess(store=["--store", self.url])

    def __len__(self) -> int:
        return len(self.processes)

    def client(self, index: int) -> RefereeClient:
        """A client of process `index` (modulo the size), on that process's channel."""
        process = self.processes[index % len(self.processes)]
        return RefereeClient(process.address, channel=process.channel)

    def freeze(self, index: int) -> None:
        self.processes[index].process.send_signal(signal.SIGSTOP)

    def thaw(self, index: int) -> None:
        self.processes[index].process.send_signal(signal.SIGCONT)

    def kill(self, index: int) -> None:
        self.processes[index].kill()

    def restart(self, index: int) -> None:
        """A new process in the place of `index` (killed or stopped before)."""
        self.processes[index] = self._start()

    def stop(self) -> list[int]:
        """Stop every process still running; their exit codes."""
        codes = []
        for process in self.processes:
            if process.process.poll() is None:
                process.process.send_signal(signal.SIGCONT)  # a frozen one must hear SIGTERM
                codes.append(process.stop())
        return codes
