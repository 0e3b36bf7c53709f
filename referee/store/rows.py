"""The rows of a database store, read back as records: the SQL stores (SQLite, PostgreSQL) keep
the same tables and columns, each value encoded by `codec`."""

from __future__ import annotations

from collections.abc import Iterable

from referee.store import codec
from referee.store.base import Proposal, TableRecord

# seat, move, verdict, move_id, seq: the columns a proposal is selected with
ProposalRow = tuple[int, str, str, str | None, int | None]


def proposal(row: ProposalRow) -> Proposal:
    seat, move, verdict, move_id, seq = row
    return Proposal(seat, codec.decode(move), codec.decode(verdict), move_id, seq)


def table_record(
    table_id: str, setup: str, tokens: Iterable[tuple[int, str]], moves: Iterable[ProposalRow]
) -> TableRecord:
    """A table from its setup column, its seat tokens' digests and its accepted proposals."""
    return TableRecord(table_id, codec.decode(setup), dict(tokens), tuple(map(proposal, moves)))
