"""Explain folds from the nearest snapshot (issue 25, F2): the table a proposal was judged on is
restored from the snapshot at or before its version, and only the moves after it are read and
judged again, so explaining a late version of a long table costs what an early one does. The
explanation is the one the fold of the whole log gives, for every version of long bot tables of
every kind of game, for a table with a rewind ruling (which folds the log again from its first
move), and when a snapshot does not fit."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import Move
from referee.service import CreatedTable, RefereeService
from referee.service.explanations import Explained, explained
from referee.service.past_tables import PastTable, table_at
from referee.store.base import Proposal, Store
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore
from tests.harden.ledger import draw_or_discard
from tests.harden.long_tables import played

EVERY = 10  # moves between two snapshots: many snapshots on short tables
LONG = {  # the accepted moves of each game's bot table
    "pontoon": 120,
    "shoot_pontoon": 80,
    "tarocchi_piedicavallo": 80,
    "pontinho": 55,  # its bots try many a move before one is accepted
}


def referee(store: Store, games: dict[str, Game]) -> RefereeService:
    return RefereeService(store, games, allow_stacked=True, snapshot_every=EVERY)


def full_folds(store: Store, game: Game, table_id: str) -> Iterator[tuple[Table, Proposal]]:
    """The table at each version as the fold of the log's first moves over the stored setup
    gives it (Explain's table before snapshots), with the move accepted next."""
    record = store.load_table(table_id)
    table = Table.create(game, TableSetup.from_data(record.setup))
    for stored in record.moves:
        yield table, stored
        table.redo(stored.seat, Move.from_data(stored.move))


def full_fold(store: Store, game: Game, table_id: str, version: int) -> Table:
    record = store.load_table(table_id)
    moves = [(p.seat, Move.from_data(p.move)) for p in record.moves[:version]]
    return Table.replay(game, TableSetup.from_data(record.setup), moves)


def expected(table: Table, proposal: Proposal, caller: int | None, operator: bool) -> Explained:
    past = PastTable(table, table.version, table.version)
    return explained(past, proposal, caller, operator, "en")


def same(got: Explained, want: Explained) -> bool:
    return replace(got, folded=0) == replace(want, folded=0)


def explain_every_version(
    service: RefereeService, store: Store, game: Game, table: CreatedTable
) -> int:
    """Explain each accepted move of the table, to the director, its proposer or a spectator in
    turn: the full fold's explanation, from the snapshot before it. Returns the versions."""
    version = 0
    for then, stored in full_folds(store, game, table.table_id):
        version, kind = then.version + 1, then.version % 3
        token = table.tokens.get(stored.seat) if kind == 1 else None
        caller = stored.seat if token else None
        got = service.explain(table.table_id, token, version=version, operator=kind == 0)
        assert same(got, expected(then, stored, caller, kind == 0)), f"version {version}"
        assert got.folded == then.version % EVERY, f"version {version}: folded {got.folded}"
    return version


@pytest.mark.parametrize("name", sorted(LONG))
def test_every_version_of_a_long_bot_table_is_explained_as_its_full_fold(
    games: dict[str, Game], name: str
) -> None:
    store = MemoryStore()
    service = referee(store, games)
    table = played(service, games[name], seed=11, accepted=LONG[name])
    table_id = table.table.table_id
    assert explain_every_version(service, store, games[name], table.table) > 5 * EVERY
    assert table.rejected, "the bots made proposals that were rejected"
    for move_id in table.rejected[:: max(1, len(table.rejected) // 10)]:
        proposal = store.find_verdict(table_id, move_id)
        assert proposal is not None
        got = service.explain(table_id, None, move_id=move_id, operator=True)
        then = full_fold(store, games[name], table_id, got.judged_at)
        assert same(got, expected(then, proposal, None, True)), move_id
        assert got.folded == got.judged_at % EVERY


def test_without_snapshots_the_fold_grows_with_the_table(games: dict[str, Game]) -> None:
    """The control: the table of the last version folded from its first move judges every
    move of the log again, where from its snapshot it judges fewer than `EVERY`."""
    store = MemoryStore()
    service = referee(store, games)
    table = played(service, games["pontoon"], seed=3, accepted=LONG["pontoon"]).table
    setup = TableSetup.from_data(store.load_table(table.table_id).setup)
    last = store.version(table.table_id)
    whole = table_at(store, games["pontoon"], setup, table.table_id, last, from_snapshot=False)
    near = table_at(store, games["pontoon"], setup, table.table_id, last)
    assert (whole.folded, whole.read) == (last, last)
    assert near.folded == last % EVERY and near.read == near.folded + 1  # the snapshot's move
    assert whole.table.view(None) == near.table.view(None)


def draws_and_discards(service: RefereeService, table: CreatedTable, moves: int) -> None:
    rng = random.Random(moves)
    for _ in range(moves):
        seat = int(service.view(table.table_id, None).view["to_act"])
        view = service.view(table.table_id, table.tokens[seat]).view
        move = Move.from_data(draw_or_discard(view, rng))
        assert service.propose(table.table_id, table.tokens[seat], move).verdict.accepted


def test_a_rewind_folded_from_a_snapshot_is_explained_as_its_full_fold(
    games: dict[str, Game],
) -> None:
    """A rewind ruling after a snapshot folds the log again up to the version it rewinds to:
    those moves, before the snapshot, are read for it, and the explanations after it are the
    full fold's."""
    store = MemoryStore()
    service = referee(store, games)
    table = service.create_table("pontinho", seats=3, seed=8)
    draws_and_discards(service, table, 45)
    dispute = Move("dispute", {"version": 23, "reason": "a card too many"})
    assert service.propose(table.table_id, table.tokens[1], dispute).verdict.version == 46
    ruling = Move("ruling", {"dispute": 46, "decision": "rewind", "to": 22, "note": "again"})
    assert service.rule(table.table_id, ruling).verdict.version == 47
    draws_and_discards(service, table, 20)
    assert explain_every_version(service, store, games["pontinho"], table) == 67
    setup = TableSetup.from_data(store.load_table(table.table_id).setup)
    after = table_at(store, games["pontinho"], setup, table.table_id, 47)
    assert after.folded == 7 and after.read == 47  # the moves before the snapshot at 40 too
    later = table_at(store, games["pontinho"], setup, table.table_id, 55)
    assert later.folded == 5 and later.read == 6  # from the snapshot at 50, taken after it


def test_a_snapshot_that_does_not_fit_is_set_aside_for_the_full_fold(
    games: dict[str, Game], tmp_path: Path
) -> None:
    store = SqliteStore(tmp_path / "t.db")
    service = referee(store, games)
    table = played(service, games["pontoon"], seed=5, accepted=35).table
    db = sqlite3.connect(tmp_path / "t.db")
    db.execute('UPDATE snapshots SET data = \'{"format": 1, "state": []}\'')
    db.commit()
    db.close()
    got = service.explain(table.table_id, None, version=35, operator=True)
    then = full_fold(store, games["pontoon"], table.table_id, 34)
    stored = store.moves_between(table.table_id, 34, 35)[0]
    assert same(got, expected(then, stored, None, True))
    assert got.folded == 34  # the control: from a snapshot that fits, it would be 4
    store.close()
