"""The rows of a database store, read back as records: the SQL stores (SQLite, PostgreSQL) keep
the same tables and columns, each value encoded by `codec`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from referee.store import codec
from referee.store.base import (
    KEEP,
    Due,
    Listed,
    Proposal,
    Snapshot,
    StoredSpec,
    Summary,
    TableFilter,
    TableRecord,
    Write,
)

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


# over, open_disputes: a table's lobby summary (both NULL: not known yet); the open disputes'
# numbers are kept as text, `3,5` ('': none), so that "has one" is a comparison of the row
SummaryRow = tuple[int | None, str | None]
# the columns a listed table is selected with, in the order `listed` reads them (`{seq}`: the
# table's version, a subquery each SQL store writes its own way)
LISTED_COLUMNS = (
    "t.id, t.setup, ({version}), t.game_over, t.open_disputes, t.deadline_number, t.deadline_at, "
    "t.created_at, t.spec_sha256, {position}"
)
VERSION_OF_ROW = "SELECT COALESCE(MAX(seq), 0) FROM proposals WHERE table_id = t.id"


def summary_columns(summary: Summary) -> tuple[int, str]:
    return (int(summary.over), ",".join(map(str, summary.open_disputes)))


def summary_of(row: SummaryRow) -> Summary | None:
    over, open_disputes = row
    if over is None or open_disputes is None:
        return None
    numbers = tuple(int(n) for n in open_disputes.split(",") if n)
    return Summary(bool(over), numbers)


def listed(row: tuple[Any, ...]) -> Listed:
    """A row of `LISTED_COLUMNS`."""
    table_id, setup, version, over, open_disputes, number, at, created, spec, position = row
    return Listed(
        str(table_id),
        codec.decode(setup),
        int(version or 0),
        summary_of((over, open_disputes)),
        due((number, at)),
        timestamp(created),
        spec,
        int(position),
    )


def filter_conditions(where: TableFilter, mark: str) -> tuple[list[str], list[Any]]:
    """The SQL conditions `where` makes of a `tables t` row, with their parameters (`mark`:
    the store's placeholder, `?` or `%s`)."""
    conditions: list[str] = []
    values: list[Any] = []
    if where.game is not None:
        conditions.append(f"t.game = {mark}")
        values.append(where.game)
    if where.over is not None:
        conditions.append(f"t.game_over = {mark}")
        values.append(int(where.over))
    if where.open_disputes is not None:
        conditions.append(
            "t.open_disputes <> ''" if where.open_disputes else "t.open_disputes = ''"
        )
    if where.clock_running is not None:
        conditions.append(
            "t.deadline_at IS NOT NULL" if where.clock_running else "t.deadline_at IS NULL"
        )
    return conditions, values


def stored_spec(row: tuple[str, str, str] | None) -> StoredSpec | None:
    """A `specs` row (sha256, game, text), if found."""
    return None if row is None else StoredSpec(str(row[0]), str(row[1]), str(row[2]))


def changes(write: Write, mark: str) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements, with their parameters, an accepted move's write makes beside its insert:
    the table's deadline, lobby summary and seat token as the move leaves them, and its snapshot
    (the first one at a version stays). `mark`: the store's placeholder, `?` or `%s`."""
    made: list[tuple[str, tuple[Any, ...]]] = []
    if write.deadline is not KEEP:
        made.append(
            (
                f"UPDATE tables SET deadline_number = {mark}, deadline_at = {mark} WHERE id = {mark}",
                (*due_columns(write.deadline), write.table_id),
            )
        )
    if write.summary is not KEEP:
        made.append(
            (
                f"UPDATE tables SET game_over = {mark}, open_disputes = {mark} WHERE id = {mark}",
                (*summary_columns(write.summary), write.table_id),
            )
        )
    if write.seat_token is not None:
        seat, digest = write.seat_token
        made.append(
            (
                f"UPDATE seat_tokens SET token_sha256 = {mark} "
                f"WHERE table_id = {mark} AND seat = {mark}",
                (digest, write.table_id, seat),
            )
        )
    if write.snapshot is not None:
        made.append(
            (
                f"INSERT INTO snapshots (table_id, version, data) VALUES ({mark}, {mark}, {mark}) "
                "ON CONFLICT (table_id, version) DO NOTHING",
                (write.table_id, *snapshot_columns(write.snapshot)),
            )
        )
    return made
