"""Hand totals as both banking games count them (RULES.md PO-1; the test-only twenty-one,
docs/example-specs/twenty_one.yaml, counts the same), in plain Python."""

from __future__ import annotations

from referee.cards import Card

BUST_OVER = 21


def value(code: str) -> int:
    """PO-1: an ace 1 (see `best_total`), K Q J T 10, others their pips."""
    c = Card.parse(code)
    return 1 if c.rank == "A" else min(c.value, 10)


def hard_total(cards: list[str]) -> int:
    return sum(value(c) for c in cards)


def best_total(cards: list[str]) -> int:
    """PO-1: one ace counts 11 when that does not go over 21."""
    hard = hard_total(cards)
    ace = any(Card.parse(c).rank == "A" for c in cards)
    return hard + 10 if ace and hard + 10 <= BUST_OVER else hard
