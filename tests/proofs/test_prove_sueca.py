"""Sueca's properties (STYLE.md 9): the pack holds 40 cards and 120 card points, every trick has
one winner (SU-5's, the trump being the turned card's suit), a card may be played exactly when
SU-4 says so, a deal's card points give the game points SU-7 says, and the match ends at
`match_to` (SU-8). Each is proved; a broken copy of the spec gives counterexamples for the
properties it breaks, replayed by the engine's own compiled expressions."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.proofs.prover import Outcome, prove, read_properties

from .stacking import Edits, edited_spec

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("proofs-sueca")]

GAME = "sueca"
PROPERTY_IDS = [
    "pack-40-cards-120-points",
    "one-winner-a-trick",
    "legal-play-is-SU-4",
    "game-points-SU-7",
    "match-to-the-target",
]
# Each break changes one expression or rule of the spec; the properties named must then fail.
BREAKS: dict[str, tuple[Edits, list[str]]] = {
    # SU-2: the queen above the jack
    "queen-over-jack": (
        [("[ace, 7, king, jack, queen, 6", "[ace, 7, king, queen, jack, 6")],
        ["one-winner-a-trick"],
    ),
    # SU-2: the seven worth 11 like the ace
    "seven-worth-eleven": (
        [("else if rank(c) == 7 then 10", "else if rank(c) == 7 then 11")],
        ["pack-40-cards-120-points"],
    ),
    # SU-3, SU-5: no card is a trump, whatever was turned
    "trumps-ignored": (
        [("body: suit(c) == suit(turned)", "body: suit(c) == suit(turned) and false")],
        ["one-winner-a-trick"],
    ),
    # SU-4: a duty to trump when void
    "duty-to-trump": (
        [
            (
                "require: follows(move.card) or not can_follow",
                "require: 'follows(move.card) or (not can_follow and (is_trump(move.card)"
                " or not any(c in hand: is_trump(c))))'",
            )
        ],
        ["legal-play-is-SU-4"],
    ),
    # SU-7: 90 card points worth two game points
    "ninety-is-two": (
        [("points[team] >= 91 then 2", "points[team] >= 90 then 2")],
        ["game-points-SU-7"],
    ),
    # SU-8: the match ends past the target, not at it
    "past-the-target": (
        [("p >= options.match_to", "p > options.match_to")],
        ["match-to-the-target"],
    ),
}


@pytest.fixture(scope="module")
def sueca(games: dict[str, Game]) -> Game:
    return games[GAME]


def proved(game: Game) -> dict[str, list[Outcome]]:
    return {p.id: prove(game, p) for p in read_properties(game)}


def test_every_property_is_proved(sueca: Game) -> None:
    outcomes = proved(sueca)
    assert list(outcomes) == PROPERTY_IDS
    for outcome in (o for found in outcomes.values() for o in found):
        assert outcome.status == "proved", outcome.line()
    assert [o.options for o in outcomes["match-to-the-target"]] == [
        {"match_to": n} for n in (1, 4, 10)
    ]


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_broken_spec_is_caught_by_its_properties(tmp_path: Path, name: str) -> None:
    edits, failing = BREAKS[name]
    game = load_game(edited_spec(GAME, tmp_path, name, edits), DEFAULT_SPECS)
    outcomes = proved(game)
    caught = sorted(
        pid for pid, found in outcomes.items() if any(o.status != "proved" for o in found)
    )
    assert caught == sorted(failing)
    for pid in failing:
        example = next(o for o in outcomes[pid] if o.status != "proved")
        assert example.status == "counterexample", example.line()
