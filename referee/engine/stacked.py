"""Reading a stacked deal (SCENARIOS.md): the cards a scenario places, checked against the pack.

Every mechanic reads its own keys (`hands`, `turned`, `stock`, `deck`); the parts they share are
here: cards read with the game's pack, hands of the right sizes, no card used more often than
the pack holds, and the cards not placed following in the pack's fixed order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from referee.bounds import integer_key
from referee.cards import Card, PackKind
from referee.errors import CardError, SetupError, shortened


def read_card(text: Any, where: str, kind: PackKind) -> Card:
    try:
        return Card.parse(text, kind)
    except CardError as exc:
        raise SetupError(f"stacked deal: `{where}`: {exc.message}") from None


def check_keys(stacked: Mapping[str, Any], allowed: Sequence[str]) -> None:
    unknown = sorted(set(stacked) - set(allowed), key=str)  # `1`: a digit key came as a number
    if unknown:
        expected = ", ".join(f"`{k}`" for k in allowed)
        shown = shortened(str(unknown[0]), 40)
        raise SetupError(f"stacked deal: unknown key `{shown}`: expected {expected}")


def read_hands(raw: Any, sizes: Sequence[int], kind: PackKind) -> list[list[Card]]:
    """One hand per seat, seat s holding exactly `sizes[s]` cards."""
    if not isinstance(raw, Mapping):
        raise SetupError("stacked deal: `hands` must map each seat to its cards")
    hands: list[list[Card]] = [[] for _ in sizes]
    named = seats_of(raw, len(sizes))
    for key, seat in named.items():
        cards = raw[key]
        if not isinstance(cards, list) or len(cards) != sizes[seat]:
            count = len(cards) if isinstance(cards, list) else 0
            raise SetupError(f"stacked deal: seat {seat} gets {count} cards, not {sizes[seat]}")
        hands[seat] = [read_card(c, f"hands.{seat}", kind) for c in cards]
    missing = sorted(set(range(len(sizes))) - set(named.values()))
    if missing:
        raise SetupError(f"stacked deal: no hand for seat {missing[0]}")
    return hands


def seats_of(raw: Mapping[Any, Any], seats: int) -> dict[Any, int]:
    """The seat each key of `hands` names: a seat number, or its digits (as JSON writes it).
    Two keys naming one seat (`01` and `1`) are refused, and so is a seat written otherwise
    than as its number: the table keeps the deal as given, and its keys must read back."""
    named: dict[int, Any] = {}
    for key in raw:
        seat = integer_key(key)
        if seat is None or not 0 <= seat < seats:
            shown = shortened(str(key), 40)
            raise SetupError(f"stacked deal: `{shown}` is not a seat of this table")
        if seat in named:
            raise SetupError(
                f"stacked deal: `{named[seat]}` and `{key}` both name seat {seat}: give each once"
            )
        named[seat] = key
    for seat, key in named.items():
        if str(key) != str(seat):
            raise SetupError(f"stacked deal: `{key}` names seat {seat}: write it `{seat}`")
    return {key: seat for seat, key in named.items()}


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
