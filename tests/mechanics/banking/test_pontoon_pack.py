"""The pack of a Pontoon table through long hands (PO-5): the events, which the conformance
scenarios cannot check. A hand that finds the pack empty stands with a `pack_empty` event
naming its seat and hand, and nothing else happens (no card, no chips); a bust hand is shown to
every seat before its cards go under the pack; the split refused for lack of cards is the spec's
verdict (`banking.violations`).

The tables are those of two scenarios in tests/conformance/pontoon/, played move by move here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.engine.table import Table
from referee.model import Verdict
from referee.scenario.format import MoveStep, load_file
from referee.scenario.target import table_setup
from tests.support.games import shipped_games

HERE = Path(__file__).resolve().parents[2] / "conformance" / "pontoon"
GAMES = shipped_games()


@dataclass
class Played:
    step: MoveStep
    verdict: Verdict
    pack_before: int  # cards in the pack when the move was proposed

    def kinds(self) -> list[str]:
        return [e.kind for e in self.verdict.events]


def play(name: str) -> list[Played]:
    """Every move of the scenario `name`, proposed in order on one table."""
    scenario = load_file(HERE / name)
    table = Table.create(GAMES[scenario.setup.game], table_setup(scenario.setup))
    played = []
    for step in scenario.steps:
        if isinstance(step, MoveStep):
            before = len(table.state.pack)
            played.append(Played(step, table.propose(step.seat, step.move), before))
    return played


def test_a_hand_that_finds_the_pack_empty_stands_and_nothing_else_moves() -> None:
    stands = [m for m in play("po5-empty-pack-hand-stands.yaml") if "pack_empty" in m.kinds()]
    assert [(m.step.seat, m.step.move.type, m.pack_before) for m in stands] == [
        (7, "buy", 0),
        (0, "twist", 0),
    ]
    seven, banker = stands
    # seat 7's buy: no card, no transfer; the banker's turn comes
    assert seven.verdict.events[0].data == {"seat": 7, "hand": 0}
    assert seven.kinds() == ["pack_empty", "banker_shows"]
    # the banker's twist: it stands, and the hand is settled at once
    assert banker.verdict.events[0].data == {"seat": 0, "hand": 0}
    assert "card" not in banker.kinds() and banker.kinds()[-1] == "hand_over"


def test_the_split_refused_for_lack_of_cards_is_the_specs_verdict() -> None:
    (split,) = [
        m
        for m in play("po5-empty-pack-hand-stands.yaml")
        if m.step.move.type == "split" and not m.verdict.accepted
    ]
    assert split.pack_before == 1
    (violation,) = split.verdict.violations
    assert (violation.rule, violation.cites, violation.code) == (
        "PO-5-split-pack",
        ("PO-5",),
        "split_pack_short",
    )


def test_a_bust_hand_is_shown_to_every_seat_before_its_cards_go_under_the_pack() -> None:
    (bust,) = [
        m
        for m in play("po5-bust-cards-under-the-pack.yaml")
        if any(e.kind == "hand_shown" and e.data["bust"] for e in m.verdict.events)
    ]
    shown = next(e for e in bust.verdict.events if e.kind == "hand_shown")
    assert shown.data == {"seat": 4, "hand": 0, "cards": ["KS", "KH", "KD"], "bust": True}
    assert all(shown.seen_by(seat)["cards"] == shown.data["cards"] for seat in (None, 0, 1, 7))
    assert bust.kinds() == ["card", "hand_shown", "transfer"]
    assert bust.pack_before == 30
