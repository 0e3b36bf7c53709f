"""A served referee: `referee serve --port 0 FLAGS` in a process of its own, as deployed, reached
through the port it prints (a JSON line, `{"address": "HOST:PORT", "event": "listening", ...}`,
then `{"url": "http://HOST:PORT/", "event": "http_listening", ...}` with `--http`). The one way
the tests start one."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
REFEREE = (sys.executable, "-m", "referee")  # the checkout's referee
LISTENING = "listening"  # the events of the lines it prints on stdout
HTTP_ON = "http_listening"
STOP_TIMEOUT_S = 30

Stream = int | IO[Any] | None  # what subprocess takes for stderr


def start(
    *flags: str,
    program: Sequence[str] = REFEREE,
    cwd: Path = ROOT,
    env: Mapping[str, str] | None = None,
    stderr: Stream = None,
    preexec: Callable[[], None] | None = None,
) -> subprocess.Popen[str]:
    """`PROGRAM serve --port 0 FLAGS`, its stdout a pipe of text (the lines `address` and
    `http_port` read); `program`: another launcher (an installed wheel's, a patched referee)."""
    return subprocess.Popen(
        [*program, "serve", "--port", "0", *flags],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        preexec_fn=preexec,
    )


def announced(line: str, event: str) -> dict[str, Any]:
    """The JSON line `serve` printed on stdout, asserted to be `event`'s."""
    try:
        said = json.loads(line)
    except json.JSONDecodeError:
        raise AssertionError(f"not a JSON line: {line!r}") from None
    assert isinstance(said, dict) and said.get("event") == event, (event, line)
    return said


def address(process: subprocess.Popen[str]) -> str:
    """Its first line, the `listening` event with HOST:PORT (blocks until the port is bound):
    where this machine reaches it, 127.0.0.1:PORT (whatever HOST it serves on, 0.0.0.0 say)."""
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line, ("it printed nothing", process.args)
    return "127.0.0.1:" + str(announced(line, LISTENING)["address"]).rsplit(":", 1)[1]


def http_port(process: subprocess.Popen[str]) -> int:
    """Its next line with `--http`, the `http_listening` event with http://HOST:PORT/: PORT."""
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    return int(str(announced(line, HTTP_ON)["url"]).rstrip("/").rsplit(":", 1)[1])


def stop(process: subprocess.Popen[str]) -> None:
    """SIGTERM, and wait for its end (its pipes read and closed)."""
    process.terminate()
    process.communicate(timeout=STOP_TIMEOUT_S)


@dataclass(frozen=True)
class Served:
    process: subprocess.Popen[str]
    address: str  # 127.0.0.1:PORT
    http_port: int | None = None  # with `--http 0`

    @property
    def pid(self) -> int:
        return self.process.pid


@contextlib.contextmanager
def served(*flags: str, **how: Any) -> Iterator[Served]:
    """`start(*flags, **how)`, its address (and HTTP port with `--http`) read; stopped after."""
    process = start(*flags, **how)
    try:
        grpc_address = address(process)
        http = http_port(process) if "--http" in flags else None
        yield Served(process, grpc_address, http)
    finally:
        stop(process)
