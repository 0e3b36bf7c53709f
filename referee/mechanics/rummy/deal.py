"""Dealing a rummy hand: from the table seed or from a stacked deal.

Where the spec turns a card (`rummy.turned_card`), the card after the hands is turned face up.
A stacked deal (SCENARIOS.md) gives `hands`, `turned` (where a card is turned) and `stock` (top
first); the cards it does not place follow the listed stock in the pack's fixed order, so the
deal is still deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import Card, PackKind
from referee.engine import chance
from referee.engine import stacked as stacking
from referee.errors import SetupError


@dataclass(frozen=True)
class Dealt:
    hands: list[list[Card]]
    turned: Card | None  # None: the spec turns no card
    stock: list[Card]  # top first
    deck: tuple[Card, ...]
    keys: dict[str, str]  # the shuffle's key by purpose (none for a stacked deal)


def deal_from_seed(
    pack: list[Card],
    seats: int,
    order: list[int],
    hand_size: int,
    packet: int,
    seed: str,
    hand_number: int = 1,
    turns: bool = True,
) -> Dealt:
    """Deal `hand_size` cards in packets to the seats of `order` (the first plays first), round
    after round; the next card is turned if `turns`. Seats not in `order` get no cards."""
    shuffle = chance.shuffle(pack, seed, "deal", hand_number)
    deck = shuffle.cards
    hands: list[list[Card]] = [[] for _ in range(seats)]
    position = 0
    for _ in range(0, hand_size, packet):
        for seat in order:
            take = min(packet, hand_size - len(hands[seat]))
            hands[seat].extend(deck[position : position + take])
            position += take
    turned = deck[position] if turns else None
    stock = deck[position + 1 :] if turns else deck[position:]
    return Dealt(hands, turned, stock, tuple(deck), {shuffle.purpose: shuffle.key})


def deal_stacked(
    pack: list[Card], seats: int, hand_size: int, stacked: Mapping[str, Any], turns: bool = True
) -> Dealt:
    stacking.check_keys(stacked, ("hands", "turned", "stock") if turns else ("hands", "stock"))
    hands = stacking.read_hands(stacked.get("hands"), [hand_size] * seats, PackKind.FRENCH)
    turned = _stacked_turned(stacked) if turns else None
    stock = [stacking.read_card(c, "stock", PackKind.FRENCH) for c in stacked.get("stock") or []]
    placed = [c for hand in hands for c in hand] + ([turned] if turned else []) + stock
    rest = stacking.rest_of_pack(pack, placed)
    return Dealt(hands, turned, stock + rest, tuple(placed + rest), {})


def _stacked_turned(stacked: Mapping[str, Any]) -> Card:
    if stacked.get("turned") is None:
        raise SetupError("stacked deal: missing `turned`, the turned card")
    return stacking.read_card(stacked["turned"], "turned", PackKind.FRENCH)
