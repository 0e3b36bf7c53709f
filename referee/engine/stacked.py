"""Reading a stacked deal (SCENARIOS.md): the cards a scenario places, checked against the pack.

Every mechanic reads its own keys (`hands`, `turned`, `stock`, `deck`); the parts they share are
here: cards read with the game's pack, hands of the right sizes, no card used more often than
the pack holds, and the cards not placed following in the pack's fixed order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import Card, PackKind
from referee.errors import CardError, SetupError


def read_card(text: Any, where: str, kind: PackKind) -> Card:
    try:
        return Card.parse(text, kind)
    except CardError as exc:
        raise SetupError(f"stacked deal: `{where}`: {exc.message}") from None


def check_keys(stacked: Mapping[str, Any], allowed: Sequence[str]) -> None:
    unknown = sorted(set(stacked) - set(allowed), key=str)  # `1`: a digit key came as a number
    if unknown:
        expected = ", ".join(f"`{k}`" for k in allowed)
        raise SetupError(f"stacked deal: unknown key `{unknown[0]}`: expected {expected}")


def read_hands(raw: Any, sizes: Sequence[int], kind: PackKind) -> list[list[Card]]:
    """One hand per seat, seat s holding exactly `sizes[s]` cards."""
    if not isinstance(raw, Mapping):
        raise SetupError("stacked deal: `hands` must map each seat to its cards")
    hands: list[list[Card]] = [[] for _ in sizes]
    given = set()
    for key, cards in raw.items():
        seat = int(key) if str(key).lstrip("-").isdigit() else -1
        if not 0 <= seat < len(sizes):
            raise SetupError(f"stacked deal: `{key}` is not a seat of this table")
        if not isinstance(cards, list) or len(cards) != sizes[seat]:
            count = len(cards) if isinstance(cards, list) else 0
            raise SetupError(f"stacked deal: seat {seat} gets {count} cards, not {sizes[seat]}")
        hands[seat] = [read_card(c, f"hands.{seat}", kind) for c in cards]
        given.add(seat)
    missing = sorted(set(range(len(sizes))) - given)
    if missing:
        raise SetupError(f"stacked deal: no hand for seat {missing[0]}")
    return hands


def rest_of_pack(pack: list[Card], placed: list[Card]) -> list[Card]:
    """The cards of `pack` not placed, in the pack's fixed order; an error when a card is placed
    more often than the pack holds it."""
    have = Counter(pack)
    for card, count in Counter(placed).items():
        if count > have[card]:
            raise SetupError(
                f"stacked deal: `{card}` is used {count} times; the pack holds {have[card]}"
            )
    order = {card: index for index, card in reversed(list(enumerate(pack)))}
    return sorted((have - Counter(placed)).elements(), key=order.__getitem__)
