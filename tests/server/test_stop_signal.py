"""A stop signal is acted on whichever thread the kernel hands it to. A signal sent to a process
lands on any thread that does not block it, gRPC's own among them, while Python runs its handler
on the main thread only when that thread wakes: a main thread asleep in a wait with no timeout
slept through it, and `referee serve` hung on SIGTERM (seen twice in CI)."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess

from tests.support.server import ServerProcess

SYS_TGKILL = 234  # x86-64; aarch64's is 131
LIBC = ctypes.CDLL(None, use_errno=True)


def tgkill(pid: int, tid: int, signum: int) -> None:
    number = SYS_TGKILL if os.uname().machine == "x86_64" else 131
    if LIBC.syscall(number, pid, tid, signum) != 0:
        raise OSError(ctypes.get_errno(), "tgkill")


def test_sigterm_to_a_thread_that_is_not_the_main_one_stops_the_server() -> None:
    server = ServerProcess(store=["--memory"])
    pid = server.process.pid
    others = sorted(int(tid) for tid in os.listdir(f"/proc/{pid}/task") if int(tid) != pid)
    assert others  # gRPC's threads, the scheduler's...
    tgkill(pid, others[-1], signal.SIGTERM)
    try:
        assert server.process.wait(timeout=10) == 0  # well before the stop's own watchdog
    except subprocess.TimeoutExpired:
        server.process.kill()
        raise
    finally:
        server.channel.close()
        assert server.process.stdout is not None
        server.process.stdout.close()
        server.log.close()
