"""A rule's `fix:` (how to mend a move that breaks it): read, type-checked and located like
`say:`, refused by check-spec when wrong; its kinds are those of `referee.spec.fixes`, worded in
`referee/i18n/fixes.yaml`; a violation carries it as data, through `to_data` and back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from referee.cli import main
from referee.model import Verdict, Violation
from referee.spec.fixes import FIX_KINDS, fix_data
from tests.support.spec_edits import assert_located, at, broken, caret_column, only_error, spot

CATALOGUE = Path(__file__).parents[2] / "referee" / "i18n" / "fixes.yaml"
TAKE_FIRST_FIX = """fix: {kind: move_instead, moves: '["draw", "take_discard"]'}"""
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


# --- the catalogue of sentences -------------------------------------------------------------------


def test_every_fix_kind_has_an_english_sentence_naming_its_values() -> None:
    sentences = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    assert set(sentences) == {f"fix.{kind}" for kind in FIX_KINDS}
    for key, texts in sentences.items():
        kind = FIX_KINDS[key.removeprefix("fix.")]
        english = texts["en"]
        assert set(PLACEHOLDER.findall(english)) == set(kind.values), key
        assert english == english.lower() and not english.endswith("."), key


def test_kind_names_are_snake_case() -> None:
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", kind) for kind in FIX_KINDS)


# --- errors, located ------------------------------------------------------------------------------


def test_an_unknown_kind_is_reported_at_it(tmp_path: Path) -> None:
    path = broken(
        tmp_path, (TAKE_FIRST_FIX, TAKE_FIRST_FIX.replace("move_instead", "move_elsewhere"))
    )
    error = only_error(path)
    assert "unknown fix kind `move_elsewhere`" in error.detail and "`move_instead`" in error.detail
    line, _ = spot(path, "move_elsewhere")
    assert_located(error, path, line, at("PN-16-take-first", "fix.kind"))


def test_a_value_the_kind_lacks_is_reported_at_its_key(tmp_path: Path) -> None:
    path = broken(
        tmp_path, (TAKE_FIRST_FIX, TAKE_FIRST_FIX.replace("moves:", "cards: hand, moves:"))
    )
    error = only_error(path)
    assert "fix `move_instead` has no value `cards`" in error.detail
    line, column = spot(path, "cards: hand, moves")
    assert_located(error, path, line, at("PN-16-take-first", "fix.cards"), column)


def test_a_missing_value_is_reported_at_the_fix(tmp_path: Path) -> None:
    path = broken(tmp_path, (TAKE_FIRST_FIX, "fix: {kind: move_instead}"))
    error = only_error(path)
    assert "fix `move_instead` needs a value `moves`" in error.detail
    line, _ = spot(path, "fix: {kind: move_instead}")
    assert_located(error, path, line, at("PN-16-take-first", "fix"))


def test_a_value_of_the_wrong_type_points_at_it_with_a_caret(tmp_path: Path) -> None:
    path = broken(tmp_path, (TAKE_FIRST_FIX, "fix: {kind: move_instead, moves: 'size(hand)'}"))
    error = only_error(path)  # judged at four checkpoints, reported once
    assert "`list[str]`" in error.detail and "`int`" in error.detail, error.detail
    line, column = spot(path, "size(hand)")
    assert_located(error, path, line, at("PN-16-take-first", "fix.moves"), column)
    assert caret_column(error) == 0


def test_an_unknown_name_in_a_fix_is_refused_by_check_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = broken(tmp_path, (TAKE_FIRST_FIX, "fix: {kind: move_instead, moves: 'moves_left'}"))
    assert main(["check-spec", str(path)]) == 1
    assert "fix.moves" in capsys.readouterr().err


# --- the data a violation carries -----------------------------------------------------------------


def test_a_fix_offering_no_way_out_is_left_out() -> None:
    assert fix_data("play_one_of", {"cards": []}) == {}
    assert fix_data("amount_range", {"field": "shoot", "min": 1, "max": 0}) == {}
    assert fix_data("amount_range", {"field": "amount", "min": 1, "max": 1}) == {
        "kind": "amount_range",
        "field": "amount",
        "min": 1,
        "max": 1,
    }


def test_a_fix_goes_through_data_and_back_and_is_absent_when_empty() -> None:
    mended = Violation("TA-7-follow", "follow", fix={"kind": "play_one_of", "cards": ["7C"]})
    assert Violation.from_data(mended.to_data()) == mended
    assert "fix" not in Violation("GEN-7", "not your turn").to_data()
    stored = {"outcome": "rejected", "violations": [{"rule": "GEN-7", "message": "not yet"}]}
    assert Verdict.from_data(stored).violations[0].fix == {}  # stored before fixes existed
    assert hash(mended) == hash(Violation("TA-7-follow", "follow"))  # still a key
