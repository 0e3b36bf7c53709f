"""A transcript's seat lines show a seat only what it may see (GEN-3, PO-3).

The banking table of the golden transcript is played again; after every move, every seat's line
is compared with what the rules let that seat see, worked out here from the table's state rather
than from the view code: a face-up card, any card once the hand is over, and the seat's own
face-down cards, except the banker's first card until the banker's turn. Every other card must
be `??`, and no card may show twice.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from referee.engine.game import Game
from referee.engine.table import Table
from referee.mechanics.banking.state import BankState
from referee.plugins.banking import BANKING
from referee.plugins.transcript import Transcript, new_table
from tests.oracles.pontoon import sees_own_card

CARD = re.compile(r"\?\?|\b[2-9TJQKA][CDHS]\b")  # a card code, or a card not seen


def may_see(state: BankState, viewer: int, holder: int, place: int, face_up: bool) -> bool:
    if face_up or state.phase == "between":
        return True
    if viewer != holder:
        return False
    return sees_own_card(state.phase, banker_first=holder == state.banker and place == 0)


def expected_cards(state: BankState, viewer: int) -> Counter[str]:
    """The cards `viewer` may see and how many `??` it must be shown, over every seat's hands."""
    shown: Counter[str] = Counter()
    for holder, hands in enumerate(state.hands):
        for hand in hands:
            for place, (card, up) in enumerate(zip(hand.cards, hand.face_up)):
                shown[str(card) if may_see(state, viewer, holder, place, up) else "??"] += 1
    return shown


def assert_lines_hide_what_they_must(table: Table) -> None:
    for seat in range(table.setup.seats):
        line = BANKING.view_line(table.view(seat))
        assert Counter(CARD.findall(line)) == expected_cards(table.state, seat), (
            f"seat {seat}, phase {table.state.phase}: {line}"
        )


@pytest.mark.parametrize(
    "game, seed, seats", [("pontoon", 3, 6), ("pontoon", 11, 3), ("shoot_pontoon", 3, 4)]
)
def test_seat_lines_show_only_what_the_seat_may_see(
    game: str, seed: int, seats: int, games: dict[str, Game]
) -> None:
    table = new_table(games[game], BANKING, seed, seats, None, 0)
    script, rng = Transcript(table, BANKING, every_view=False), random.Random(seed)
    assert_lines_hide_what_they_must(table)
    for number in range(1, 500):
        if script.finished(BANKING.hands):
            break
        script.turn(rng, number)
        assert_lines_hide_what_they_must(table)
    assert script.finished(BANKING.hands)
