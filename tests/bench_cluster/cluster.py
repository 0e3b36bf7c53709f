"""Referee processes serving one store, as deployed: `referee serve --port 0` each, started
together and reached through the port each prints."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from referee.bench import listening_address, serve_command

STOP_TIMEOUT_S = 30


@dataclass(frozen=True)
class Referee:
    address: str
    pid: int


@contextlib.contextmanager
def referees(store: Sequence[str], count: int) -> Iterator[list[Referee]]:
    """`count` referees on `store` (`--db FILE`, `--store URL`), stopped by SIGTERM after."""
    started: list[subprocess.Popen[str]] = []
    try:
        for _ in range(count):  # all started before any is waited for: they start in parallel
            command = serve_command(store)
            started.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
        yield [Referee(listening_address(process), process.pid) for process in started]
    finally:
        for process in started:
            process.terminate()
        for process in started:
            process.communicate(timeout=STOP_TIMEOUT_S)
