"""A live table's log, its first entries read from the store only when something asks for them:
a table restored from its snapshot reads none of them."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from referee.engine import snapshot
from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import Move
from referee.service.stored_log import StoredLog
from tests.harden.ledger import draw_or_discard


class Reads:
    """The first entries, counting how often they are read."""

    def __init__(self, entries: Sequence[int]) -> None:
        self.entries, self.count = entries, 0

    def __call__(self) -> Sequence[int]:
        self.count += 1
        return self.entries


def never() -> Sequence[tuple[int, Move]]:
    raise AssertionError("the moves before the snapshot were read")


def test_the_first_entries_are_read_once_and_only_when_asked_for() -> None:
    reads = Reads([0, 1, 2])
    log = StoredLog(3, [3, 4], reads)
    assert (len(log), log[3], log[-1], list(log[3:]), reads.count) == (5, 3, 4, [3, 4], 0)
    prefix, spanning = log[:3], log[1:4]  # slices into the unread part stay unread
    assert (len(prefix), len(spanning), reads.count) == (3, 3, 0)
    log.append(5)
    assert (list(spanning), list(prefix), list(log), reads.count) == (
        [1, 2, 3],
        [0, 1, 2],
        [0, 1, 2, 3, 4, 5],
        1,
    )
    assert list(log[::2]) == [0, 2, 4] and reads.count == 1
    with pytest.raises(IndexError):
        log[6]


def test_a_store_giving_the_wrong_number_of_first_moves_is_refused() -> None:
    log = StoredLog(3, [3], Reads([0, 1]))
    with pytest.raises(ValueError, match="the store gave 2 first moves, not 3"):
        log[0]


def test_a_table_restored_from_its_snapshot_reads_no_move_before_it(pontinho: Game) -> None:
    table = Table.create(pontinho, TableSetup(game="pontinho", options={}, seats=3, seed=4))
    rng = random.Random(4)
    taken = ""
    while table.version < 57:
        seat = int(table.view(None)["to_act"])
        assert table.propose(seat, Move.from_data(draw_or_discard(table.view(seat), rng))).accepted
        if table.version == 50:
            taken = snapshot.snapshot(table)
    moves = list(table.history)
    restored = snapshot.restore(pontinho, table.setup, taken, StoredLog(49, moves[49:], never))
    assert restored.version == 57 and restored.state == table.state
    assert [restored.view(s, legal=True) for s in (0, 1, 2, None)] == [
        table.view(s, legal=True) for s in (0, 1, 2, None)
    ]
