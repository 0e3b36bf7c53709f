"""Bot games as the records tests need them: the accepted moves of a game on a given setup, each
with a server time, and the signed record they make."""

from __future__ import annotations

from dataclasses import replace

from referee.bench import recorded_game
from referee.engine import chance
from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import Outcome
from referee.plugins import installed
from referee.records.derive import Logged, full_record
from referee.records.seal import sealed
from referee.records.signing import SigningKey

AT = "2026-12-01T20:00:00.000000+00:00"


def bench_setup(game: Game, *, fair: bool) -> TableSetup:
    """The setup the bench plays `game` on: seeded, or dealt fair from a secret."""
    plugin = installed.by_name()[game.spec.mechanics]
    assert plugin.bench_setup is not None
    setup: TableSetup = plugin.bench_setup(game, 4)
    return replace(setup, seed=None, secret=chance.new_secret()) if fair else setup


def accepted_moves(
    game: Game, setup: TableSetup, most: int | None
) -> tuple[TableSetup, list[Logged]]:
    """The table's setup as created (its salt drawn) and the moves a bot game makes accepted."""
    _, proposals = recorded_game(game, 4, most, setup=setup)
    table = Table.create(game, setup)
    moves = [
        Logged(seat, move, AT)
        for seat, move in proposals
        if table.propose(seat, move).outcome is not Outcome.REJECTED
    ]
    return table.setup, moves


def signed_record(
    game: Game, *, fair: bool = False, most: int | None = 40, key: SigningKey | None = None
) -> str:
    setup, moves = accepted_moves(game, bench_setup(game, fair=fair), most)
    record = full_record(game, setup, moves, table_id="t-1")
    return sealed(record, key or SigningKey.generate())
