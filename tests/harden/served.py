"""A referee in a process of its own, as deployed, for the scripted attacks: its address, and
what it costs the machine (resident memory, threads) read from /proc."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Served:
    address: str
    pid: int

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
def referee(*flags: str) -> Iterator[Served]:
    """`referee serve --port 0 FLAGS` (add `--memory` or `--db`), stopped with SIGTERM after."""
    command = [
        sys.executable,
        "-m",
        "referee",
        "serve",
        "--port",
        "0",
        "--log-level",
        "warning",
        *flags,
    ]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "listening on" in line, line
        yield Served("127.0.0.1:" + line.rsplit(":", 1)[1].strip(), process.pid)
    finally:
        process.terminate()
        process.communicate(timeout=30)
