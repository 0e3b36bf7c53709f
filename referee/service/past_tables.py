"""A table as it was at a past version (Explain judges a proposal again on it), rebuilt from the
store at a cost that does not grow with the table's length: restored from its snapshot at that
version or before it (the store keeps one every `SNAPSHOT_EVERY` moves), with only the moves after
the snapshot read and folded in.

It is the table the fold of the log's first moves gives, by `snapshot.restore`'s promise (the one
loading a live table relies on: `tables`), through the same fold, `Table.fold`. A snapshot that
does not fit (its spec changed since, say) is set aside and the log folded from its first move.
The moves before the snapshot are read only if the fold asks for them: a rewind ruling folds the
log again up to the version it rewinds to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import structlog

from referee.engine import snapshot
from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.snapshot import SnapshotError
from referee.engine.table import Table
from referee.errors import RefereeError
from referee.model import Move
from referee.service.stored_log import StoredLog
from referee.store.base import Proposal, Snapshot, Store

log = structlog.get_logger("referee.service")


@dataclass(frozen=True)
class PastTable:
    table: Table
    folded: int  # the log's moves judged again to rebuild it: its cost
    read: int  # the log's moves read from the store


def table_at(
    store: Store,
    game: Game,
    setup: TableSetup,
    table_id: str,
    version: int,
    *,
    from_snapshot: bool = True,
) -> PastTable:
    """The table at `version` (at most its version now), from its nearest snapshot unless
    `from_snapshot` is off (the fold of its whole log: what the snapshot's table must equal)."""
    stored = store.snapshot_before(table_id, version) if from_snapshot else None
    past = None if stored is None else _restored(store, game, setup, table_id, version, stored)
    if past is None:
        moves = store.moves_between(table_id, 0, version)
        whole = [*map(_logged, moves)]
        past = PastTable(Table.replay(game, setup, whole), len(moves), len(moves))
    if past.table.version != version:
        raise RefereeError(
            f"table `{table_id}` has no version {version}: its log folds to {past.table.version}"
        )
    return past


def _restored(
    store: Store, game: Game, setup: TableSetup, table_id: str, version: int, stored: Snapshot
) -> PastTable | None:
    """The table at `version` from `stored`, or None if the snapshot does not fit."""
    skipped = max(0, stored.version - 1)  # the snapshot's last move is read: its check
    later = store.moves_between(table_id, skipped, version)
    earlier: list[Sequence[Proposal]] = []  # read only if the fold asks for them

    def read_earlier() -> list[tuple[int, Move]]:
        earlier.append(store.moves_between(table_id, 0, skipped))
        return [*map(_logged, earlier[0])]

    moves = StoredLog(skipped, map(_logged, later), read_earlier)
    try:
        table = snapshot.restore(game, setup, stored.data, moves)
    except SnapshotError as refused:  # loading the table warned of its latest: not each Explain
        log.debug("snapshot_refused", table=table_id, version=stored.version, why=str(refused))
        return None
    read = len(later) + sum(map(len, earlier))
    return PastTable(table, version - stored.version, read)


def _logged(stored: Proposal) -> tuple[int, Move]:
    return stored.seat, Move.from_data(stored.move)
