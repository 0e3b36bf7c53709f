"""The referee's own sentences: every key in every language, each showing the same values, and
every key the code names present in the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

from referee.i18n import CATALOGUE, Catalogue, fill
from referee.model import Sentence

ROOT = Path(__file__).resolve().parents[2]
# where the code names a sentence: `Sentence("move.missing_field", ...)`, `_malformed("move...", ...)`
KEY_IN_CODE = re.compile(r'(?:Sentence|_malformed)\(\s*"([a-z_]+\.[a-z_.]+)"')


def test_the_catalogue_is_complete_in_english_portuguese_and_tagalog() -> None:
    assert CATALOGUE.languages == ["en", "pt", "tl"]
    assert CATALOGUE.problems() == []


def test_a_missing_language_or_a_changed_value_is_reported() -> None:
    broken = Catalogue(
        {"a": {"en": "hold {card}", "pt": "tenha {carta}"}, "b": {"en": "x", "tl": "y"}}
    )
    assert broken.problems() == [
        "`a` in `pt` shows other values than in English",
        "`a` has no `tl` sentence",
        "`b` has no `pt` sentence",
    ]


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    named = {
        key
        for path in (ROOT / "referee").rglob("*.py")
        for key in KEY_IN_CODE.findall(path.read_text(encoding="utf-8"))
    }
    assert len(named) > 25  # the search finds them: a control against a broken pattern
    assert sorted(named - set(CATALOGUE.entries)) == []


def test_a_sentence_is_worded_in_each_language_with_its_nested_parts() -> None:
    at = Sentence("move.at_field", {"at": Sentence("move.at", {"type": "play"}), "field": "card"})
    missing = Sentence(
        "move.missing_field", {"at": Sentence("move.at", {"type": "play"}), "field": "card"}
    )
    assert CATALOGUE.render(missing) == "to play: the card is missing"
    assert CATALOGUE.render(missing, "pt") == "jogar: falta a carta"
    assert CATALOGUE.render(at, "tl") == "tumira: ang baraha"
    assert CATALOGUE.render(missing, "de") == CATALOGUE.render(missing)  # unknown: English
    assert Sentence.from_data(missing.to_data()) == missing


def test_a_name_of_the_move_language_is_shown_as_its_word() -> None:
    """A move type or a field as its word in each language; a client's own name in quotes;
    a list written for programmers (a stored verdict's `known`) item by item."""
    unknown = Sentence("move.unknown_type", {"type": "double", "known": "`bet`, `next_hand`"})
    assert CATALOGUE.render(unknown) == (
        "there is no move \u201cdouble\u201d: the moves are to bet, deal the next hand"
    )
    assert CATALOGUE.render(unknown, "tl").endswith("tumaya, ibigay ang susunod na kamay")
    hint = Sentence("fix.amount_range", {"field": "amount", "min": 1, "max": 50})
    assert CATALOGUE.render(hint, "pt") == "dê o valor entre 1 e 50"


def test_fill_replaces_only_the_values_it_has() -> None:
    assert fill("hold {card} of {suit}", {"card": "7H"}) == "hold 7H of {suit}"
    assert (
        fill("`{id: ...}` is {x}", {"x": "{card}"}) == "`{id: ...}` is {card}"
    )  # values are not re-read
