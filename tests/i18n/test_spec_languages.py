"""Every shipped spec in English and its seed's language, every sentence of it; a spec whose
translation is missing or shows other values is refused, at the spot."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.errors import SpecErrors
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.spec.texts import wordings

SEED_LANGUAGE = {
    "pontinho": "pt",
    "taradinho": "pt",
    "tarocchi_piedicavallo": "pt",
    "pontoon": "tl",
    "shoot_pontoon": "tl",
    "blackjack": "pt",  # no seed: the language of the players the issue brings it for
    "pif_paf": "pt",  # Brazilian: Portuguese
    "sueca": "pt",  # Portuguese: its players' language, as no seed gives one
}


def test_each_game_is_written_in_english_and_its_seeds_language(games: dict[str, Game]) -> None:
    assert {name: game.spec.languages for name, game in games.items()} == {
        name: ("en", language) for name, language in SEED_LANGUAGE.items()
    }


@pytest.mark.parametrize("name", sorted(SEED_LANGUAGE))
def test_every_sentence_of_a_shipped_spec_is_in_both(games: dict[str, Game], name: str) -> None:
    spec = games[name].spec
    found = list(wordings(spec.located.data, frozenset(spec.sections)))
    assert len(found) > 5
    for wording in found:
        assert set(spec.languages) <= set(wording.text), wording.path
        assert all(sentence.strip() for sentence in wording.text.values()), wording.path
    # the verdicts a seat can be told: each rule and mechanic verdict, in both languages
    assert all(set(spec.languages) <= set(text) for text in games[name].texts.values())


def copy_of(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (DEFAULT_SPECS / f"{name}.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    for other in DEFAULT_SPECS.glob("*.yaml"):  # a spec may extend another
        (tmp_path / other.name).write_text(other.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / f"{name}.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def refused(path: Path) -> list[str]:
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    return [f"{e.path}: {e.message}" for e in caught.value.errors]


def test_a_missing_translation_is_refused_where_it_is_missing(tmp_path: Path) -> None:
    path = copy_of(tmp_path, "tarocchi_piedicavallo", ', pt: "não é a sua vez"', "")
    [error] = refused(path)
    assert error.startswith("rules[0].text: ") and "no `pt` sentence" in error


def test_a_translation_showing_other_values_is_refused(tmp_path: Path) -> None:
    path = copy_of(
        tmp_path,
        "pontoon",
        "ang paunang taya ay dapat nasa pagitan ng {low} at {high}",
        "ang paunang taya ay dapat nasa pagitan ng {low} at {hihg}",
    )
    [error] = refused(path)
    assert "the `tl` sentence shows `{hihg}`, `{low}`, the English one `{high}`, `{low}`" in error


def test_a_word_a_sentence_may_show_must_be_translated(tmp_path: Path) -> None:
    path = copy_of(tmp_path, "tarocchi_piedicavallo", "  cups: {pt: copas}\n", "")
    [error] = refused(path)
    assert "`{led}` may show the word `cups`: give it in `pt` under `words:`" in error


@pytest.mark.parametrize(
    ("languages", "message"),
    [
        ("[pt]", "`languages` must include `en`"),
        ("[en, PT]", "`languages` lists language codes"),
        ("pt", "`languages` lists language codes"),
    ],
)
def test_a_malformed_languages_list_is_refused(
    tmp_path: Path, languages: str, message: str
) -> None:
    path = copy_of(
        tmp_path, "tarocchi_piedicavallo", "languages: [en, pt]", f"languages: {languages}"
    )
    assert any(message in error for error in refused(path))


def test_a_spec_in_english_alone_needs_no_translation(tmp_path: Path) -> None:
    path = copy_of(tmp_path, "tarocchi_piedicavallo", "languages: [en, pt]", "languages: [en]")
    assert load_game(path).spec.languages == ("en",)
