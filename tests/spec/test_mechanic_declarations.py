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
from referee.spec.keys import Key, told
from referee.spec.sections import Shape

MECHANICS = [plugin.mechanic for plugin in PLUGINS]
PLUGIN = {plugin.name: plugin for plugin in PLUGINS}


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
    assert all(told(value).meaning.strip() for value in mechanic.keys.values())


@pytest.mark.parametrize("mechanic", MECHANICS, ids=lambda m: m.name)
def test_the_page_gives_every_key_a_type_and_what_leaving_it_out_means(
    mechanic: type[Mechanic[Any]], games: dict[str, Game]
) -> None:
    # a key's sentence that says neither (or a `Key` left blank) shows `-` in a column: say it
    page = mechanics_page([PLUGIN[mechanic.name]], games)
    for path in mechanic.keys:
        row = next(line for line in page.splitlines() if line.startswith(f"| `{path}` |"))
        kind, left_out, read_against = row.split(" | ")[1:4]
        assert kind != "-", f"`{path}` says no type: {row}"
        assert left_out != "-" or path.endswith("*"), f"`{path}` says not if it is required"
        if kind.startswith("expression"):
            assert read_against != "-", f"`{path}` says no context: {row}"


@pytest.mark.parametrize("mechanic", MECHANICS, ids=lambda m: m.name)
def test_the_page_says_what_a_spec_cannot_change(
    mechanic: type[Mechanic[Any]], games: dict[str, Game]
) -> None:
    section = mechanics_page([PLUGIN[mechanic.name]], games)
    fixed = section.split("### What a spec cannot change")[1].split("### Moves")[0]
    lines = [line for line in fixed.splitlines() if line.startswith("- ")]
    assert lines and "not declared yet" not in fixed, fixed


def test_a_key_declared_as_a_key_is_shown_as_declared() -> None:
    key = Key("expression: int", "the trump suit of a deal", "no trump", "`setup`")
    assert told(key) is key
    said = told("Optional: an expression of type int over the `setup` context. Left out, none.")
    assert (said.type, said.default, said.context) == ("expression: int", "none", "`setup`")


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
