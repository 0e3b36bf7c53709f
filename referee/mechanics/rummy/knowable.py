"""The cards a seat of a rummy table may know (GEN-3): what its view shows, from the state alone.

Every seat and a spectator know the melds, the top discard, the turned card and the jokers it
makes; a seat knows its own hand; between hands and once the match is over every hand is shown
(the hand is scored face up); the adjudicator knows every card. Agrees with `views.view`,
its finished hand's record aside (tests/redaction/test_knowable.py checks it).
"""

from __future__ import annotations

from itertools import chain

from referee.mechanics.rummy.state import RummyState
from referee.model import ADJUDICATOR

SHOWN_HANDS = ("decide", "over")  # the finished hand is still on the table, face up


def knowable(state: RummyState, seat: int | None) -> frozenset[str]:
    """The canonical codes of the cards `seat` may know (None: a spectator)."""
    cards = [*state.jokers, *(card for meld in state.melds for card in meld.cards)]
    if state.turned is not None:
        cards.append(state.turned)
    if state.discard:
        cards.append(state.discard[-1])
    if seat == ADJUDICATOR:
        cards += chain(state.stock, state.discard)
    if seat == ADJUDICATOR or state.phase in SHOWN_HANDS:
        cards += chain.from_iterable(state.hands)
    elif seat is not None and 0 <= seat < state.seats:
        cards += state.hands[seat]
    return frozenset(card.code for card in cards)
