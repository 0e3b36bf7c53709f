"""A random, legal-minded bot for trick-taking games: it proposes candidate moves and lets the
referee judge.

It reads only its own seat's view (its hand, the trick on the table, how many cards each seat
holds) and knows no game's rules: which discard is allowed, which card must follow, who wins a
trick are the referee's to say. For the dealer's discard it proposes sets of its cards in a
random order; for a trick, its cards in a random order, those of the suit of the trick's first
card first. Its choices depend only on the view and the `random.Random` it is given, so a seeded
game plays the same way every time.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from typing import Any

Move = dict[str, Any]


def next_to_act(view: Mapping[str, Any]) -> int:
    """The seat whose move it is: the dealer while it discards, then each player in turn. Any
    view will do (this is public); a finished game has nobody to act."""
    to_act = view.get("to_act")
    if to_act is None:
        raise ValueError("nobody is to act: the game is over")
    return int(to_act)


def turn_candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """Moves worth proposing now, best first; the caller proposes until one is accepted."""
    seat = view.get("seat")
    if seat is None or view.get("to_act") != seat:
        return
    hand = list(view.get("hand", []))
    if view["phase"] == "discard":
        yield from _discard_candidates(hand, _discard_size(view, seat), rng)
    elif view["phase"] == "play":
        yield from _play_candidates(hand, [play["card"] for play in view.get("trick", [])], rng)


def suit(card: str) -> str:
    """The suit of a card code (GEN-2): its last letter (`KS`, `TB`, `7H`); `T` for a numbered
    trump (`T1` … `T21`), whose code is `T` and a number."""
    return card[0] if card[1:].isdigit() else card[-1]


def _discard_size(view: Mapping[str, Any], seat: int) -> int:
    """How many cards the dealer lays away: what it holds beyond the largest other hand."""
    sizes = view.get("hand_sizes", {})
    others = [int(n) for s, n in sizes.items() if int(s) != seat]
    return max(len(view.get("hand", [])) - max(others, default=0), 1)


def _discard_candidates(hand: list[str], size: int, rng: random.Random) -> Iterator[Move]:
    """Every set of `size` cards of the hand, in a random order."""
    sets = [list(cards) for cards in itertools.combinations(hand, size)]
    rng.shuffle(sets)
    for cards in sets:
        yield {"type": "discard", "cards": cards}


def _play_candidates(hand: list[str], trick: list[str], rng: random.Random) -> Iterator[Move]:
    """The hand in a random order, cards of the suit of the trick's first card first."""
    order = list(hand)
    rng.shuffle(order)
    if trick:
        led = suit(trick[0])
        order.sort(key=lambda card: suit(card) != led)  # stable: random within each group
    for card in order:
        yield {"type": "play", "card": card}
