"""The cards a seat of a banking table may know (GEN-3): what its view shows, from the state
alone.

Every seat and a spectator know the cards face up; a seat knows its own face-down cards too, but
the banker not its first until its turn (`views.BANKER_BLIND`); the adjudicator knows every
card. Agrees with `views.view`, its finished hand's record and revealed deck aside
(tests/redaction/test_knowable.py checks it).
"""

from __future__ import annotations

from referee.mechanics.banking.state import BankState
from referee.mechanics.banking.views import BANKER_BLIND
from referee.mechanics.banking.visibility import DEFAULT, Visibility
from referee.model import ADJUDICATOR


def knowable(
    state: BankState, seat: int | None, visibility: Visibility = DEFAULT
) -> frozenset[str]:
    """The canonical codes of the cards `seat` may know (None: a spectator), the banker's
    hidden places (`banking.visibility`) known to nobody until its turn."""
    hidden = visibility.hidden_places
    if seat == ADJUDICATOR:
        every = [c for hands in state.hands for hand in hands for c in hand.cards]
        return frozenset(card.code for card in every + state.pack)
    known: set[str] = set()
    for holder, hands in enumerate(state.hands):
        own = holder == seat
        blind = holder == state.banker and state.phase in BANKER_BLIND
        for hand in hands:
            for place, (card, up) in enumerate(zip(hand.cards, hand.face_up)):
                if up or (own and not (blind and place in hidden)):
                    known.add(card.code)
    return frozenset(known)
