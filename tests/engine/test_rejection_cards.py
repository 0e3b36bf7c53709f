"""A rejection tells the proposer nothing it may not see (issue 10): the cards a violation names
are cards of the proposer's own view or of its own move. A Pontoon banker once had its hidden
first card listed in the rejection of a move made before its turn.

Random seeded tables of every shipped game; at every step each seat proposes the game's bot move
and a few illegal ones (other seats' moves, out of turn, random types); every rejection's cards
are checked against what that seat sees.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from typing import Any

import pytest

from referee.engine.table import Table, TableSetup
from referee.model import Move
from tests.liveness.oracle import candidates
from tests.support.games import shipped_games

GAMES = shipped_games()
STEPS = 100


def strings(value: Any) -> Iterable[str]:
    """Every string anywhere in a value (a view, a move)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def check_rejection(table: Table, seat: int, move: Move) -> bool:
    verdict = table.propose(seat, move)
    if verdict.accepted or verdict.outcome.name == "PENDING":
        return True
    seen = set(strings(table.view(seat))) | set(strings(move.to_data()))
    for violation in verdict.violations:
        leaked = [c for c in violation.cards if c not in seen]
        assert not leaked, (
            f"seat {seat}'s rejection of {move.to_data()} names {leaked}, "
            f"which it cannot see: {violation}"
        )
    return False


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", range(2))
def test_rejections_name_only_cards_the_proposer_sees(name: str, seed: int) -> None:
    game = GAMES[name]
    rng = random.Random(seed)
    seats = game.spec.seats_max
    balances = {s: 1000 for s in range(seats)} if game.spec.mechanics == "banking" else None
    table = Table.create(game, TableSetup(game=name, seats=seats, seed=seed, balances=balances))
    kinds = sorted(game.spec.moves)
    for _ in range(STEPS):
        if table.is_over:
            return
        for seat in range(seats):  # a move of another seat's kind, or a random one
            other = rng.randrange(seats)
            moves = list(itertools.islice(candidates(game, table.state, other), 20))
            if moves:
                check_rejection(table, seat, rng.choice(moves))
            check_rejection(table, seat, Move(rng.choice(kinds)))
        order = sorted(range(seats), key=lambda s: s != getattr(table.state, "to_act", None))
        played = False
        for seat in order:
            for move in candidates(game, table.state, seat):
                if check_rejection(table, seat, move):
                    played = True
                    break
            if played:
                break
