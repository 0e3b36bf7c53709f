"""A store in memory, for tests: same contract as the durable stores, nothing survives the process.

Data is kept encoded as JSON, as a real database would, so what a test reads back is exactly what
SQLite would give (ints, not tuples; seat keys as ints), and nothing shares state with the caller.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from referee.store import codec
from referee.store.base import (
    JSON,
    KEEP,
    NEW_TABLE,
    Due,
    Keep,
    Listed,
    Proposal,
    Snapshot,
    Store,
    StoreConflict,
    StoredSpec,
    Summary,
    TableFilter,
    TableRecord,
    unknown_table,
)


@dataclass
class _Row:
    seat: int
    move: str
    verdict: str
    move_id: str | None
    seq: int | None
    at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="milliseconds"))

    def proposal(self) -> Proposal:
        return Proposal(
            self.seat,
            codec.decode(self.move),
            codec.decode(self.verdict),
            self.move_id,
            self.seq,
            self.at,
        )


@dataclass
class _Table:
    setup: str
    token_hashes: dict[int, str]
    moves: list[_Row] = field(default_factory=list)
    by_move_id: dict[str, _Row] = field(default_factory=dict)
    deadline: Due | None = None
    snapshots: dict[int, Snapshot] = field(default_factory=dict)  # by version
    rules_version: str | None = None
    summary: Summary | None = None
    position: int = 0  # the order of creation: 1, 2, 3...
    created_at: str = field(
        default_factory=lambda: datetime.now(UTC).isoformat(timespec="milliseconds")
    )

    def listed(self, table_id: str) -> Listed:
        return Listed(
            table_id,
            codec.decode(self.setup),
            len(self.moves),
            self.summary,
            self.deadline,
            self.created_at,
            self.rules_version,
            self.position,
        )

    def holds(self, where: TableFilter) -> bool:
        """Whether the table is one `where` asks for (a condition on an unknown summary fails)."""
        summary = self.summary
        checks = (
            (where.game, lambda: codec.decode(self.setup).get("game")),
            (where.over, lambda: None if summary is None else summary.over),
            (where.open_disputes, lambda: None if summary is None else bool(summary.open_disputes)),
            (where.clock_running, lambda: self.deadline is not None),
        )
        return all(wanted is None or found() == wanted for wanted, found in checks)

    def snapshot_before(self, version: int | None = None) -> Snapshot | None:
        """The latest snapshot at `version` or before it (None: the latest)."""
        kept = (v for v in self.snapshots if version is None or v <= version)
        at = max(kept, default=None)
        return None if at is None else self.snapshots[at]


class MemoryStore(Store):
    def __init__(self) -> None:
        self._tables: dict[str, _Table] = {}
        self._specs: dict[str, StoredSpec] = {}  # by version: each kept once
        self._signing_key: str | None = None
        self._lock = threading.Lock()

    def create_table(
        self,
        table_id: str,
        setup: Mapping[str, JSON],
        token_hashes: Mapping[int, str],
        spec: StoredSpec | None = None,
        deadline: Due | None = None,
        summary: Summary = NEW_TABLE,
    ) -> None:
        with self._lock:
            if table_id in self._tables:
                raise StoreConflict(f"table `{table_id}` already exists")
            if spec is not None:
                self._specs.setdefault(spec.version, spec)
            self._tables[table_id] = _Table(
                codec.encode(setup),
                dict(token_hashes),
                rules_version=None if spec is None else spec.version,
                deadline=deadline,
                summary=summary,
                position=len(self._tables) + 1,
            )

    def stored_spec(self, version: str) -> StoredSpec | None:
        with self._lock:
            return self._specs.get(version)

    def signing_key(self, new: str) -> str:
        with self._lock:
            if self._signing_key is None:
                self._signing_key = new
            return self._signing_key

    def load_table(self, table_id: str, *, after_snapshot: bool = False) -> TableRecord:
        with self._lock:
            table = self._get(table_id)
            snapshot = table.snapshot_before() if after_snapshot else None
            skipped = 0 if snapshot is None else max(0, snapshot.version - 1)
            return TableRecord(
                table_id,
                codec.decode(table.setup),
                dict(table.token_hashes),
                tuple(row.proposal() for row in table.moves[skipped:]),
                table.deadline,
                snapshot,
                skipped,
                table.rules_version,
            )

    def append_move(
        self,
        table_id: str,
        seq: int,
        seat: int,
        move: Mapping[str, JSON],
        move_id: str | None,
        verdict: Mapping[str, JSON],
        *,
        deadline: Due | Keep | None = KEEP,
        snapshot: Snapshot | None = None,
        summary: Summary | Keep = KEEP,
        seat_token: tuple[int, str] | None = None,
    ) -> None:
        with self._lock:
            table = self._get(table_id)
            if seq != len(table.moves) + 1:
                raise StoreConflict(f"table `{table_id}` already has move {seq}")
            row = _Row(seat, codec.encode(move), codec.encode(verdict), move_id, seq)
            self._remember(table, row)
            table.moves.append(row)
            if deadline is not KEEP:
                table.deadline = deadline
            if summary is not KEEP:
                table.summary = summary
            if seat_token is not None:
                table.token_hashes[seat_token[0]] = seat_token[1]
            if snapshot is not None:
                table.snapshots.setdefault(snapshot.version, snapshot)

    def moves_after(self, table_id: str, version: int) -> tuple[Proposal, ...]:
        with self._lock:
            table = self._tables.get(table_id)
            moves = table.moves[max(0, version) :] if table else []
            return tuple(row.proposal() for row in moves)

    def moves_between(self, table_id: str, after: int, last: int) -> tuple[Proposal, ...]:
        with self._lock:
            table = self._tables.get(table_id)
            moves = table.moves[max(0, after) : max(0, last)] if table else []
            return tuple(row.proposal() for row in moves)

    def snapshot_before(self, table_id: str, version: int) -> Snapshot | None:
        with self._lock:
            table = self._tables.get(table_id)
            return table.snapshot_before(version) if table else None

    def record_rejection(
        self,
        table_id: str,
        seat: int,
        move: Mapping[str, JSON],
        move_id: str,
        verdict: Mapping[str, JSON],
    ) -> None:
        with self._lock:
            table = self._get(table_id)
            self._remember(
                table, _Row(seat, codec.encode(move), codec.encode(verdict), move_id, None)
            )

    def find_verdict(self, table_id: str, move_id: str) -> Proposal | None:
        with self._lock:
            row = self._get(table_id).by_move_id.get(move_id)
            return row.proposal() if row else None

    def version(self, table_id: str) -> int:
        with self._lock:
            return len(self._get(table_id).moves)

    def table_ids(self) -> list[str]:
        with self._lock:
            return list(self._tables)

    def list_tables(
        self, where: TableFilter, *, below: int | None = None, limit: int
    ) -> list[Listed]:
        with self._lock:
            newest_first = sorted(self._tables.items(), key=lambda item: -item[1].position)
            found = [
                table.listed(table_id)
                for table_id, table in newest_first
                if (below is None or table.position < below) and table.holds(where)
            ]
        return found[:limit]

    def unsummarised(self, limit: int) -> list[str]:
        with self._lock:
            return [i for i, t in self._tables.items() if t.summary is None][:limit]

    def set_summary(self, table_id: str, summary: Summary) -> None:
        with self._lock:
            table = self._get(table_id)
            if table.summary is None:
                table.summary = summary

    def deadlines(self) -> dict[str, Due]:
        with self._lock:
            return {i: t.deadline for i, t in self._tables.items() if t.deadline is not None}

    def deadline(self, table_id: str) -> Due | None:
        with self._lock:
            return self._get(table_id).deadline

    def _get(self, table_id: str) -> _Table:
        table = self._tables.get(table_id)
        if table is None:
            raise unknown_table(table_id)
        return table

    @staticmethod
    def _remember(table: _Table, row: _Row) -> None:
        if row.move_id is None:
            return
        if row.move_id in table.by_move_id:
            raise StoreConflict(f"move id `{row.move_id}` was already used")
        table.by_move_id[row.move_id] = row
