"""A spec that `extends` another: merged by rule id, and every error points at its own file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.errors import SpecErrors
from referee.plugins.games import load_game

SPECS = Path(__file__).resolve().parents[2] / "specs"


def child_spec(tmp_path: Path, body: str) -> Path:
    """A house rule of Pontinho written in English only: it says so (`languages: [en]`), or its
    English-only sentences would be refused for lacking the parent's Portuguese."""
    shutil.copy(SPECS / "pontinho.yaml", tmp_path / "pontinho.yaml")
    path = tmp_path / "child.yaml"
    path.write_text(
        "format: 1\ngame: child\nextends: pontinho\n" + body + "languages: [en]\n", encoding="utf-8"
    )
    return path


def test_a_child_in_its_parents_languages_must_translate_what_it_adds(tmp_path: Path) -> None:
    path = tmp_path / "child.yaml"
    shutil.copy(SPECS / "pontinho.yaml", tmp_path / "pontinho.yaml")
    path.write_text(
        "format: 1\ngame: child\nextends: pontinho\nrules:\n  - id: PN-19\n"
        "    on: [take_discard]\n    require: 'true'\n    text: relaxed\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    assert [e.path for e in caught.value.errors] == ["rules[1].text"]
    assert "no `pt` sentence" in caught.value.errors[0].message


def test_a_rule_given_again_replaces_the_parents_and_keeps_its_place(tmp_path: Path) -> None:
    path = child_spec(
        tmp_path,
        "rules:\n  - id: PN-19\n    on: [take_discard]\n    require: 'true'\n    text: relaxed\n",
    )
    game = load_game(path)
    ids = [r.id for r in game.spec.rules]
    parent = [r.id for r in load_game(SPECS / "pontinho.yaml").spec.rules]
    assert ids == parent
    by_id = {r.id: r for r in game.spec.rules}
    assert by_id["PN-19"].require == "true" and by_id["PN-19"].where.file == str(path)
    # the inherited rules keep their own text and their place in the parent's file
    assert by_id["GEN-7"].require == "in_turn"
    assert by_id["GEN-7"].where.file == str(tmp_path / "pontinho.yaml")


def test_removed_and_added_rules(tmp_path: Path) -> None:
    path = child_spec(
        tmp_path,
        "rules:\n  - id: PN-19\n    remove: true\n"
        "  - id: NEW-1\n    on: [draw]\n    require: size(hand) > 0\n",
    )
    ids = [r.id for r in load_game(path).spec.rules]
    assert "PN-19" not in ids and ids[-1] == "NEW-1"


def test_an_error_in_the_child_points_into_the_child(tmp_path: Path) -> None:
    path = child_spec(
        tmp_path,
        "rules:\n  - id: PN-19\n    remove: true\n"
        "  - id: NEW-1\n    on: [draw]\n    require: sizee(hand) > 0\n",
    )
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    [error] = caught.value.errors
    assert (error.file, error.line, error.column) == (str(path), 9, 14)
    assert "unknown function `sizee`" in str(error)


def test_an_overriding_rule_must_be_whole(tmp_path: Path) -> None:
    path = child_spec(tmp_path, "rules:\n  - id: PN-19\n    require: 'true'\n")
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    [error] = caught.value.errors
    assert (error.file, error.line) == (str(path), 5) and "needs `on:`" in str(error)


def test_options_merge_key_by_key(tmp_path: Path) -> None:
    path = child_spec(tmp_path, "options:\n  claims:\n    default: window\n")
    option = load_game(path).spec.options["claims"]
    assert option.default == "window" and option.values == ("first_valid", "window")
