"""What moves on a banking table besides the cards dealt: chips between a balance and the table,
and cards put back under the pack. Every chip that moves is a `transfer` event."""

from __future__ import annotations

from referee.cards import Card
from referee.mechanics.banking.state import BankState, Hand
from referee.model import Event


def under_the_pack(s: BankState, cards: list[Card]) -> None:
    """Cards put under the pack (its bottom is the first element), gathered in the order
    given: the first of them is dealt first when the pack comes round to them."""
    s.pack[:0] = reversed(cards)


def transfer(
    s: BankState,
    source: int | None,
    target: int | None,
    amount: int,
    reason: str,
    hand: Hand | None = None,
) -> Event:
    """Chips between a balance and the table (None): a bet goes on the table; a settled hand's
    stake leaves it (`hand`)."""
    if source is not None:
        s.balances[source] -= amount
    if target is not None:
        s.balances[target] += amount
    if hand is not None:
        hand.settled = True
    return Event(
        "transfer",
        {
            "from": "table" if source is None else source,
            "to": "table" if target is None else target,
            "amount": amount,
            "reason": reason,
        },
    )
