"""A live table's log (its moves, or their verdicts' events) as memory holds it: the entries from
its snapshot on are read with the table, the first `skipped` only when something asks for them
(a Watch from an early version, a game record), in one read of the store.

A slice that reaches into the unread entries stays unread (`Table.resumed` keeps such a slice
for its `history`): it reads them when it is itself read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class StoredLog(Sequence[T]):
    def __init__(
        self, skipped: int, later: Iterable[T], read_skipped: Callable[[], Sequence[T]]
    ) -> None:
        self._skipped = skipped
        self._later = list(later)
        self._earlier: Sequence[T] | None = None if skipped else ()
        self._read_skipped = read_skipped

    def __len__(self) -> int:
        return self._skipped + len(self._later)

    def append(self, entry: T) -> None:
        self._later.append(entry)

    def earlier(self) -> Sequence[T]:
        """The first `skipped` entries, read from the store on first need."""
        if self._earlier is None:
            read = tuple(self._read_skipped())
            if len(read) != self._skipped:
                raise ValueError(f"the store gave {len(read)} first moves, not {self._skipped}")
            self._earlier = read
        return self._earlier

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1 and start >= self._skipped:
                return self._later[start - self._skipped : stop - self._skipped]
            if step == 1 and self._earlier is None:
                return _Unread(self, start, max(start, stop))
            return [self[i] for i in range(start, stop, step)]
        position = index + len(self) if index < 0 else index
        if not 0 <= position < len(self):
            raise IndexError(index)
        if position >= self._skipped:
            return self._later[position - self._skipped]
        return self.earlier()[position]


class _Unread(Sequence[T]):
    """Entries `start`..`stop` of a log, some not read yet: read when first asked for."""

    def __init__(self, log: StoredLog[T], start: int, stop: int) -> None:
        self._log, self._start, self._stop = log, start, stop
        self._entries: list[T] | None = None

    def __len__(self) -> int:
        return self._stop - self._start

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if self._entries is None:
            self._entries = [self._log[i] for i in range(self._start, self._stop)]
        return self._entries[index]
