"""A referee in a process of its own, as deployed, for the scripted attacks: its address, and
what it costs the machine (resident memory, threads) read from /proc."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.support.served import REFEREE, served


@dataclass(frozen=True)
class Served:
    address: str
    pid: int
    http_port: int | None = None  # with `--http 0`

    def _status(self, key: str) -> int:
        lines = Path(f"/proc/{self.pid}/status").read_text().splitlines()
        return int(next(line.split()[1] for line in lines if line.startswith(key + ":")))

    @property
    def rss_kb(self) -> int:
        return self._status("VmRSS")

    @property
    def threads(self) -> int:
        return self._status("Threads")


@contextlib.contextmanager
def referee(
    *flags: str,
    undefended: str | None = None,
    preexec: Callable[[], None] | None = None,
    quiet: bool = False,
) -> Iterator[Served]:
    """`referee serve --port 0 FLAGS` (add `--memory` or `--db`), stopped with SIGTERM after;
    `undefended`: with that defence taken out (`undefended.py`); `preexec`: run in the child
    before it starts (a resource limit, say); `quiet`: its log (stderr) is dropped."""
    program = REFEREE
    if undefended is not None:
        program = (sys.executable, str(Path(__file__).with_name("undefended.py")), undefended)
    with served(
        "--log-level",
        "warning",
        *flags,
        program=program,
        stderr=subprocess.DEVNULL if quiet else None,
        preexec=preexec,
    ) as started:
        yield Served(started.address, started.pid, started.http_port)
