"""A rules version is the spec as loaded, parents included, and its stored text compiles back
into the same game."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine import snapshot
from referee.engine.game import Game
from referee.engine.versions import rules_version, short, source_text
from referee.plugins.games import compile_stored, load_games
from referee.schemas.describe import describe_game
from referee.spec.source import SpecSource
from tests.versions.corrected import corrected_specs, edit, specs_copy

GAMES = ["pontinho", "pontoon", "shoot_pontoon", "taradinho", "tarocchi_piedicavallo"]


@pytest.mark.parametrize("name", GAMES)
def test_the_stored_text_compiles_into_the_same_game(games: dict[str, Game], name: str) -> None:
    game = games[name]
    again = compile_stored(source_text(game))
    assert rules_version(again) == rules_version(game)
    assert describe_game(again) == describe_game(game)
    assert again.source == game.source


def test_the_version_is_the_snapshots_spec_fingerprint(games: dict[str, Game]) -> None:
    """So a table loaded under its own version reads the snapshots taken under it."""
    for game in games.values():
        assert snapshot._spec_digest(game) == rules_version(game)
        assert len(rules_version(game)) == 64 and short(rules_version(game)) in rules_version(game)


def test_every_game_has_its_own_version(games: dict[str, Game]) -> None:
    assert len({rules_version(g) for g in games.values()}) == len(games)


def test_a_variant_keeps_its_base_in_its_source(games: dict[str, Game]) -> None:
    files = [Path(name).name for name, _ in games["taradinho"].source.files]
    assert files == ["pontinho.yaml", "taradinho.yaml"]  # the base first


def test_a_corrected_base_is_a_new_version_of_each_variant(
    games: dict[str, Game], tmp_path: Path
) -> None:
    folder = specs_copy(tmp_path / "specs")
    edit(
        folder,
        "pontinho.yaml",
        "require: size(move.present) == 1\n",
        "require: size(move.present) <= 1\n",
    )
    corrected = load_games(folder)
    for name in ("pontinho", "taradinho"):
        assert rules_version(corrected[name]) != rules_version(games[name])
    for name in ("pontoon", "shoot_pontoon", "tarocchi_piedicavallo"):
        assert rules_version(corrected[name]) == rules_version(games[name])


def test_a_corrected_rule_is_a_new_version_and_the_old_text_still_compiles(
    games: dict[str, Game], tmp_path: Path
) -> None:
    corrected = load_games(corrected_specs(tmp_path / "specs"))
    assert rules_version(corrected["pontoon"]) != rules_version(games["pontoon"])
    assert rules_version(corrected["shoot_pontoon"]) != rules_version(games["shoot_pontoon"])
    old = compile_stored(source_text(games["pontoon"]))
    assert rules_version(old) == rules_version(games["pontoon"])


def test_comments_and_proofs_are_no_part_of_the_rules(
    games: dict[str, Game], tmp_path: Path
) -> None:
    folder = specs_copy(tmp_path / "specs")
    text = (folder / "pontoon.yaml").read_text(encoding="utf-8")
    (folder / "pontoon.yaml").write_text("# a comment\n" + text, encoding="utf-8")
    (folder / "pontoon.proofs.yaml").write_text("properties: []\n", encoding="utf-8")
    again = load_games(folder)["pontoon"]
    assert rules_version(again) == rules_version(games["pontoon"])
    assert again.source != games["pontoon"].source  # the text differs: the rules do not


def test_a_stored_text_that_is_not_a_source_is_refused() -> None:
    with pytest.raises(Exception, match="a stored spec does not read"):
        SpecSource.from_text("not json")
    with pytest.raises(Exception, match="has no file"):
        SpecSource.from_text('{"files": []}')
