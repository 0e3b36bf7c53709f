"""The spec language's conveniences, on the test-only whist: named move groups for `on:`, the
hint to quote an expression YAML trips on, and one type parser for definitions and proofs."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.errors import SpecError, SpecErrors
from referee.mechanics.tricks.mechanic import TricksMechanic
from referee.plugins.games import load_game
from referee.spec.expr import INT, ListType, RecordType
from tests.support import examples
from tests.support.mechanic_of import mechanic_of

WHIST = examples.WHIST


def whist(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    text = WHIST.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "whist.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def errors(path: Path) -> list[SpecError]:
    with pytest.raises((SpecError, SpecErrors)) as caught:
        load_game(path)
    found = caught.value
    if isinstance(found, SpecErrors):
        return found.errors
    assert isinstance(found, SpecError)
    return [found]


def rule_ids(game: Game, checkpoint: str) -> list[str]:  # of a whist: a tricks game
    return [
        r.spec.id
        for r in mechanic_of(game, TricksMechanic).rules.rules.get((checkpoint, "before"), [])
    ]


GROUPS = ("moves:\n", "groups: {turn: [play], all_play: [play]}\n\nmoves:\n")


def test_a_group_in_on_stands_for_its_moves(tmp_path: Path) -> None:
    plain = load_game(WHIST)
    grouped = load_game(
        whist(
            tmp_path,
            GROUPS,
            ("  - id: GEN-7\n    on: [play]", "  - id: GEN-7\n    on: turn"),
            ("  - id: WH-1\n    on: [play]", "  - id: WH-1\n    on: [all_play, play]"),
        )
    )
    assert rule_ids(grouped, "play") == rule_ids(plain, "play") == ["GEN-7", "GEN-8", "WH-1"]
    assert next(r for r in grouped.spec.rules if r.id == "WH-1").on == ("play",)


@pytest.mark.parametrize(
    "groups, message",
    [
        (
            "groups: {turn: [play, lead]}",
            "group `turn`: unknown checkpoint `lead`: expected one of",
        ),
        ("groups: {play: [play]}", "group `play` has the name of a move"),
        ("groups: {a: [play], b: [a]}", "group `b` names a group: list its moves instead"),
        ("groups: {turn: []}", "group `turn` names no move or checkpoint"),
    ],
)
def test_a_wrong_group_is_a_located_spec_error(tmp_path: Path, groups: str, message: str) -> None:
    path = whist(tmp_path, ("moves:\n", f"{groups}\n\nmoves:\n"))
    found = [e for e in errors(path) if message in e.detail]
    assert found, [e.detail for e in errors(path)]
    line = path.read_text(encoding="utf-8").splitlines()[found[0].line - 1]
    assert line.startswith("groups:")


def test_an_unquoted_expression_with_a_colon_says_to_quote_it(tmp_path: Path) -> None:
    quoted = (
        "    require: 'suit(move.card) == suit(trick[0]) or not any(c in hand: suit(c) == "
        "suit(trick[0]))'"
    )
    path = whist(tmp_path, (quoted, quoted.replace("'", "")))
    (error,) = errors(path)
    assert "the value of `require` holds `: `" in error.detail and "quote it" in error.detail
    line = path.read_text(encoding="utf-8").splitlines()[error.line - 1]
    assert line[error.column - 1 :].startswith("suit(move.card)")
    assert str(error).startswith(f"{path}:{error.line}:{error.column}: ")


def test_definitions_read_types_with_the_expression_languages_parser(tmp_path: Path) -> None:
    spread = (
        '  - name: "spread(m: {low: int, xs: list[list[int]]})"\n'
        '    body: m.low + size(m.xs)\n  - name: "high(c: card)"'
    )
    path = whist(tmp_path, ('  - name: "high(c: card)"', spread))
    spec = load_game(path).spec
    definition = next(d for d in spec.definitions if d.name == "spread")
    assert definition.params == (("m", RecordType({"low": INT, "xs": ListType(ListType(INT))})),)


def test_a_malformed_parameter_type_is_located_at_the_definitions_name(tmp_path: Path) -> None:
    path = whist(tmp_path, ('  - name: "high(c: card)"', '  - name: "high(c: crad)"'))
    error = errors(path)[0]  # then what uses `high` cannot check
    assert error.path == "definitions[1].name"
    assert (
        "unknown type `crad`: expected one of `int bool str card list[...] {...}`" in error.detail
    )
