"""A PostgreSQL of one test's own, which the test may stop and start again (pgserver's)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from pgserver._commands import POSTGRES_BIN_PATH
from pgserver.postgres_server import get_server

from tests.support.postgres_server import fresh_database


class RestartablePostgres:
    def __init__(self, scratch: Path) -> None:
        # not under `scratch` (pytest's): the server runs as another user when the tests run as
        # root, and must reach its folder (see tests/support/postgres_server.py)
        self._folder = Path(tempfile.mkdtemp(prefix="referee-restart-pg-"))
        self._server = get_server(self._folder / "data", cleanup_mode="delete")
        self._database = ExitStack()
        self.url = self._database.enter_context(fresh_database(self._server.get_uri()))

    def restart(self, *, down_for_s: float) -> None:
        """Stop the server (fast: open connections are cut), wait, and start it again."""
        subprocess.run(
            [POSTGRES_BIN_PATH / "pg_ctl", "-D", self._server.pgdata, "-w", "-m", "fast", "stop"],
            user=self._server.system_user,  # the server's own (not root), as pgserver runs it
            check=True,
            stdout=subprocess.DEVNULL,  # not a pipe: pg_ctl's server may hold it open
            timeout=30,
        )
        time.sleep(down_for_s)
        self._server.ensure_postgres_running()

    def kill(self) -> None:
        """kill -9 the postmaster, as a crash would, and wait until its backends, seeing it
        gone, have ended too (`start` brings it back, replaying its write-ahead log)."""
        postmaster = self._server.get_pid()
        assert postmaster is not None
        children = subprocess.run(
            ["pgrep", "-P", str(postmaster)], capture_output=True, text=True, check=False
        ).stdout.split()
        os.kill(postmaster, signal.SIGKILL)
        gone_by = time.monotonic() + 30
        while any(map(_running, children)):
            assert time.monotonic() < gone_by, "the killed server's backends are still running"
            time.sleep(0.1)

    def start(self) -> None:
        """Start the server again after `kill` (tried again while the old one's memory is
        still held: its last backends may take a moment to end)."""
        for attempt in range(20):
            try:
                self._server.ensure_postgres_running()
                return
            except subprocess.CalledProcessError:
                if attempt == 19:
                    raise
                time.sleep(0.5)

    def cleanup(self) -> None:
        self._database.close()
        self._server.cleanup()
        shutil.rmtree(self._folder, ignore_errors=True)


def _running(pid: str) -> bool:
    """Whether process `pid` still runs (a zombie, ended but not reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
