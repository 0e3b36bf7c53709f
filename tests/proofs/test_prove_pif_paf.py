"""Pif-Paf's properties (specs/pif_paf.proofs.yaml; STYLE.md 9): a trio is three or four cards of
one rank, never two of one suit; a sequence is of one suit, consecutive, no rank repeated, and
never turns the corner. Each is proved; a broken copy of the spec (a rule loosened) gives a
counterexample the engine's meld checker accepts too (`replayed`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.proofs.prover import Property, prove, read_properties

from .stacking import Edits, edited_spec

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("proofs-pif-paf")]

GAME = "pif_paf"
PROPERTY_IDS = [
    "trio-three-or-four-suits",
    "trio-never-two-of-one-suit",
    "sequence-one-suit-no-repeat",
    "sequence-never-turns-the-corner",
    "sequence-consecutive",
]
# Each break loosens one rule of the spec; the properties named beside it must then fail.
BREAKS: dict[str, tuple[Edits, list[str]]] = {
    # PP-3: a trio may hold the other pack's copy of a card (suits no longer all different)
    "trio-copies": (
        [
            (
                "require: 'size(cards) <= 4 and size(distinct(map(c in cards: suit(c)))) == size(cards)'",
                "require: 'size(cards) <= 4'",
            )
        ],
        ["trio-three-or-four-suits", "trio-never-two-of-one-suit"],
    ),
    # PP-3: the ace both low and high: K-A-2 turns the corner
    "corner": (
        [
            (
                "require: size(cards) >= 3 and (seq_run(false) or seq_run(true))",
                "require: 'size(cards) >= 3 and (seq_run(false) or seq_run(true)"
                " or (size(distinct(map(c in cards: rank(c)))) == size(cards)"
                " and all(c in cards: rank(c) <= 2 or rank(c) >= 12)))'",
            )
        ],
        ["sequence-never-turns-the-corner", "sequence-consecutive"],
    ),
}


def named(game: Game, property_id: str) -> Property:
    return next(p for p in read_properties(game) if p.id == property_id)


@pytest.mark.parametrize("property_id", PROPERTY_IDS)
def test_each_property_is_proved(games: dict[str, Game], property_id: str) -> None:
    outcomes = prove(games[GAME], named(games[GAME], property_id))
    assert [o.status for o in outcomes] == ["proved"]


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_loosened_rule_gives_a_replayed_counterexample(tmp_path: Path, name: str) -> None:
    edits, failing = BREAKS[name]
    game = load_game(edited_spec(GAME, tmp_path, name, edits), DEFAULT_SPECS)
    for property_id in failing:
        (outcome,) = prove(game, named(game, property_id))
        assert outcome.status == "counterexample", (property_id, outcome.status)
        assert outcome.replayed, (property_id, outcome.counterexample)
