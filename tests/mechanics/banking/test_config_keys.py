"""The banking config (`BankingConfig`) holds every expression a spec states in its section
(that `KEYS` names every key path of it: tests/spec/test_mechanic_declarations.py)."""

from __future__ import annotations

import pytest

from referee.engine.game import Game
from referee.mechanics.banking.mechanic import BankingMechanic

NOT_EXPRESSIONS = ("hand_size", "bet_after_round", "kitty", "violations")


@pytest.mark.parametrize("name", ["pontoon", "shoot_pontoon"])
def test_the_config_holds_every_expression_the_spec_states(
    name: str, games: dict[str, Game]
) -> None:
    game = games[name]
    raw = game.spec.sections["banking"]
    stated = {f"banking.{key}" for key in raw if key not in NOT_EXPRESSIONS}
    stated |= {f"banking.kitty.{key}" for key in raw.get("kitty", {})}
    assert isinstance(game.mechanic, BankingMechanic)
    assert set(game.mechanic.expressions) == stated
