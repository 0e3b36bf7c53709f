"""The banking section's declarations agree: `KEYS` (what docs/mechanics.md says of each key)
names every key path of the section's shape and no other, and the typed config (`BankingConfig`)
holds every expression a spec states there."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from referee.engine.game import Game
from referee.mechanics.banking.config import KEYS
from referee.mechanics.banking.mechanic import BankingMechanic
from referee.spec.sections import Shape

NOT_EXPRESSIONS = ("hand_size", "bet_after_round", "kitty", "violations")


def paths(shape: Shape, prefix: str) -> list[str]:
    """Every key path under `prefix` (`banking.violations.*.id`: `*` for a key the spec names)."""
    if not isinstance(shape, Mapping):
        return []
    return [
        p
        for key, inner in shape.items()
        for p in [f"{prefix}.{key}", *paths(inner, f"{prefix}.{key}")]
    ]


def test_keys_say_what_every_key_of_the_section_means() -> None:
    declared = [
        path
        for section, shape in BankingMechanic.section_shapes.items()
        for path in [section, *paths(shape, section)]
    ]
    assert sorted(KEYS) == sorted(declared)
    assert all(text.strip() for text in KEYS.values())


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
