"""One serving referee per SQLite file: the claim `referee serve` holds on its `--db`.

Two processes on one SQLite file are safe but unusable: SQLite has one writer, the busy timeout
makes them take turns, and one starves (issue 13 measured 161 verdicts against 6,897); neither
sees the moves made through the other in its live tables. So `serve` claims the file for its
whole life and a second one refuses to start, pointing at PostgreSQL, made for several.

The claim is `flock` on a sidecar file, `FILE.lock`, that holds its holder's pid:
- the kernel drops an flock when its holder ends, `kill -9` included: no stale claim to clear;
- a sidecar, not the database: SQLite locks the database with POSIX `fcntl` locks, and closing
  any other descriptor of that file drops them all (sqlite.org/howtocorrupt.html, 2.2); Linux
  on NFS makes an flock an `fcntl` lock, which would then collide with SQLite's own;
- not SQLite's `locking_mode=EXCLUSIVE` (which WAL allows, with no shared memory): a second
  process would be told `database is locked` only after the busy timeout, with no word of who
  holds the file, and readers (the `sqlite3` shell, a backup) would be shut out too;
- never deleted: a process that had opened the sidecar just before it went would lock a file no
  newcomer sees, and two would serve.

An flock belongs to one open file description: a second claim in the same process is refused as
another process's would be. So only `serve` claims; stores opened by tests and tools do not.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from referee.errors import FailedPrecondition

SIDECAR_SUFFIX = ".lock"
MAX_PID_BYTES = 32


class ServedElsewhere(FailedPrecondition):
    """Another referee process serves the SQLite file: this one refuses to start."""

    code = "sqlite_served_elsewhere"


def sidecar(database: Path) -> Path:
    """The claim's file, beside the database it names (links resolved: one file, one claim)."""
    resolved = database.resolve()
    return resolved.with_name(resolved.name + SIDECAR_SUFFIX)


class ServingClaim:
    """Held from construction until `release`, or until the process ends, however it ends."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = sidecar(database)
        # os.open: not inherited by child processes, so the claim dies with this one
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(self._fd)
            self.release()
            raise ServedElsewhere(served_elsewhere(database, holder)) from None
        except BaseException:
            self.release()
            raise
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # the flock goes with its last descriptor
            self._fd = None

    def __enter__(self) -> ServingClaim:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


def served_elsewhere(database: Path, holder: int | None) -> str:
    pid = f" (pid {holder})" if holder is not None else ""
    return (
        f"`{database}` is served by another referee process{pid}: one SQLite file serves one "
        "process; to run several, share a PostgreSQL database, "
        "`referee serve --store postgresql://...` (docs/deploying.md)"
    )


def _holder(fd: int) -> int | None:
    """The pid the holder wrote, if it has (it writes just after taking the claim)."""
    text = os.pread(fd, MAX_PID_BYTES, 0).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None
