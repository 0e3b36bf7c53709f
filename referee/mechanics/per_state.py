"""What a mechanic works out from a state, kept while that very state object lives (or what
its table's states share: a rummy table's `Lineage`).

A state is never changed once a move made it (every move is judged on a copy, or written copy on
write), so anything computed from it alone holds until it is dropped: a proposal rejected at a
state leaves the next proposal the same state, and what judging the first found (the lay-offs
that fit a meld, say) serves the second. The values go with their object: nothing is kept across
tables.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
KEPT_MOST = 512  # values kept for one object: past that, the oldest half is dropped


class PerState:
    """Values by key, kept per object (a state: compared by identity, held weakly)."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[weakref.ref[Any], dict[Hashable, Any]]] = {}

    def values(self, state: object) -> dict[Hashable, Any]:
        """The values kept for `state` (a new, empty dict the first time)."""
        key = id(state)
        entry = self._kept.get(key)
        if entry is not None and entry[0]() is state:
            return entry[1]
        values: dict[Hashable, Any] = {}
        self._kept[key] = (weakref.ref(state, self._forget(key)), values)
        return values

    def get(self, state: object, key: Hashable, compute: Callable[[], T]) -> T:
        """`compute()`, once for `state` and `key`: `key` must name everything it reads
        besides `state` itself."""
        values = self.values(state)
        if key in values:
            found: T = values[key]
            return found
        value = values[key] = compute()
        if len(values) > KEPT_MOST:
            for old in list(values)[: KEPT_MOST // 2]:
                del values[old]
        return value

    def _forget(self, key: int) -> Callable[[weakref.ref[Any]], None]:
        def forget(ref: weakref.ref[Any]) -> None:
            entry = self._kept.get(key)
            if entry is not None and entry[0] is ref:  # not a later state at the same address
                del self._kept[key]

        return forget

    def __len__(self) -> int:
        return len(self._kept)
