"""A game's mechanic as the class a test reads it as: `Game.mechanic` is typed as the base
`Mechanic`, and a test of a rummy game reads the parts only `RummyMechanic` has (its rules,
config, meld reader)."""

from __future__ import annotations

from typing import Any, TypeVar

from referee.engine.game import Game
from referee.engine.mechanic import Mechanic

M = TypeVar("M", bound=Mechanic[Any])


def mechanic_of(game: Game, kind: type[M]) -> M:
    mechanic = game.mechanic
    assert isinstance(mechanic, kind), (
        f"{game.name}: {type(mechanic).__name__}, not {kind.__name__}"
    )
    return mechanic
