"""Several `referee serve` processes on one PostgreSQL database: what the cluster tests share.

`CLUSTER_SCALE` sizes the runs: 1 is the issue's (200 rounds of a race, 1,000 moves under
`kill -9`: `make cluster`), 0.15 a short pass. `make test` runs the short pass of one truth
among the processes (`test_one_truth.py`: races, watchers, alternating processes, a frozen one)
and of HAProxy in front of three (`test_proxy.py`: a table's calls on one process, kill -9 and a
restart behind it); the failures (`test_failures.py`: kill -9, a PostgreSQL restart, claim windows and turns whose
process died) run only where the scale is set (`make cluster`): PostgreSQL and several referee
processes for most of a minute of the two cores.
"""

from __future__ import annotations

import json
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from referee_client.client import RefereeClient
from tests.support import served
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
    """`size` real referee processes (`--store URL`), each reached by its own client; with
    `http`, each serves the page and its HTTP API too (`--http`, its port in `http_ports`)."""

    def __init__(self, url: str, size: int, *, http: bool = False) -> None:
        self.url = url
        self.http = http
        with ThreadPoolExecutor(size) as starting:  # each takes a second or so: side by side
            started = list(starting.map(lambda _: self._start(), range(size)))
        self.processes = [process for process, _ in started]
        self.http_ports = [port for _, port in started]

    def _start(self, grpc_port: int = 0, http_port: int = 0) -> tuple[ServerProcess, int]:
        """A process on those ports (0: any free one); its HTTP port (0 without `http`)."""
        flags = self._flags()
        if grpc_port:  # a later --port wins over ServerProcess's own `--port 0`
            flags += ["--port", str(grpc_port)]
        if self.http:
            flags += ["--http", str(http_port)]
        process = ServerProcess(store=flags)
        return process, served.http_port(process.process) if self.http else 0

    def _flags(self) -> list[str]:
        """What each process serves on (its store), before its ports."""
        return ["--store", self.url]

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

    def restart(self, index: int, *, same_address: bool = False) -> None:
        """A new process in the place of `index` (killed or stopped before); on the ports it
        had with `same_address` (where a proxy looks for it), else on new ones."""
        if same_address:
            port = int(self.processes[index].address.rsplit(":", 1)[1])
            started = self._start(port, self.http_ports[index])
        else:
            started = self._start()
        self.processes[index], self.http_ports[index] = started

    def events(self, index: int, event: str) -> list[dict[str, Any]]:
        """The log lines of process `index` for `event` so far (its stderr, JSON lines)."""
        log = self.processes[index].log
        # read where it is, not from a seek: the process writes through the same file offset
        text = os.pread(log.fileno(), os.fstat(log.fileno()).st_size, 0).decode()
        lines = (json.loads(line) for line in text.splitlines() if line.startswith("{"))
        return [line for line in lines if line.get("event") == event]

    def stop(self) -> list[int]:
        """Stop every process still running; their exit codes."""
        codes = []
        for process in self.processes:
            if process.process.poll() is None:
                process.process.send_signal(signal.SIGCONT)  # a frozen one must hear SIGTERM
                codes.append(process.stop())
        return codes
