"""A banking seat leaving a hand or the table when its time runs out (`leaving.py`, issue 25).

- GEN-10 (N1): a player out of the hand after its first card and before its bet pays the banker
  `banking.forfeit_before_bet` (Pontoon's: the minimum bet), once, whether it forfeits or is
  put out of the table; after its bet it loses its stake, and nothing more. A game with a play
  clock must state the cost; a cost the spec gives below nothing is nothing.
- SH-8 (N2): a Shoot Pontoon table that ends gives the kitty back to the banker, whether the
  last player is put out during a hand or the banker between hands: nothing is left on a
  finished table, and the chips of the table never change in sum (GEN-6).

The controls: the unfixed mechanic fails the tests of the cost before the bet (a free sit-out)
and of the table ending in a hand (the kitty left on it); `policy`'s auto and the cost after the
bet held before, and are guards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import SpecErrors
from referee.model import ADJUDICATOR, Move
from referee.plugins.games import DEFAULT_SPECS, load_game
from tests.support import examples
from tests.support.games import shipped_games

GAMES = shipped_games()
TWENTY_ONE = examples.TWENTY_ONE
START = 100
CLOCK = "\nclock:\n  auto:\n    - move: stick\n"


def clocked(game: Game, seats: int = 3, **options: Any) -> Table:
    setup = TableSetup(
        game=game.spec.name,
        options={"turn_seconds": 20, **options},
        seats=seats,
        seed=7,
        balances={s: START for s in range(seats)},
    )
    return Table.create(game, setup)


def chips(table: Table) -> int:
    view = table.view(ADJUDICATOR)
    return int(sum(view["balances"].values()) + view["on_table"] + view.get("kitty", 0))


def play_out(table: Table) -> None:
    """The hand played to its end by the seats themselves: each sticks, or twists until it may."""
    while table.view(ADJUDICATOR)["phase"] != "between":
        seat = table.view(ADJUDICATOR)["to_act"]
        if not table.propose(seat, Move("stick")).accepted:
            assert table.propose(seat, Move("twist")).accepted


def transfers(table: Table) -> list[dict[str, Any]]:
    verdict = table.expire()
    assert verdict is not None
    return [dict(e.data) for e in verdict.events if e.kind == "transfer"]


@pytest.mark.parametrize("name", ["pontoon", "shoot_pontoon"])
@pytest.mark.parametrize("most", [0, 1])  # forfeit, or out of the table at its first timeout
def test_a_player_out_before_its_bet_pays_the_minimum_to_the_banker(name: str, most: int) -> None:
    table = clocked(GAMES[name], on_timeout="forfeit", max_timeouts=most, min_bet=7)
    if name == "shoot_pontoon":
        table.propose(0, Move("kitty", {"amount": 20}))
    total = chips(table)
    paid = transfers(table)
    assert paid == [{"from": 1, "to": 0, "amount": 7, "reason": "forfeit before the bet"}]
    view = table.view(ADJUDICATOR)
    assert view["balances"]["1"] == START - 7 and view["to_act"] == 2
    assert view["hands"]["1"][0]["cards"] == [] and chips(table) == total
    assert view.get("kitty", 0) == (20 if name == "shoot_pontoon" else 0)


def test_after_its_bet_a_player_loses_its_stake_and_nothing_more() -> None:
    table = clocked(GAMES["pontoon"], on_timeout="forfeit", min_bet=7)
    table.propose(1, Move("bet", {"amount": 9}))
    table.propose(2, Move("bet", {"amount": 9}))  # the second round: seat 1 plays
    assert transfers(table) == [{"from": "table", "to": 0, "amount": 9, "reason": "forfeit"}]
    assert table.view(ADJUDICATOR)["balances"]["1"] == START - 9


def test_auto_bets_the_minimum_for_a_player_before_its_bet() -> None:
    """GEN-10 under `auto`: a legal move of the seat's own, never a sit-out."""
    table = clocked(GAMES["pontoon"], min_bet=7)
    assert transfers(table) == [{"from": 1, "to": "table", "amount": 7, "reason": "bet"}]
    assert table.view(ADJUDICATOR)["out_of_hand"] == []


