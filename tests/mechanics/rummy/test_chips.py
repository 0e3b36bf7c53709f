"""GEN-6 at a rummy that settles each hand (`rummy.settlement`; Pif-Paf's PP-5): over whole bot
games of several hands, every accepted move leaves the balances' sum as it was, a balance
changes exactly by the `transfer` events of the move, and each hand's end moves the stake from
every other seat to the one that went out."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move, Outcome
from referee.plugins import installed


@pytest.mark.parametrize(("seed", "seats", "stake"), [(1, 2, 1), (2, 4, 7), (3, 6, 0)])
def test_chips_are_never_made_or_lost(
    games: dict[str, Game], seed: int, seats: int, stake: int
) -> None:
    game = games["pif_paf"]
    bot = installed.by_name()["rummy"].transcript
    assert bot is not None
    balances = {s: 100 * s for s in range(seats)}
    options = {"stake": stake, "hands": 3}
    setup = TableSetup(game="pif_paf", seats=seats, seed=seed, options=options, balances=balances)
    table = Table.create(game, setup)
    candidates, rng = bot.candidates(options), random.Random(seed)
    total, hands_won = sum(balances.values()), Counter[int]()
    while not table.is_over:
        seat = bot.next_seat(table.view(ADJUDICATOR))
        before = table.view(ADJUDICATOR)["balances"]
        verdict = next(
            v
            for data in candidates(table.view(seat), rng)
            if (v := table.propose(seat, Move.from_data(dict(data)))).outcome
            is not Outcome.REJECTED
        )
        after = table.view(ADJUDICATOR)
        moved = Counter[str]()
        for event in (e for e in verdict.events if e.kind == "transfer"):
            assert event.data["reason"] == "settlement" and event.data["amount"] == stake
            moved[str(event.data["from"])] -= stake
            moved[str(event.data["to"])] += stake
            hands_won[int(str(event.data["to"]))] += 1
        assert {s: after["balances"][s] - before[s] for s in before} == {
            s: moved[s] for s in before
        }
        assert sum(after["balances"].values()) == total and after["pot"] == 0
    assert table.view(None)["hand_number"] == 3
    if stake:  # each hand's winner was paid by every other seat
        assert sum(hands_won.values()) == 3 * (seats - 1)
