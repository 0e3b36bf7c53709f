"""Fixtures shared by the engine, spec and proof tests: the Pontinho game and stacked deals."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping, Sequence

import pytest

from referee.cards import Card, codes, french_pack
from referee.spec.registry import Game, load_games

StackDeal = Callable[..., dict[str, Any]]


@pytest.fixture(scope="session")
def pontinho() -> Game:
    return load_games()["pontinho"]


def stack_deal(seats: int, hands: Mapping[int, Sequence[str]], turned: str,
               stock: Sequence[str] = ()) -> dict[str, Any]:
    """A stacked deal (SCENARIOS.md) that gives `hands` to some seats and deals the other
    seats 9 cards each from what is left of the two packs, in the pack's fixed order."""
    placed = [Card.parse(c) for hand in hands.values() for c in hand]
    placed += [Card.parse(turned), *(Card.parse(c) for c in stock)]
    left = Counter(french_pack(2)) - Counter(placed)
    pool = sorted(left.elements())
    dealt: dict[int, list[str]] = {}
    for seat in range(seats):
        if seat in hands:
            dealt[seat] = list(hands[seat])
        else:
            dealt[seat], pool = codes(pool[:9]), pool[9:]
    return {"hands": dealt, "turned": turned, "stock": list(stock)}


@pytest.fixture(scope="session")
def stacked() -> StackDeal:
    return stack_deal
