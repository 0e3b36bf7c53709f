"""A power cut for SQLite: a VFS that knows, per file, what a disk would still hold.

`PowerCut` is an apsw VFS that forwards every call to the default (unix) VFS, so SQLite reads back
what it wrote as it would from the page cache, and beside each file keeps a `Platter`: the image
made durable by the last `xSync`, and the writes and truncations made since, which only the page
cache holds. The real fsync is skipped: the platters are the disk. At a power cut each file is left
as its platter says: the synced image, plus each later sector that the kernel happened to write
back (none, or each with a seeded chance: `keep`). Sectors are 512 bytes, so a page written but
not synced may be torn. The `-shm` index is mapped memory that SQLite never syncs: it is left as
it was in memory at the cut, newer than the log that survived (SQLite must rebuild it, not trust
it). Creating and deleting a file count as durable at once (a directory's own sync is not
modelled).

The store opens its database through `PowerCut.connect`, which gives it `ApswConnection`, the few
`sqlite3.Connection` methods it uses (`referee.store.sqlite.Connection`) over apsw, so the store's
own pragmas, statements and group commits run unchanged on the VFS. The cut is armed at a commit:
`arm(commit, op)` cuts before the `op`-th file operation counted from the start of the
`commit`-th COMMIT (0: before it writes anything; past its last write or sync: after it).
"""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import apsw

from referee.store.sqlite import BUSY_TIMEOUT_S

SECTOR = 512


@dataclass
class Platter:
    """One file as the disk holds it: the synced image, and what only the page cache holds."""

    durable: bytearray = field(default_factory=bytearray)
    # in order: (offset, data) for a write, (size, None) for a truncation
    pending: list[tuple[int, bytes | None]] = field(default_factory=list)

    def write(self, offset: int, data: bytes) -> None:
        self.pending.append((offset, bytes(data)))

    def truncate(self, size: int) -> None:
        self.pending.append((size, None))

    def sync(self) -> None:
        for offset, data in self.pending:
            _apply(self.durable, offset, data)
        self.pending.clear()

    def survivor(self, keep: Callable[[], bool]) -> bytes:
        """The file after a power cut: the synced image, with each unsynced sector if `keep()`."""
        image = bytearray(self.durable)
        for offset, data in self.pending:
            for start, piece in [(offset, None)] if data is None else _sectors(offset, data):
                if keep():
                    _apply(image, start, piece)
        return bytes(image)


