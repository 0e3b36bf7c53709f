"""Whist (docs/example-specs/whist.yaml, an example game) in plain Python: who must
follow suit and who takes a trick."""

from __future__ import annotations

from referee.cards import Card


def high(c: Card) -> int:
    """Aces high."""
    return 14 if c.rank == "A" else c.value


def may_play(hand: list[Card], led: str | None, c: Card) -> bool:
    """Follow suit when you can; no duty to trump."""
    return led is None or c.suit == led or not any(h.suit == led for h in hand)


def trick_winner(cards: list[Card], trumps: str) -> int:
    """The place of the highest trump (`trumps` a suit, or `none`), else of the highest card of
    the suit led."""
    ruffs = [i for i, c in enumerate(cards) if c.suit == trumps]
    return max(
        ruffs or [i for i, c in enumerate(cards) if c.suit == cards[0].suit],
        key=lambda i: high(cards[i]),
    )
