"""A referee in a process of its own, as deployed, for the scripted attacks: its address, and
what it costs the machine (resident memory, threads) read from /proc."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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
    launcher = ["-m", "referee"]
    if undefended is not None:
        launcher = [str(Path(__file__).with_name("undefended.py")), undefended]
    command = [
        sys.executable,
        *launcher,
        "serve",
        "--port",
        "0",
        "--log-level",
        "warning",
        *flags,
    ]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if quiet else None,
        text=True,
        preexec_fn=preexec,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "listening on" in line, line
        http_port = None
        if "--http" in flags:
            http_line = process.stdout.readline()
            assert "http on" in http_line, http_line
            http_port = int(http_line.rstrip().rstrip("/").rsplit(":", 1)[1])
        address = "127.0.0.1:" + line.rsplit(":", 1)[1].strip()
        yield Served(address, process.pid, http_port)
    finally:
        process.terminate()
        process.communicate(timeout=30)