def _sectors(offset: int, data: bytes) -> Iterator[tuple[int, bytes]]:
    """`data` written at `offset`, cut at the disk's sector boundaries."""
    position = offset
    while position < offset + len(data):
        end = min(offset + len(data), (position // SECTOR + 1) * SECTOR)
        yield position, data[position - offset : end - offset]
        position = end


def _apply(image: bytearray, offset: int, data: bytes | None) -> None:
    """Write `data` at `offset` (zeros fill a gap), or set the size to `offset` if `data` is None."""
    if data is None:
        del image[offset:]
    if offset > len(image):
        image.extend(bytes(offset - len(image)))
    if data is not None:
        image[offset : offset + len(data)] = data


class PowerCut(apsw.VFS):
    """The default VFS, and the disk a power cut would leave (see the module docstring)."""

    def __init__(self, name: str, rng: random.Random, keep: float) -> None:
        super().__init__(name, "")
        self.name = name
        self.platters: dict[str, Platter] = {}
        self.power = threading.Lock()  # held while acknowledging a move, and to cut
        self.powered = True
        self.commits = 0
        self.ops = 0
        self.armed_at = 0  # the commits made before `arm`
        self.commits_at_cut = 0
        self.cut_commit: int | None = None
        self.cut_op: int | None = None
        self.cut_at: int | None = None  # the operation before which the power goes
        self.image: dict[str, bytes] = {}  # file name -> what the disk held after the cut
        self.connection: ApswConnection | None = None
        self._lock = threading.Lock()
        self._survives = lambda: rng.random() < keep

    def connect(self, path: Path) -> ApswConnection:
        self.connection = ApswConnection(path, self)
        return self.connection

    def arm(self, commit: int, op: int) -> None:
        """Cut the power at the `op`-th file operation of the `commit`-th commit from now."""
        with self._lock:
            self.armed_at = self.commits
            self.cut_commit, self.cut_op = self.commits + commit, op

    def commit_begins(self) -> None:
        with self._lock:
            self.commits += 1
            if self.commits == self.cut_commit and self.cut_op is not None:
                self.cut_at = self.ops + self.cut_op

    def operation(self, name: str, act: Callable[[Platter], None]) -> None:
        """One write, truncation or sync of file `name`, after the power cut if its time came."""
        with self._lock:
            if self.powered and self.ops == self.cut_at:
                self._cut()
            self.ops += 1
            if self.powered:
                act(self.platters.setdefault(name, Platter()))

    def _cut(self) -> None:
        with self.power:
            self.powered = False
        self.commits_at_cut = self.commits
        self.image = {
            name: platter.survivor(self._survives) for name, platter in self.platters.items()
        }
        for name in list(self.image):
            shm = Path(name + "-shm")
            if shm.exists():
                self.image[str(shm)] = shm.read_bytes()

    def write_image(self, folder: Path) -> None:
        """The files as the disk held them after the cut, under their own names in `folder`."""
        assert not self.powered, "the power was never cut"
        folder.mkdir()
        for name, data in self.image.items():
            (folder / Path(name).name).write_bytes(data)

    def opened(self, name: str) -> None:
        with self._lock:
            if self.powered and name not in self.platters and Path(name).exists():
                self.platters[name] = Platter(bytearray(Path(name).read_bytes()))

    def xOpen(self, name: str | apsw.URIFilename | None, flags: list[int]) -> apsw.VFSFile:
        return PowerCutFile(self, name, flags)

    def xDelete(self, filename: str, syncdir: bool) -> None:
        with self._lock:
            if self.powered:
                self.platters.pop(filename, None)
        super().xDelete(filename, syncdir)


class PowerCutFile(apsw.VFSFile):
    """A file of the default VFS whose writes and syncs its `PowerCut` also keeps."""

    def __init__(
        self, vfs: PowerCut, name: str | apsw.URIFilename | None, flags: list[int]
    ) -> None:
        self.vfs = vfs
        self.name = name.filename() if isinstance(name, apsw.URIFilename) else name
        super().__init__("", name, flags)
        if self.name is not None:
            vfs.opened(self.name)

    def xWrite(self, data: bytes, offset: int) -> None:
        if self.name is not None:
            self.vfs.operation(self.name, lambda platter: platter.write(offset, data))
        super().xWrite(data, offset)

    def xTruncate(self, newsize: int) -> None:
        if self.name is not None:
            self.vfs.operation(self.name, lambda platter: platter.truncate(newsize))
        super().xTruncate(newsize)

    def xSync(self, flags: int) -> None:
        if self.name is not None:
            self.vfs.operation(self.name, Platter.sync)
        # the real fsync is skipped: the platters are the disk


class ApswConnection:
    """`referee.store.sqlite.Connection` over apsw on a `PowerCut`: apsw's errors become
    sqlite3's (the store catches those), and each COMMIT is counted, for `PowerCut.arm`."""

    def __init__(self, path: Path, vfs: PowerCut) -> None:
        self._vfs = vfs
        self._db = apsw.Connection(str(path), vfs=vfs.name)
        self._db.set_busy_timeout(int(BUSY_TIMEOUT_S * 1000))

    @property
    def in_transaction(self) -> bool:
        return bool(self._db.in_transaction)

    def execute(self, sql: str, parameters: Any = ()) -> apsw.Cursor:
        if sql.strip().upper() == "COMMIT":
            self._vfs.commit_begins()
        with _as_sqlite3_errors():
            return self._db.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any) -> apsw.Cursor:
        with _as_sqlite3_errors():
            return self._db.executemany(sql, list(parameters))

    def close(self) -> None:
        self._db.close()


@contextmanager
def _as_sqlite3_errors() -> Iterator[None]:
    try:
        yield
    except apsw.ConstraintError as error:
        raise sqlite3.IntegrityError(str(error)) from error
    except apsw.Error as error:
        raise sqlite3.OperationalError(str(error)) from error
