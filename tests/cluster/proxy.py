"""HAProxy (Debian's 2.6, `make haproxy`) in front of referee processes, run from the shipped
deploy/haproxy.cfg with its addresses changed alone: each `bind` to a free port of this machine,
and each backend's server lines made from its first, one a process (its name numbered, its address
the process's). Everything else, routing, health checks and timeouts, is the shipped file's: a
test here tests what a deployment runs. HAProxy runs in the foreground (`-db`), its runtime API on
a socket of the test's (a second configuration file, `-f`), stopped at the end."""

from __future__ import annotations

import csv
import re
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.support.served import ROOT

HAPROXY = Path("/usr/sbin/haproxy")
SHIPPED = ROOT / "deploy" / "haproxy.cfg"
GRPC, HTTP = "grpc", "http"  # the shipped frontends
BACKENDS = {GRPC: "referee_grpc", HTTP: "referee_http"}
START_TIMEOUT_S = 10.0
# the shipped checks run every second, two to change a server's state: a few seconds at most
STATE_TIMEOUT_S = 15.0


def configured(shipped: str, binds: Mapping[str, str], servers: Mapping[str, Sequence[str]]) -> str:
    """`shipped` with the address of each frontend's `bind` from `binds` (by frontend), and
    each backend's server lines made from its first, one for each address in `servers` (by
    backend): `referee1`, `referee2`, ... Given the shipped addresses, the shipped text."""
    out: list[str] = []
    kind = name = ""  # of the section the line is in: `backend referee_grpc`
    made: set[str] = set()  # the backends whose server lines are made
    for line in shipped.splitlines(keepends=True):
        words = line.split()
        if line[:1].isalpha():  # a section starts
            kind, _, name = line.strip().partition(" ")
        if kind == "frontend" and words[:1] == ["bind"]:
            out.append(line.replace(words[1], binds[name], 1))
        elif kind == "backend" and words[:1] == ["server"]:
            if name not in made:  # its first server line: the others are made from it
                out += _servers(line, words, servers[name])
                made.add(name)
        else:
            out.append(line)
    return "".join(out)


def _servers(first: str, words: list[str], addresses: Sequence[str]) -> list[str]:
    """The server line `first` (named `NAME1`) for each address, named `NAME1`, `NAME2`, ..."""
    base = words[1].rstrip("0123456789")
    named = re.compile(rf"\b{re.escape(words[1])}\b")  # its name, and a `track` of it
    lines = []
    for number, address in enumerate(addresses, start=1):
        line = first.replace(words[2], address, 1)
        lines.append(named.sub(f"{base}{number}", line))
    return lines


def free_port() -> int:
    """A port nothing listens on now (HAProxy binds no port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Backend:
    """A referee process as HAProxy reaches it: its gRPC and HTTP addresses."""

    grpc: str
    http: str


class Haproxy:
    """`haproxy -db` on the shipped configuration, in front of `backends`."""

    def __init__(self, folder: Path, backends: Sequence[Backend]) -> None:
        self.names = [f"referee{number}" for number in range(1, len(backends) + 1)]
        self.grpc_address = f"127.0.0.1:{free_port()}"
        self.http_port = free_port()
        config = folder / "haproxy.cfg"
        config.write_text(
            configured(
                SHIPPED.read_text(),
                {GRPC: self.grpc_address, HTTP: f"127.0.0.1:{self.http_port}"},
                {
                    BACKENDS[GRPC]: [b.grpc for b in backends],
                    BACKENDS[HTTP]: [b.http for b in backends],
                },
            )
        )
        self.socket = folder / "admin.sock"
        runtime = folder / "runtime.cfg"  # not a part of the deployment: the test's eyes
        runtime.write_text(f"global\n    stats socket {self.socket} mode 600 level admin\n")
        # read back when it goes wrong; its warnings say each server's changes of state
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115
        self.process = subprocess.Popen(
            [HAPROXY, "-db", "-f", config, "-f", runtime], stdout=self.log, stderr=self.log
        )
        self.wait_for({}, START_TIMEOUT_S)  # its runtime API answers

    def wait_until_up(self) -> None:
        """Until every server has passed its checks."""
        self.wait_for(dict.fromkeys(self.names, "UP"))

    def states(self) -> dict[str, str]:
        """Each server's state in the gRPC backend (the HTTP one tracks it): UP, DOWN, ..."""
        rows = csv.DictReader(self._ask("show stat").removeprefix("# ").splitlines())
        return {
            row["svname"]: _state(row)
            for row in rows
            if row["pxname"] == BACKENDS[GRPC] and row["svname"] in self.names
        }

    def wait_for(self, wanted: Mapping[str, str], timeout_s: float = STATE_TIMEOUT_S) -> None:
        """Until each server named in `wanted` is in its state there (passing its checks)."""
        give_up = time.monotonic() + timeout_s
        while not _holds(wanted, states := self._states_or_none()):
            if self.process.poll() is not None or time.monotonic() > give_up:
                raise AssertionError(f"HAProxy: {states}, not {dict(wanted)}:\n{self.said()}")
            time.sleep(0.05)

    def _states_or_none(self) -> dict[str, str] | None:
        try:
            return self.states()
        except OSError:  # its socket not bound yet
            return None

    def _ask(self, command: str) -> str:
        with socket.socket(socket.AF_UNIX) as runtime:
            runtime.connect(str(self.socket))
            runtime.sendall(command.encode() + b"\n")
            return b"".join(iter(lambda: runtime.recv(65536), b"")).decode()

    def said(self) -> str:
        self.log.seek(0)
        return self.log.read()[-4000:]

    def stop(self) -> None:
        self.process.terminate()  # a hard stop: at once, its connections closed
        self.process.wait(timeout=10)
        self.log.close()


def _state(row: Mapping[str, str]) -> str:
    """UP once a check has passed (a server starts UP, unchecked), else its status: DOWN, ..."""
    status = row["status"].split()[0]  # `DOWN 1/2`: down, one check of the two to rise passed
    return "UNCHECKED" if status == "UP" and row["check_status"].lstrip("* ") != "L7OK" else status


def _holds(wanted: Mapping[str, str], states: Mapping[str, str] | None) -> bool:
    return states is not None and all(states.get(name) == s for name, s in wanted.items())
