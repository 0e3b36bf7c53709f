"""The committed rulebook (docs/rules/) is what `referee docs` makes from the shipped specs.

A spec changed and the rulebook was not regenerated: run `referee docs` and commit docs/rules/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main
from referee.engine.game import Game
from referee.rulebook import anchor, rulebook

from .freshness import assert_fresh

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.fixture(scope="module")
def files(games: dict[str, Game]) -> dict[str, str]:
    return rulebook(games)


def test_the_committed_rulebook_is_what_the_specs_give(tmp_path: Path) -> None:
    assert_fresh("docs", RULES, "*.md", tmp_path)


def test_every_rule_id_option_and_move_is_in_its_game_file(
    games: dict[str, Game], files: dict[str, str]
) -> None:
    assert sorted(files) == sorted([f"{name}.md" for name in games] + ["README.md"])
    for name, game in games.items():
        text = files[f"{name}.md"]
        for rule in game.spec.rules:
            assert f"\n### {rule.id}\n" in text, (name, rule.id)
            for language in game.spec.languages:  # each one the spec declares: all complete
                sentence = " ".join(rule.text[language].split())
                assert f"{language}: {sentence}" in text, (name, rule.id, language)
        for option in game.spec.options.values():
            assert f"| `{option.name}` | {option.type} |" in text, (name, option.name)
        for move in game.spec.moves.values():
            assert f"| `{move.type}` |" in text, (name, move.type)
        assert f"[{name}.md]({name}.md)" in files["README.md"]


def test_a_mechanics_own_verdicts_are_listed_with_their_ids(files: dict[str, str]) -> None:
    text = files["pontinho.md"]
    # `rummy.violations` and `meld_kinds.*.misfit` in the spec: verdicts the mechanic gives
    for rule_id in ("PN-13-shape", "PN-12-rank", "PN-13-suit", "PN-14"):
        assert f"\n### {rule_id}\n" in text
    assert "(`rummy.violations.no_meld`)" in text


def test_a_rule_id_links_to_the_anchor_of_its_heading() -> None:
    assert anchor("PN-13-shape") == "pn-13-shape"
    assert anchor("pack-62-cards-114-points") == "pack-62-cards-114-points"


def test_docs_with_bad_specs_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken.yaml").write_text("format: 1\ngame: broken\nmechanics: nothing\n")
    assert main(["docs", "--specs", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
