"""What the durability attacks share: the moves they play, and the ledger of the acknowledged ones
audited against what the store holds afterwards.

Every table is Pontinho played by draw and discard alone, so each proposal is legal when it is
made and each acknowledged one is a version of its table: the audit can say, move by move, whether
the store holds it at the version its verdict gave.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import NotFound
from referee.store.base import Store


def draw_or_discard(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The acting seat's next move, from its own view: draw, then discard a random card."""
    legal = view.get("legal_moves", [])
    if "draw" in legal:
        return {"type": "draw"}
    if "discard" in legal:
        return {"type": "discard", "card": rng.choice(view["hand"])}
    raise AssertionError(f"seat {view.get('seat')} can neither draw nor discard: {legal}")


@dataclass(frozen=True)
class Audit:
    acknowledged: int
    lost: int  # acknowledged, but not in the store at the version its verdict gave
    doubled: int  # a move id stored more than once
    unacknowledged: int  # in the store, never acknowledged (the move in flight at a power cut)


class Ledger:
    """Each table's acknowledged move ids, in version order; shared by the client threads."""

    def __init__(self) -> None:
        self._moves: dict[str, list[str]] = {}
        self._changed = threading.Condition()

    def open(self, table_id: str) -> None:
        with self._changed:
            self._moves[table_id] = []

    def acknowledge(self, table_id: str, version: int, move_id: str) -> None:
        """An accepted verdict reached its client: it must be the table's next version."""
        with self._changed:
            moves = self._moves[table_id]
            assert version == len(moves) + 1, (
                f"table {table_id}: move {move_id} accepted as version {version} after {len(moves)}"
            )
            moves.append(move_id)
            self._changed.notify_all()

    def version(self, table_id: str) -> int:
        with self._changed:
            return len(self._moves[table_id])

    def total(self) -> int:
        with self._changed:
            return sum(len(moves) for moves in self._moves.values())

    def wait_for_total(self, total: int, timeout_s: float) -> bool:
        with self._changed:
            return self._changed.wait_for(
                lambda: sum(len(m) for m in self._moves.values()) >= total, timeout_s
            )

    def audit(self, store: Store) -> Audit:
        lost = doubled = unacknowledged = 0
        for table_id, acknowledged in self._moves.items():
            stored = _stored_ids(store, table_id)
            lost += sum(
                1
                for seq, move_id in enumerate(acknowledged)
                if seq >= len(stored) or stored[seq] != move_id
            )
            doubled += len(stored) - len(set(stored))
            unacknowledged += len(set(stored) - set(acknowledged))
        return Audit(self.total(), lost, doubled, unacknowledged)


def _stored_ids(store: Store, table_id: str) -> list[str | None]:
    """The move ids of the table's accepted moves, by version (none if the table was lost)."""
    try:
        record = store.load_table(table_id)
    except NotFound:
        return []
    return [move.move_id for move in record.moves]