def test_a_banker_out_before_the_kitty_pays_nothing() -> None:
    """The banker has seen no card of the hand (its first is hidden from it): it gives up the
    bank, as between hands."""
    table = clocked(GAMES["shoot_pontoon"], on_timeout="forfeit")
    verdict = table.expire()
    assert verdict is not None and "transfer" not in [e.kind for e in verdict.events]
    assert table.view(ADJUDICATOR)["banker"] == 1


def test_a_table_ending_in_a_hand_gives_the_kitty_back_to_the_banker() -> None:
    table = clocked(GAMES["shoot_pontoon"], max_timeouts=1)
    table.propose(0, Move("kitty", {"amount": 30}))
    table.propose(1, Move("bet", {"amount": 10, "shoot": 12}))
    total = chips(table)
    table.expire()  # seat 2 out before its bet: pays 1
    assert not table.is_over
    while not table.is_over:  # seat 1 plays it out, safely; then out of the table
        table.expire()
    view = table.view(ADJUDICATOR)
    assert view["match_over"] and view["kitty"] == 0 and view["on_table"] == 0
    assert chips(table) == total == 3 * START


@pytest.mark.parametrize("policy", ["auto", "forfeit"])
def test_a_table_ending_between_hands_gives_the_kitty_back(policy: str) -> None:
    """Two seats, the banker's time runs out for good between hands: the table ends, and the
    kitty goes back to that banker, out of the table as it is (it held before issue 25 too: a
    banker leaving the bank takes the kitty; a guard, not a control)."""
    table = clocked(GAMES["shoot_pontoon"], seats=2, on_timeout=policy, max_timeouts=1)
    table.propose(0, Move("kitty", {"amount": 30}))
    table.propose(1, Move("bet", {"amount": 10}))
    play_out(table)
    kitty = table.view(ADJUDICATOR)["kitty"]
    banker_before = table.view(ADJUDICATOR)["balances"]["0"]
    assert table.expire() is not None and table.is_over
    view = table.view(ADJUDICATOR)
    assert view["kitty"] == 0 and view["out"] == [0]
    assert view["balances"]["0"] == banker_before + kitty
    assert chips(table) == 2 * START


# --- the spec states the cost -------------------------------------------------------------------
def twenty_one(tmp_path: Path, extra: str) -> Path:
    text = TWENTY_ONE.read_text(encoding="utf-8")
    old = "  reshuffle: true\n"
    path = tmp_path / TWENTY_ONE.name
    path.write_text(text.replace(old, old + extra) + CLOCK, encoding="utf-8")
    return path


def test_a_banking_game_with_a_clock_states_the_cost_of_leaving_before_the_bet(
    tmp_path: Path,
) -> None:
    with pytest.raises(SpecErrors) as caught:
        load_game(twenty_one(tmp_path, ""), DEFAULT_SPECS)
    assert "states `banking.forfeit_before_bet`" in str(caught.value.errors[0])
    assert "(GEN-10)" in str(caught.value.errors[0])


@pytest.mark.parametrize(("cost", "paid"), [("3", 3), ("-3", 0)])
def test_the_cost_is_the_specs_and_never_a_gain(tmp_path: Path, cost: str, paid: int) -> None:
    game = load_game(twenty_one(tmp_path, f"  forfeit_before_bet: {cost}\n"), DEFAULT_SPECS)
    table = clocked(game, on_timeout="forfeit")
    verdict = table.expire()
    assert verdict is not None
    moved = [e.data["amount"] for e in verdict.events if e.kind == "transfer"]
    assert moved == ([paid] if paid else [])
    assert table.view(ADJUDICATOR)["balances"]["1"] == START - paid
