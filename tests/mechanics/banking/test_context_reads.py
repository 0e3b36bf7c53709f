"""A banking move is judged with only the context names its checkpoint's rules read
(`RuleBook.reads_at`): on every proposal of recorded bot games, the rules judge that context
exactly as they judge the whole one, each broken rule worded alike (its `say`, its fix)."""

from __future__ import annotations

import pytest

from referee.bench import Workload
from referee.cards import PackKind
from referee.engine.game import Game
from referee.engine.moves import parse_move
from referee.engine.table import Table
from referee.errors import MoveFormatError
from referee.mechanics.banking.mechanic import BankingMechanic

SEEDS = (1, 2, 3)


@pytest.mark.parametrize("name", ["pontoon", "shoot_pontoon"])
@pytest.mark.parametrize("seed", SEEDS)
def test_the_names_a_checkpoint_reads_judge_as_the_whole_context(
    name: str, seed: int, games: dict[str, Game]
) -> None:
    game = games[name]
    mechanic = game.mechanic
    assert isinstance(mechanic, BankingMechanic)
    workload = Workload.of(game, seed, most=150)
    table = Table.create(game, workload.setup)
    judged = 0
    for seat, move, _ in workload.recorded:
        try:
            parsed = parse_move(game.spec.moves, move, PackKind(game.spec.pack_kind))
        except MoveFormatError:
            parsed = None
        if parsed is not None and 0 <= seat < table.setup.seats:
            whole = {**mechanic.env(table.state, seat), "move": parsed}
            names = mechanic.rules.reads_at(move.type)
            read = {**mechanic.env(table.state, seat, names=names), "move": parsed}
            assert set(read) < set(whole)  # some names are left out
            assert mechanic.rules.judge(move.type, read) == mechanic.rules.judge(move.type, whole)
            judged += 1
        table.propose(seat, move)
    assert judged > 100
