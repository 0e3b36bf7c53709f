"""The cards a seat of a trick-taking table may know (GEN-3): what its view shows, from the
state alone.

Every seat and a spectator know the trick on the table, the last trick taken and the card
turned at the deal while it is face up; a seat knows
its own hand (not its partner's), and the dealer its own discard; the adjudicator knows every
card. Agrees with `views.view`, its finished deal's record aside
(tests/redaction/test_knowable.py checks it).
"""

from __future__ import annotations

from itertools import chain

from referee.cards import Card
from referee.mechanics.tricks.state import TrickState
from referee.model import ADJUDICATOR


def knowable(state: TrickState, seat: int | None) -> frozenset[str]:
    """The canonical codes of the cards `seat` may know (None: a spectator)."""
    cards: list[Card] = [card for _, card in state.trick]
    if state.tricks:
        cards += (card for _, card in state.tricks[-1].plays)
    if state.turned is not None and state.turned_shown:
        cards.append(state.turned)
    if seat == ADJUDICATOR:
        cards += chain(state.discard, *state.hands)
        cards += (card for trick in state.tricks for _, card in trick.plays)
    elif seat is not None and 0 <= seat < state.seats:
        cards += state.hands[seat]
        if seat == state.dealer:
            cards += state.discard  # the dealer knows its own discard
    return frozenset(card.code for card in cards)
