"""Long tables for the Explain cost tests (issue 25, F2): a game's bots play a table of a
`RefereeService` for so many accepted moves, every proposal sent, the rejected ones with a move id
(so that they can be explained too)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import ADJUDICATOR, Move, Outcome
from referee.plugins import installed
from referee.service import CreatedTable, RefereeService

CHIPS = 10**6  # each seat's balance at a banking game: nobody runs out in a long game


@dataclass(frozen=True)
class Played:
    table: CreatedTable
    rejected: tuple[str, ...]  # the move ids of the rejected proposals


def long_setup(game: Game, seed: int) -> TableSetup:
    """A table of `game` that its bots can play long."""
    if game.spec.mechanics == "banking":
        return TableSetup(game.name, seats=6, seed=seed, balances=dict.fromkeys(range(6), CHIPS))
    if game.spec.mechanics == "tricks":
        return TableSetup(game.name, seats=4, seed=seed, options={"deals_per_game": 12})
    return TableSetup(game.name, seats=4, seed=seed)


def bot_proposals(
    game: Game, setup: TableSetup, seed: int, accepted: int
) -> list[tuple[int, Move]]:
    """What the game's bots propose on `setup` until `accepted` proposals are accepted or the
    game is over (as `referee.bench.recorded_game`, with no bound on the hands)."""
    bot = installed.by_name()[game.spec.mechanics].transcript
    assert bot is not None, f"`{game.name}` has no bots"
    table = Table.create(game, setup)
    candidates = bot.candidates(game.resolve_options(setup.options))
    rng = random.Random(seed)
    proposals: list[tuple[int, Move]] = []
    while not table.is_over and table.version < accepted:
        seat = bot.next_seat(table.view(ADJUDICATOR))
        for data in candidates(table.view(seat), rng):
            proposals.append((seat, Move.from_data(data)))
            if table.propose(seat, proposals[-1][1]).outcome is not Outcome.REJECTED:
                break
    return proposals


def played(service: RefereeService, game: Game, seed: int, accepted: int) -> Played:
    """A table of `service` that `game`'s bots played for `accepted` moves (or to its end)."""
    setup = long_setup(game, seed)
    table = service.create_table(game.name, **setup.asked())
    rejected = []
    for number, (seat, move) in enumerate(bot_proposals(game, setup, seed, accepted)):
        ruling = service.propose(table.table_id, table.tokens[seat], move, move_id=f"p{number}")
        if ruling.verdict.outcome is Outcome.REJECTED:
            rejected.append(f"p{number}")
    return Played(table, tuple(rejected))
