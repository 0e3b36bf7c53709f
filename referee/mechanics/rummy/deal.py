"""Dealing a rummy hand: from the table seed (PN-2, PN-3, PN-4) or from a stacked deal.

A stacked deal (SCENARIOS.md) gives `hands`, `turned` and `stock` (top first); the cards it does
not place follow the listed stock in the pack's fixed order, so the deal is still deterministic.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from referee.cards import Card, PackKind
from referee.engine import chance
from referee.errors import CardError, SetupError


@dataclass(frozen=True)
class Dealt:
    hands: list[list[Card]]
    turned: Card
    stock: list[Card]  # top first
    deck: tuple[Card, ...]


def deal_from_seed(pack: list[Card], seats: int, order: list[int], hand_size: int, packet: int,
                   seed: int, hand_number: int = 1) -> Dealt:
    """Deal `hand_size` cards in packets to the seats of `order` (the first is the mão), round
    after round; the next card is turned. Seats not in `order` get no cards."""
    deck = chance.shuffled(pack, seed, "deal", hand_number)
    hands: list[list[Card]] = [[] for _ in range(seats)]
    position = 0
    for _ in range(0, hand_size, packet):
        for seat in order:
            take = min(packet, hand_size - len(hands[seat]))
            hands[seat].extend(deck[position:position + take])
            position += take
    return Dealt(hands, deck[position], deck[position + 1:], tuple(deck))


def deal_stacked(pack: list[Card], seats: int, hand_size: int, stacked: Mapping[str, Any]) -> Dealt:
    unknown = sorted(set(stacked) - {"hands", "turned", "stock"})
    if unknown:
        raise SetupError(f"stacked deal: unknown key `{unknown[0]}`: expected `hands`, `turned`, `stock`")
    hands = _read_hands(stacked.get("hands"), seats, hand_size)
    if stacked.get("turned") is None:
        raise SetupError("stacked deal: missing `turned`, the turned card")
    turned = _card(stacked["turned"], "turned")
    stock = [_card(c, "stock") for c in stacked.get("stock") or []]
    placed = [c for hand in hands for c in hand] + [turned] + stock
    _check_counts(pack, placed)
    rest = list((Counter(pack) - Counter(placed)).elements())
    rest.sort(key=pack.index)
    stock += rest
    return Dealt(hands, turned, stock, tuple(placed + rest))


def _read_hands(raw: Any, seats: int, hand_size: int) -> list[list[Card]]:
    if not isinstance(raw, Mapping):
        raise SetupError("stacked deal: `hands` must map each seat to its cards")
    hands: list[list[Card]] = [[] for _ in range(seats)]
    given = set()
    for key, cards in raw.items():
        seat = int(key) if str(key).lstrip("-").isdigit() else -1
        if not 0 <= seat < seats:
            raise SetupError(f"stacked deal: `{key}` is not a seat of this table")
        if not isinstance(cards, list) or len(cards) != hand_size:
            count = len(cards) if isinstance(cards, list) else 0
            raise SetupError(f"stacked deal: seat {seat} gets {count} cards, not {hand_size}")
        hands[seat] = [_card(c, f"hands.{seat}") for c in cards]
        given.add(seat)
    missing = sorted(set(range(seats)) - given)
    if missing:
        raise SetupError(f"stacked deal: no hand for seat {missing[0]}")
    return hands


def _card(text: Any, where: str) -> Card:
    try:
        return Card.parse(text, PackKind.FRENCH)
    except CardError as exc:
        raise SetupError(f"stacked deal: `{where}`: {exc.message}") from None


def _check_counts(pack: list[Card], placed: list[Card]) -> None:
    have = Counter(pack)
    for card, count in Counter(placed).items():
        if count > have[card]:
            raise SetupError(f"stacked deal: `{card}` is used {count} times; the pack holds "
                             f"{have[card]}")
