"""Piedicavallo Tarocchi (RULES.md TA) in plain Python: what a card is worth, which cards may be
played or discarded, who takes a trick and how a deal is counted."""

from __future__ import annotations

from collections import Counter

from referee.cards import Card, PackKind

SWORDS_BATONS = "KQNJT98765"  # TA-3, highest first
CUPS_COINS = "KQNJA23456"
TEAMS = ((0, 2), (1, 3))  # TA-1
DEAL_POINTS = 114  # TA-4: the pack's points, which the two teams share


def card(code: str) -> Card:
    return Card.parse(code, PackKind.TAROT)


def is_matto(c: Card) -> bool:
    return str(c) == "MT"


def is_trump(c: Card) -> bool:
    """T1 .. T21 (GEN-2); the Matto is no trump."""
    return c.suit == "T" and not is_matto(c)


def team_of(seat: int) -> int:
    return next(t for t, team in enumerate(TEAMS) if seat in team)


def strength(c: Card, top_trump: str) -> int:
    """TA-3: the higher wins; with `angel_20` the 20 of trumps is the highest."""
    if is_trump(c):
        number = int(c.rank)
        return 22 if top_trump == "angel_20" and number == 20 else number
    order = SWORDS_BATONS if c.suit in "SB" else CUPS_COINS
    return len(order) - order.index(c.rank)


def points(c: Card) -> int:
    """TA-4: kings, T1, T21 and the Matto 5; queens 4; knights 3; jacks 2; every other card 1."""
    if is_matto(c) or str(c) in ("T1", "T21") or (c.rank == "K" and not is_trump(c)):
        return 5
    if is_trump(c):
        return 1
    return {"Q": 4, "N": 3, "J": 2}.get(c.rank, 1)


def suit_led(trick: list[Card]) -> str | None:
    """TA-8: the first card that is not the Matto sets it (`T` for trumps)."""
    for c in trick:
        if not is_matto(c):
            return c.suit
    return None


def may_play(hand: list[Card], trick: list[Card], c: Card) -> bool:
    """TA-7, TA-8: follow suit; else trump; else anything. The Matto any time."""
    if c not in hand:
        return False
    led = suit_led(trick)
    if is_matto(c) or led is None:
        return True
    if any(h.suit == led and not is_matto(h) for h in hand):
        return c.suit == led
    if any(is_trump(h) for h in hand):
        return is_trump(c)
    return True


def may_discard(hand: list[Card], cards: list[Card]) -> bool:
    """TA-5, TA-6 exactly as RULES.md states them."""
    if len(cards) != 2 or Counter(cards) - Counter(hand):
        return False
    if any(points(c) == 5 for c in cards):  # a king, T1, T21 or the Matto
        return False
    plain = sum(1 for c in hand if not is_trump(c) and points(c) != 5)
    trumps = sum(1 for c in cards if is_trump(c))
    left = sum(1 for c in hand if is_trump(c)) - trumps
    return trumps == 0 or (plain < 2 and trumps == 2 - plain) or left == 0


def trick_winner(trick: list[Card], top_trump: str) -> int:
    """TA-9: the place in `trick` of the highest trump, else of the highest card of the suit
    led; never the Matto."""
    trumps = [i for i, c in enumerate(trick) if is_trump(c)]
    led = suit_led(trick)
    candidates = trumps or [i for i, c in enumerate(trick) if c.suit == led and not is_matto(c)]
    return max(candidates, key=lambda i: strength(trick[i], top_trump))


def count(
    tricks: list[tuple[list[tuple[int, Card]], int]], discard: list[Card], dealer: int
) -> list[int]:
    """TA-4, TA-10, TA-11: each team's points for a finished deal, from its tricks (each its
    plays, seat and card, and the seat that won it), the dealer's discard and the dealer."""
    won = Counter(team_of(winner) for _, winner in tricks)
    result = [0, 0]
    for plays, winner in tricks:
        for seat, c in plays:
            owner = team_of(winner)
            if is_matto(c):  # the Matto stays with its team, unless that team took no trick
                owner = team_of(seat) if won[team_of(seat)] else 1 - team_of(seat)
            result[owner] += points(c)
    dealer_team = team_of(dealer)
    owner = dealer_team if won[dealer_team] else 1 - dealer_team
    result[owner] += sum(points(c) for c in discard)
    return result
