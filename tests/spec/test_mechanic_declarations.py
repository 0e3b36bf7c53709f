"""Every mechanic declares itself the same way (the one skeleton, docs/rules/mechanics.md): a move
table whose rows each hold a handler, and `keys` saying what every key path of its sections
means, no more and no fewer; the page made of them says each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from referee.engine.game import Game
from referee.engine.mechanic import Mechanic, Move
from referee.plugins.installed import PLUGINS
from referee.plugins.mechanics_page import mechanics_page
from referee.spec.sections import Shape

MECHANICS = [plugin.mechanic for plugin in PLUGINS]


def paths(shape: Shape, prefix: str) -> list[str]:
    """Every key path under `prefix` (`banking.violations.*.id`: `*` for a key the spec names)."""
    if not isinstance(shape, Mapping):
        return []
    return [
        path
        for key, inner in shape.items()
        for path in [f"{prefix}.{key}", *paths(inner, f"{prefix}.{key}")]
    ]


@pytest.mark.parametrize("mechanic", MECHANICS, ids=lambda m: m.name)
def test_keys_say_what_every_key_of_its_sections_means(mechanic: type[Mechanic[Any]]) -> None:
    declared = [
        path
        for section, shape in mechanic.section_shapes.items()
        for path in [section, *paths(shape, section)]
    ]
    assert sorted(mechanic.keys) == sorted(declared)
    assert all(text.strip() for text in mechanic.keys.values())


@pytest.mark.parametrize("mechanic", MECHANICS, ids=lambda m: m.name)
def test_each_move_of_the_table_names_its_handler(mechanic: type[Mechanic[Any]]) -> None:
    for name, move in mechanic.moves.items():
        assert isinstance(move, Move), name
        assert move.handler is None or callable(move.handler), name
        assert not move.judged or move.judged[0] == name, (name, move.judged)


def test_the_page_tells_every_move_and_key(games: dict[str, Game]) -> None:
    page = mechanics_page(PLUGINS, games)
    for mechanic in MECHANICS:
        assert f"## `{mechanic.name}`" in page
        assert all(f"| `{name}` |" in page for name in mechanic.moves)
        assert all(f"| `{path}` |" in page for path in mechanic.keys)
