"""The rows of a database store, read back as records: the SQL stores (SQLite, PostgreSQL) keep
the same tables and columns, each value encoded by `codec`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from referee.store import codec
from referee.store.base import Due, Proposal, Snapshot, StoredSpec, TableRecord

# the columns a proposal is selected with, in the order `proposal` reads them
PROPOSAL_COLUMNS = "seat, move, verdict, move_id, seq, created_at"
ProposalRow = tuple[int, str, str, str | None, int | None, str | datetime]
# deadline_number, deadline_at: a table's pending deadline (both NULL: none)
DueRow = tuple[int | None, float | None]
# beyond any table's version (an INTEGER column): the snapshot at it or before is the latest
LATEST = 2**31 - 1


def proposal(row: ProposalRow) -> Proposal:
    seat, move, verdict, move_id, seq, at = row
    return Proposal(seat, codec.decode(move), codec.decode(verdict), move_id, seq, timestamp(at))


def timestamp(at: str | datetime) -> str:
    """A stored time as ISO 8601 in UTC, to the millisecond: SQLite keeps the text it was given
    (`sqlite._now`), PostgreSQL a `timestamptz`."""
    if isinstance(at, datetime):
        return at.astimezone(UTC).isoformat(timespec="milliseconds")
    return at


def due(row: DueRow) -> Due | None:
    number, at = row
    return None if number is None or at is None else Due(int(number), float(at))


def due_columns(deadline: Due | None) -> DueRow:
    return (None, None) if deadline is None else (deadline.number, deadline.at)


def table_record(
    table_id: str,
    setup: str,
    tokens: Iterable[tuple[int, str]],
    moves: Iterable[ProposalRow],
    deadline: DueRow,
    snapshot: tuple[int, str] | None = None,
    rules_version: str | None = None,
) -> TableRecord:
    """A table from its setup, deadline and rules version columns, its seat tokens' digests,
    its accepted proposals (from `skipped_before(snapshot)` on) and its snapshot row."""
    return TableRecord(
        table_id,
        codec.decode(setup),
        dict(tokens),
        tuple(map(proposal, moves)),
        due(deadline),
        snapshot_of(snapshot),
        skipped_before(snapshot),
        rules_version,
    )


def snapshot_of(row: tuple[int, str] | None) -> Snapshot | None:
    """A `snapshots` row (version, data), if found."""
    return None if row is None else Snapshot(int(row[0]), str(row[1]))


def skipped_before(snapshot: tuple[int, str] | None) -> int:
    """How many first moves a load after `snapshot` does not read: all it folds in but its last."""
    return 0 if snapshot is None else max(0, int(snapshot[0]) - 1)


def snapshot_columns(snapshot: Snapshot) -> tuple[int, str]:
    return (snapshot.version, snapshot.data)


def stored_spec(row: tuple[str, str, str] | None) -> StoredSpec | None:
    """A `specs` row (sha256, game, text), if found."""
    return None if row is None else StoredSpec(str(row[0]), str(row[1]), str(row[2]))
